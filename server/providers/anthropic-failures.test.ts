import { describe, expect, it } from "vitest";
import { anthropicError, anthropicStream, anthropicStreamErrorEvent } from "./testing/fake-anthropic.ts";
import { refusedUrl } from "./testing/fake-http.ts";
import { ANTHROPIC_TEST_KEY as API_KEY, FAST_RETRY, useAnthropicFake } from "./testing/provider-setup.ts";
import {
  collectAbortingOn,
  collectEvents,
  eventsOfType,
  sampleRequest,
  terminalEvent,
  textOf,
} from "./testing/collect.ts";

const { fake, provider } = useAnthropicFake();

describe("anthropic provider: failures end in exactly one error event", () => {
  it("401: says the key was refused and names ANTHROPIC_API_KEY, without retrying or leaking the key", async () => {
    fake.enqueue(anthropicError(401, "authentication_error", `invalid x-api-key ${API_KEY}`));
    const events = await collectEvents(provider(), sampleRequest());
    const error = terminalEvent(events);
    expect(error).toMatchObject({ type: "error", status: 401 });
    const message = (error as { message: string }).message;
    expect(message).toContain("answered 401");
    expect(message).toContain("authentication_error");
    expect(message).toContain("ANTHROPIC_API_KEY");
    expect(message).not.toContain(API_KEY);
    expect(fake.requests).toHaveLength(1);
  });

  it("403: says the key is not allowed", async () => {
    fake.enqueue(
      anthropicError(
        403,
        "permission_error",
        "Your API key does not have permission to use the specified resource.",
      ),
    );
    const error = terminalEvent(await collectEvents(provider(), sampleRequest()));
    expect(error).toMatchObject({ type: "error", status: 403 });
    expect((error as { message: string }).message).toMatch(/403.*not allowed.*ANTHROPIC_API_KEY/);
  });

  it("404: names the unknown model", async () => {
    fake.enqueue(anthropicError(404, "not_found_error", "model: claude-nope"));
    const error = terminalEvent(await collectEvents(provider({ model: "claude-nope" }), sampleRequest()));
    expect(error).toMatchObject({ type: "error", status: 404 });
    expect((error as { message: string }).message).toContain('model "claude-nope" is unknown');
  });

  it("429 then success: retries with backoff, visible as retry events, then streams", async () => {
    fake.enqueue(
      anthropicError(
        429,
        "rate_limit_error",
        "Number of request tokens has exceeded your per-minute rate limit",
      ),
      anthropicError(429, "rate_limit_error", "still limited"),
      anthropicStream({ text: "finally" }),
    );
    const events = await collectEvents(provider(), sampleRequest());
    const retries = eventsOfType(events, "retry");
    expect(retries.map((event) => event.attempt)).toEqual([1, 2]);
    expect(retries[1].delayMs).toBe(retries[0].delayMs * 2);
    expect(retries[0].reason).toContain("429");
    expect(textOf(events)).toBe("finally");
    expect(terminalEvent(events)).toEqual({ type: "done" });
    expect(fake.requests).toHaveLength(3);
  });

  it("429 every time: gives up after the bounded number of retries", async () => {
    for (let attempt = 0; attempt < 4; attempt++)
      fake.enqueue(anthropicError(429, "rate_limit_error", "slow down"));
    const events = await collectEvents(provider(), sampleRequest());
    expect(eventsOfType(events, "retry")).toHaveLength(3);
    expect(fake.requests).toHaveLength(4);
    expect((terminalEvent(events) as { message: string }).message).toMatch(/rate limited after 3 retries/);
  });

  it("honours Retry-After, capped by the policy's maximum delay", async () => {
    fake.enqueue(
      anthropicError(429, "rate_limit_error", "wait", { "retry-after": "600" }),
      anthropicStream({ text: "ok" }),
    );
    const events = await collectEvents(
      provider({ retry: { baseDelayMs: 1, maxDelayMs: 15 } }),
      sampleRequest(),
    );
    expect(eventsOfType(events, "retry")[0].delayMs).toBe(15);
  });

  it("529 overloaded: retried, then an overloaded message when it persists", async () => {
    fake.enqueue(
      anthropicError(529, "overloaded_error", "Overloaded"),
      anthropicError(529, "overloaded_error", "Overloaded"),
    );
    const events = await collectEvents(
      provider({ retry: { ...FAST_RETRY, maxRetries: 1 } }),
      sampleRequest(),
    );
    expect(eventsOfType(events, "retry")).toHaveLength(1);
    expect(terminalEvent(events)).toMatchObject({ type: "error", status: 529 });
    expect((terminalEvent(events) as { message: string }).message).toMatch(/overloaded after 1 retry/);
  });

  it("an overloaded_error event at the start of a stream is retried like a 529", async () => {
    fake.enqueue(
      anthropicStreamErrorEvent("overloaded_error", "Overloaded"),
      anthropicStream({ text: "recovered" }),
    );
    const events = await collectEvents(provider(), sampleRequest());
    expect(eventsOfType(events, "retry")).toHaveLength(1);
    expect(textOf(events)).toBe("recovered");
  });

  it("500: a server-side failure, not retried", async () => {
    fake.enqueue(anthropicError(500, "api_error", "Internal server error"));
    const events = await collectEvents(provider(), sampleRequest());
    expect(terminalEvent(events)).toMatchObject({ type: "error", status: 500 });
    expect((terminalEvent(events) as { message: string }).message).toMatch(
      /answered 500 \(api_error: Internal server error\).*send the message again/,
    );
    expect(eventsOfType(events, "retry")).toHaveLength(0);
  });

  it("connection refused: names the URL and the setting to check", async () => {
    const url = await refusedUrl();
    const events = await collectEvents(provider({ baseUrl: url }), sampleRequest());
    const message = (terminalEvent(events) as { type: string; message: string }).message;
    expect(terminalEvent(events).type).toBe("error");
    expect(message).toContain(`could not connect to ${url}`);
    expect(message).toContain("ECONNREFUSED");
    expect(message).toContain("ANTHROPIC_BASE_URL");
  });

  it("a stream cut mid-message: the text so far was streamed, then one error saying it was cut", async () => {
    // message_start, ping, content_block_start, first delta — then the socket drops.
    fake.enqueue(anthropicStream({ text: ["partial ", "answer"] }, 4));
    const events = await collectEvents(provider(), sampleRequest());
    expect(textOf(events)).toBe("partial ");
    expect(terminalEvent(events).type).toBe("error");
    expect((terminalEvent(events) as { message: string }).message).toContain("cut mid-message");
  });

  it("a stream that ends cleanly but without message_stop counts as cut", async () => {
    const response = anthropicStream({ text: "half" });
    if (response.kind === "sse") response.events.pop();
    fake.enqueue(response);
    const events = await collectEvents(provider(), sampleRequest());
    expect((terminalEvent(events) as { message: string }).message).toMatch(/cut mid-message.*message_stop/);
  });

  it("max_tokens in the middle of a tool call: the call comes out cut off, not as a format error", async () => {
    const response = anthropicStream({
      toolUses: [{ name: "read_file", input: { path: "long/path.md" }, chunks: 4 }],
      stopReason: "max_tokens",
    });
    if (response.kind === "sse") {
      const lastJson = response.events
        .map((event) => event.data)
        .findLastIndex((data) => data.includes("input_json_delta"));
      response.events.splice(lastJson, 1);
    }
    fake.enqueue(response);
    const events = await collectEvents(provider({ maxTokens: 64 }), sampleRequest());
    // The Runner answers it with an error result (server/providers/truncated-tool-call.test.ts).
    expect(eventsOfType(events, "tool_call")).toMatchObject([
      { call: { name: "read_file", input: {} }, cutOff: true },
    ]);
    expect(terminalEvent(events).type).toBe("done");
  });

  it("a tool input that is not JSON (and no max_tokens) is a format error", async () => {
    const response = anthropicStream({ toolUses: [{ name: "read_file", input: { path: "a" }, chunks: 3 }] });
    if (response.kind === "sse") {
      const firstJson = response.events.findIndex((event) => event.data.includes("input_json_delta"));
      response.events.splice(firstJson, 1);
    }
    fake.enqueue(response);
    const events = await collectEvents(provider(), sampleRequest());
    expect((terminalEvent(events) as { message: string }).message).toMatch(
      /not in the Anthropic streaming format.*read_file/,
    );
  });

  it("malformed SSE: says the stream is not in the Anthropic format", async () => {
    fake.enqueue({
      kind: "raw",
      contentType: "text/event-stream",
      body: 'event: message_start\ndata: {"type":"message_start","message":{\n\n',
    });
    const events = await collectEvents(provider(), sampleRequest());
    expect(terminalEvent(events).type).toBe("error");
    expect((terminalEvent(events) as { message: string }).message).toContain(
      "not in the Anthropic streaming format",
    );
  });

  it("abort during a retry wait ends the stream with done at once", async () => {
    fake.enqueue(anthropicError(429, "rate_limit_error", "slow down"));
    const { events, elapsedMs } = await collectAbortingOn(
      provider({ retry: { baseDelayMs: 60_000, maxDelayMs: 60_000 } }),
      sampleRequest(),
      "retry",
    );
    expect(events.map((event) => event.type)).toEqual(["payload", "retry", "done"]);
    expect(elapsedMs).toBeLessThan(5_000);
  });
  it("cancel mid-stream (the model still sending) ends the stream with done at once", async () => {
    const response = anthropicStream({ text: ["first ", "second"] });
    if (response.kind === "sse") response.holdAfter = 4;
    fake.enqueue(response);
    const { events, elapsedMs } = await collectAbortingOn(provider(), sampleRequest(), "text_delta");
    expect(events.map((event) => event.type)).toEqual(["payload", "text_delta", "done"]);
    expect(elapsedMs).toBeLessThan(5_000);
  });
});
