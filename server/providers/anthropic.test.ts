import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../protocol/model.ts";
import { MISSING_RESULT_TEXT } from "./history.ts";
import { anthropicStream } from "./testing/fake-anthropic.ts";
import { ANTHROPIC_TEST_KEY as API_KEY, useAnthropicFake } from "./testing/provider-setup.ts";
import {
  LOAD_SKILL_TOOL,
  READ_FILE_TOOL,
  collectEvents,
  eventsOfType,
  sampleRequest,
  terminalEvent,
  textOf,
} from "./testing/collect.ts";

const { fake, provider } = useAnthropicFake();

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
    const body = fake.sentBody();
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
    const body = fake.sentBody();
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
    expect(fake.sentBody().messages).toEqual([
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
    expect(fake.sentBody().model).toBe("claude-override");
  });
});
