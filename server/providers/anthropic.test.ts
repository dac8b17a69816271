import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../protocol/model.ts";
import { AnthropicProvider } from "./anthropic.ts";
import { MISSING_RESULT_TEXT } from "./history.ts";
import {
  anthropicError,
  anthropicStream,
  anthropicStreamErrorEvent,
  startFakeAnthropic,
} from "./testing/fake-anthropic.ts";
import { refusedUrl, type FakeServer } from "./testing/fake-http.ts";
import {
  LOAD_SKILL_TOOL,
  READ_FILE_TOOL,
  collectEvents,
  eventsOfType,
  sampleRequest,
  terminalEvent,
  textOf,
} from "./testing/collect.ts";

const API_KEY = "sk-ant-test-0123456789abcdef";
const FAST_RETRY = { baseDelayMs: 2, maxDelayMs: 20 };

let fake: FakeServer;
beforeEach(async () => {
  fake = await startFakeAnthropic();
});
afterEach(async () => {
  await fake.close();
});

function provider(
  overrides: Partial<ConstructorParameters<typeof AnthropicProvider>[0]> = {},
): AnthropicProvider {
  return new AnthropicProvider({
    apiKey: API_KEY,
    baseUrl: fake.url,
    model: "claude-test",
    retry: FAST_RETRY,
    ...overrides,
  });
}

function sentBody(index = 0): Record<string, any> {
  return fake.requests[index].body as Record<string, any>;
}

