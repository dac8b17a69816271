import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../protocol/model.ts";
import { OPENAI_PLACEHOLDER_KEY } from "./openai.ts";
import { TOOL_ERROR_PREFIX } from "./openai-mapping.ts";
import { openAiError, openAiStream } from "./testing/fake-openai.ts";
import { refusedUrl } from "./testing/fake-http.ts";
import { OPENAI_TEST_KEY as API_KEY, FAST_RETRY, useOpenAiFake } from "./testing/provider-setup.ts";
import {
  LOAD_SKILL_TOOL,
  READ_FILE_TOOL,
  collectAbortingOn,
  collectEvents,
  eventsOfType,
  sampleRequest,
  terminalEvent,
  textOf,
} from "./testing/collect.ts";

const { fake, provider } = useOpenAiFake();

function messageOf(events: Awaited<ReturnType<typeof collectEvents>>): string {
  const last = terminalEvent(events);
  if (last.type !== "error") throw new Error(`expected an error, got ${last.type}`);
  return last.message;
}

describe("openai provider: streaming", () => {
  it("streams plain text deltas, asks for usage in the stream, then done", async () => {
    fake.enqueue(openAiStream({ text: ["Hi", " there", "!"] }));
    const events = await collectEvents(provider(), sampleRequest());
    expect(events[0].type).toBe("payload");
    expect(eventsOfType(events, "text_delta").map((event) => event.text)).toEqual(["Hi", " there", "!"]);
    expect(terminalEvent(events)).toEqual({ type: "done" });
    const body = fake.sentBody();
    expect(fake.requests[0].path).toBe("/v1/chat/completions");
    expect(body).toMatchObject({ model: "gpt-test", stream: true, stream_options: { include_usage: true } });
    expect(body.tools).toBeUndefined();
    expect(fake.requests[0].headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(eventsOfType(events, "payload")[0].payload).toEqual(body);
  });

  it("sends the stable system then the environment as two system messages, in that order", async () => {
    fake.enqueue(openAiStream({ text: "ok" }));
    await collectEvents(provider(), sampleRequest());
    expect(fake.sentBody().messages.slice(0, 3)).toEqual([
      { role: "system", content: "STABLE SYSTEM: you are a test agent." },
      { role: "system", content: "ENVIRONMENT: cwd=/tmp/x" },
      { role: "user", content: "hello" },
    ]);
  });

  it("maps tools as functions, assistant tool calls, and tool results as role tool messages", async () => {
    fake.enqueue(openAiStream({ text: "done" }));
    const history: ChatMessage[] = [
      { role: "user", content: "review" },
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "call_1", name: "load_skill", input: { name: "review" } },
          { id: "call_2", name: "read_file", input: { path: "x" } },
        ],
      },
      { role: "tool", toolCallId: "call_1", toolName: "load_skill", content: "loaded", isError: false },
      { role: "tool", toolCallId: "call_2", toolName: "read_file", content: "not found", isError: true },
    ];
    await collectEvents(provider(), sampleRequest(history, [LOAD_SKILL_TOOL, READ_FILE_TOOL]));
    const body = fake.sentBody();
    expect(body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "load_skill",
          description: LOAD_SKILL_TOOL.description,
          parameters: LOAD_SKILL_TOOL.inputSchema,
        },
      },
      {
        type: "function",
        function: {
          name: "read_file",
          description: READ_FILE_TOOL.description,
          parameters: READ_FILE_TOOL.inputSchema,
        },
      },
    ]);
    expect(body.messages.slice(2)).toEqual([
      { role: "user", content: "review" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_1",
            type: "function",
            function: { name: "load_skill", arguments: '{"name":"review"}' },
          },
          { id: "call_2", type: "function", function: { name: "read_file", arguments: '{"path":"x"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "loaded" },
      { role: "tool", tool_call_id: "call_2", content: `${TOOL_ERROR_PREFIX}not found` },
    ]);
  });

  it("emits one tool call", async () => {
    fake.enqueue(
      openAiStream({ toolCalls: [{ id: "call_a", name: "load_skill", arguments: { name: "review" } }] }),
    );
    const events = await collectEvents(provider(), sampleRequest());
    expect(eventsOfType(events, "tool_call").map((event) => event.call)).toEqual([
      { id: "call_a", name: "load_skill", input: { name: "review" } },
    ]);
  });

  it("emits several tool calls of one turn, in index order, after the text", async () => {
    fake.enqueue(
      openAiStream({
        text: "Two reads.",
        toolCalls: [
          { id: "call_1", name: "read_file", arguments: { path: "a" }, chunks: 3 },
          { id: "call_2", name: "read_file", arguments: { path: "b" }, chunks: 3 },
        ],
      }),
    );
    const events = await collectEvents(provider(), sampleRequest());
    expect(textOf(events)).toBe("Two reads.");
    expect(eventsOfType(events, "tool_call").map((event) => [event.call.id, event.call.input])).toEqual([
      ["call_1", { path: "a" }],
      ["call_2", { path: "b" }],
    ]);
  });

  it("assembles arguments split across many chunks", async () => {
    const argumentsObject = {
      path: "src/ä/ö/ü — long.ts",
      flags: [true, false, null],
      text: "y".repeat(300),
    };
    fake.enqueue(
      openAiStream({
        toolCalls: [{ id: "call_s", name: "read_file", arguments: argumentsObject, chunks: 80 }],
      }),
    );
    const events = await collectEvents(provider(), sampleRequest());
    expect(eventsOfType(events, "tool_call")[0].call.input).toEqual(argumentsObject);
  });

  it("gives a tool call without an id (some local servers) a generated one", async () => {
    const response = openAiStream({ toolCalls: [{ name: "read_file", arguments: { path: "a" } }] });
    if (response.kind === "sse") {
      response.events = response.events.map((event) => ({
        data: event.data.replace(/"id":"call-[0-9a-f]+",/, ""),
      }));
    }
    fake.enqueue(response);
    const events = await collectEvents(provider(), sampleRequest());
    expect(eventsOfType(events, "tool_call")[0].call.id).toMatch(/^call_/);
  });

  it("reports usage, cached prompt tokens as cache reads", async () => {
    fake.enqueue(
      openAiStream({ text: "ok", usage: { prompt_tokens: 3000, completion_tokens: 9, cached_tokens: 2048 } }),
    );
    const events = await collectEvents(provider(), sampleRequest());
    expect(eventsOfType(events, "usage")).toEqual([
      { type: "usage", usage: { inputTokens: 3000, outputTokens: 9, cacheReadInputTokens: 2048 } },
    ]);
  });

  it("works without a key against a local compatible server (Ollama-style)", async () => {
    fake.enqueue(openAiStream({ text: "local", omitUsage: true }));
    const events = await collectEvents(provider({ apiKey: undefined }), sampleRequest());
    expect(textOf(events)).toBe("local");
    expect(eventsOfType(events, "usage")).toHaveLength(0);
    expect(fake.requests[0].headers.authorization).toBe(`Bearer ${OPENAI_PLACEHOLDER_KEY}`);
  });
});

describe("openai provider: failures end in exactly one error event", () => {
  it("401: names OPENAI_API_KEY and never shows the key", async () => {
    fake.enqueue(
      openAiError(401, `Incorrect API key provided: ${API_KEY}.`, "invalid_request_error", "invalid_api_key"),
    );
    const events = await collectEvents(provider(), sampleRequest());
    expect(terminalEvent(events)).toMatchObject({ type: "error", status: 401 });
    expect(messageOf(events)).toMatch(/answered 401.*OPENAI_API_KEY/);
    expect(messageOf(events)).not.toContain(API_KEY);
  });

  it("403: says the key is not allowed", async () => {
    fake.enqueue(
      openAiError(
        403,
        "You are not allowed to sample from this model",
        "invalid_request_error",
        "model_not_allowed",
      ),
    );
    expect(messageOf(await collectEvents(provider(), sampleRequest()))).toMatch(/403.*not allowed/);
  });

  it("404: names the unknown model", async () => {
    fake.enqueue(
      openAiError(404, "The model `gpt-nope` does not exist", "invalid_request_error", "model_not_found"),
    );
    const events = await collectEvents(provider({ model: "gpt-nope" }), sampleRequest());
    expect(messageOf(events)).toContain('model "gpt-nope" is unknown');
  });

  it("404 from a base URL without /v1: suggests the usual /v1 suffix", async () => {
    const events = await collectEvents(provider({ baseUrl: fake.url, apiKey: undefined }), sampleRequest());
    expect(terminalEvent(events)).toMatchObject({ type: "error", status: 404 });
    expect(messageOf(events)).toContain("usually end in /v1");
  });

  it("429 then success: retry events, then the answer", async () => {
    fake.enqueue(
      openAiError(429, "Rate limit reached", "requests", "rate_limit_exceeded"),
      openAiStream({ text: "after" }),
    );
    const events = await collectEvents(provider(), sampleRequest());
    expect(eventsOfType(events, "retry")).toMatchObject([{ attempt: 1, delayMs: 2 }]);
    expect(textOf(events)).toBe("after");
    expect(terminalEvent(events)).toEqual({ type: "done" });
  });

  it("529 overloaded: retried a bounded number of times", async () => {
    for (let attempt = 0; attempt < 3; attempt++)
      fake.enqueue(openAiError(529, "overloaded", "server_error"));
    const events = await collectEvents(
      provider({ retry: { ...FAST_RETRY, maxRetries: 2 } }),
      sampleRequest(),
    );
    expect(eventsOfType(events, "retry")).toHaveLength(2);
    expect(messageOf(events)).toMatch(/overloaded after 2 retries/);
  });

  it("500: one error, no retry", async () => {
    fake.enqueue(openAiError(500, "The server had an error while processing your request.", "server_error"));
    const events = await collectEvents(provider(), sampleRequest());
    expect(terminalEvent(events)).toMatchObject({ type: "error", status: 500 });
    expect(fake.requests).toHaveLength(1);
  });

  it("connection refused: names the URL (the Ollama case when it is not running)", async () => {
    const url = `${await refusedUrl()}/v1`;
    const events = await collectEvents(provider({ baseUrl: url, apiKey: undefined }), sampleRequest());
    expect(messageOf(events)).toMatch(
      new RegExp(`could not connect to ${url.replace(/[.]/g, "\\.")} \\(ECONNREFUSED\\).*OPENAI_BASE_URL`),
    );
  });

  it("a stream cut mid-message: text so far, then one error", async () => {
    // role chunk, "part", then the socket drops before the finish chunk.
    fake.enqueue(openAiStream({ text: ["part", "ial"] }, 2));
    const events = await collectEvents(provider(), sampleRequest());
    expect(textOf(events)).toBe("part");
    expect(messageOf(events)).toContain("cut mid-message");
  });

  it("a stream that stops cleanly before any finish_reason counts as cut", async () => {
    const response = openAiStream({
      toolCalls: [{ name: "read_file", arguments: { path: "a" }, chunks: 4 }],
    });
    if (response.kind === "sse") response.events = response.events.slice(0, 3).concat({ data: "[DONE]" });
    fake.enqueue(response);
    const events = await collectEvents(provider(), sampleRequest());
    expect(eventsOfType(events, "tool_call")).toHaveLength(0);
    expect(messageOf(events)).toMatch(/cut mid-message.*finish_reason/);
  });

  it("finish_reason length in the middle of a tool call: the call comes out cut off, not as an error", async () => {
    const response = openAiStream({
      toolCalls: [{ name: "read_file", arguments: { path: "abc" }, chunks: 4 }],
      finishReason: "length",
    });
    if (response.kind === "sse") {
      const lastArguments = response.events
        .map((event) => event.data)
        .findLastIndex((data) => data.includes('"arguments"'));
      response.events.splice(lastArguments, 1);
    }
    fake.enqueue(response);
    const events = await collectEvents(provider(), sampleRequest());
    // The Runner answers it with an error result (server/providers/truncated-tool-call.test.ts).
    expect(eventsOfType(events, "tool_call")).toMatchObject([
      { call: { name: "read_file", input: {} }, cutOff: true },
    ]);
    expect(events.at(-1)?.type).toBe("done");
  });

  it("malformed SSE: not JSON where a chunk should be", async () => {
    fake.enqueue({
      kind: "raw",
      contentType: "text/event-stream",
      body: 'data: {"id":"x","choices":[{\n\ndata: [DONE]\n\n',
    });
    expect(messageOf(await collectEvents(provider(), sampleRequest()))).toContain(
      "not in the OpenAI-compatible streaming format",
    );
  });

  it("an error object inside the stream becomes one error event", async () => {
    fake.enqueue({
      kind: "sse",
      events: [{ data: JSON.stringify({ error: { message: "model crashed", type: "server_error" } }) }],
    });
    const events = await collectEvents(provider(), sampleRequest());
    expect(messageOf(events)).toContain("model crashed");
  });
  it("cancel mid-stream (the model still sending) ends the stream with done at once", async () => {
    const response = openAiStream({ text: ["first ", "second"] });
    if (response.kind === "sse") response.holdAfter = 2;
    fake.enqueue(response);
    const { events, elapsedMs } = await collectAbortingOn(provider(), sampleRequest(), "text_delta");
    expect(events.map((event) => event.type)).toEqual(["payload", "text_delta", "done"]);
    expect(elapsedMs).toBeLessThan(5_000);
  });
});