describe("anthropic provider: streaming", () => {
  it("streams plain text as deltas in order, then usage and done", async () => {
    fake.enqueue(
      anthropicStream({ text: ["Hel", "lo, ", "world"], usage: { input_tokens: 42, output_tokens: 7 } }),
    );
    const events = await collectEvents(provider(), sampleRequest());
    expect(events[0].type).toBe("payload");
    expect(eventsOfType(events, "text_delta").map((event) => event.text)).toEqual(["Hel", "lo, ", "world"]);
    expect(eventsOfType(events, "usage")[0].usage).toMatchObject({ inputTokens: 42, outputTokens: 7 });
    expect(terminalEvent(events)).toEqual({ type: "done" });
  });

  it("sends the stable system and the environment as two system blocks, cache_control on the stable one only", async () => {
    fake.enqueue(anthropicStream({ text: "ok" }));
    const events = await collectEvents(provider(), sampleRequest());
    const body = sentBody();
    expect(fake.requests[0].path).toBe("/v1/messages");
    expect(body.model).toBe("claude-test");
    expect(body.stream).toBe(true);
    expect(body.system).toEqual([
      { type: "text", text: "STABLE SYSTEM: you are a test agent.", cache_control: { type: "ephemeral" } },
      { type: "text", text: "ENVIRONMENT: cwd=/tmp/x" },
    ]);
    // The payload event is exactly the body that went over the wire.
    expect(eventsOfType(events, "payload")[0].payload).toEqual(body);
    const headers = fake.requests[0].headers;
    expect(headers.authorization ?? headers["x-api-key"]).toContain(API_KEY);
    expect(JSON.stringify(eventsOfType(events, "payload")[0].payload)).not.toContain(API_KEY);
  });

  it("maps tools and a history with tool calls and results (errors flagged) both ways", async () => {
    fake.enqueue(anthropicStream({ text: "done" }));
    const history: ChatMessage[] = [
      { role: "user", content: "review it" },
      {
        role: "assistant",
        content: "Loading two things.",
        toolCalls: [
          { id: "toolu_1", name: "load_skill", input: { name: "review" } },
          { id: "toolu_2", name: "read_file", input: { path: "missing.md" } },
        ],
      },
      {
        role: "tool",
        toolCallId: "toolu_1",
        toolName: "load_skill",
        content: 'loaded skill "review"',
        isError: false,
      },
      { role: "tool", toolCallId: "toolu_2", toolName: "read_file", content: "not found", isError: true },
    ];
    await collectEvents(provider(), sampleRequest(history, [LOAD_SKILL_TOOL, READ_FILE_TOOL]));
    const body = sentBody();
    expect(body.tools).toEqual([
      {
        name: "load_skill",
        description: LOAD_SKILL_TOOL.description,
        input_schema: LOAD_SKILL_TOOL.inputSchema,
      },
      {
        name: "read_file",
        description: READ_FILE_TOOL.description,
        input_schema: READ_FILE_TOOL.inputSchema,
      },
    ]);
    expect(body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "review it" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Loading two things." },
          { type: "tool_use", id: "toolu_1", name: "load_skill", input: { name: "review" } },
          { type: "tool_use", id: "toolu_2", name: "read_file", input: { path: "missing.md" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: 'loaded skill "review"', is_error: false },
          { type: "tool_result", tool_use_id: "toolu_2", content: "not found", is_error: true },
        ],
      },
    ]);
  });

  it("repairs a history left by a canceled run: a call without result gets an error result, the next user text joins that turn", async () => {
    fake.enqueue(anthropicStream({ text: "ok" }));
    const history: ChatMessage[] = [
      { role: "user", content: "first" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "toolu_9", name: "read_file", input: { path: "a" } }],
      },
      { role: "user", content: "second" },
    ];
    await collectEvents(provider(), sampleRequest(history, [READ_FILE_TOOL]));
    expect(sentBody().messages).toEqual([
      { role: "user", content: [{ type: "text", text: "first" }] },
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "toolu_9", name: "read_file", input: { path: "a" } }],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_9", content: MISSING_RESULT_TEXT, is_error: true },
          { type: "text", text: "second" },
        ],
      },
    ]);
  });

  it("emits one tool call with its input", async () => {
    fake.enqueue(
      anthropicStream({ toolUses: [{ id: "toolu_a", name: "load_skill", input: { name: "review" } }] }),
    );
    const events = await collectEvents(
      provider(),
      sampleRequest([{ role: "user", content: "review" }], [LOAD_SKILL_TOOL]),
    );
    expect(eventsOfType(events, "tool_call").map((event) => event.call)).toEqual([
      { id: "toolu_a", name: "load_skill", input: { name: "review" } },
    ]);
    expect(terminalEvent(events)).toEqual({ type: "done" });
  });

  it("emits several tool calls of one turn in order, after the text", async () => {
    fake.enqueue(
      anthropicStream({
        text: "Reading both.",
        toolUses: [
          { id: "toolu_1", name: "read_file", input: { path: "a.md" } },
          { id: "toolu_2", name: "read_file", input: { path: "b.md" } },
          { id: "toolu_3", name: "load_skill", input: { name: "review" } },
        ],
      }),
    );
    const events = await collectEvents(provider(), sampleRequest());
    expect(textOf(events)).toBe("Reading both.");
    expect(eventsOfType(events, "tool_call").map((event) => [event.call.id, event.call.input])).toEqual([
      ["toolu_1", { path: "a.md" }],
      ["toolu_2", { path: "b.md" }],
      ["toolu_3", { name: "review" }],
    ]);
    const types = events.map((event) => event.type);
    expect(types.lastIndexOf("text_delta")).toBeLessThan(types.indexOf("tool_call"));
  });

  it("assembles tool input whose JSON arrives split across many input_json_delta chunks", async () => {
    const input = {
      path: "docs/ünïcode — notes.md",
      lines: [1, 2, 3],
      nested: { deep: { value: "x".repeat(200) } },
    };
    fake.enqueue(anthropicStream({ toolUses: [{ id: "toolu_s", name: "read_file", input, chunks: 60 }] }));
    const events = await collectEvents(provider(), sampleRequest());
    expect(eventsOfType(events, "tool_call")[0].call.input).toEqual(input);
  });

  it("reports usage with cache creation and cache read tokens", async () => {
    fake.enqueue(
      anthropicStream({
        text: "cached",
        usage: {
          input_tokens: 12,
          output_tokens: 3,
          cache_creation_input_tokens: 1500,
          cache_read_input_tokens: 2048,
        },
      }),
    );
    const events = await collectEvents(provider(), sampleRequest());
    expect(eventsOfType(events, "usage")).toEqual([
      {
        type: "usage",
        usage: {
          inputTokens: 12,
          outputTokens: 3,
          cacheCreationInputTokens: 1500,
          cacheReadInputTokens: 2048,
        },
      },
    ]);
  });

  it("uses the per-request model override", async () => {
    fake.enqueue(anthropicStream({ text: "ok" }));
    await collectEvents(provider(), { ...sampleRequest(), model: "claude-override" });
    expect(sentBody().model).toBe("claude-override");
  });
});

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

  it("max_tokens in the middle of a tool call: says so, instead of blaming the format", async () => {
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
    expect(eventsOfType(events, "tool_call")).toHaveLength(0);
    expect((terminalEvent(events) as { message: string }).message).toMatch(
      /hit max_tokens \(64\) in the middle of tool call "read_file"/,
    );
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
    const controller = new AbortController();
    const started = Date.now();
    const events = [];
    for await (const event of provider({ retry: { baseDelayMs: 60_000, maxDelayMs: 60_000 } }).stream(
      sampleRequest(),
      controller.signal,
    )) {
      events.push(event);
      if (event.type === "retry") controller.abort();
    }
    expect(events.map((event) => event.type)).toEqual(["payload", "retry", "done"]);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
  it("cancel mid-stream (the model still sending) ends the stream with done at once", async () => {
    const response = anthropicStream({ text: ["first ", "second"] });
    if (response.kind === "sse") response.holdAfter = 4;
    fake.enqueue(response);
    const controller = new AbortController();
    const events = [];
    const started = Date.now();
    for await (const event of provider().stream(sampleRequest(), controller.signal)) {
      events.push(event);
      if (event.type === "text_delta") controller.abort();
    }
    expect(events.map((event) => event.type)).toEqual(["payload", "text_delta", "done"]);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
