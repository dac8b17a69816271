// Edge cases of the pure request mappings that a conversation can reach after cancels and failures.
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../protocol/model.ts";
import { toAnthropicBody, toAnthropicMessages } from "./anthropic-mapping.ts";
import { toOpenAiBody } from "./openai-mapping.ts";
import { MISSING_RESULT_TEXT, pairToolResults } from "./history.ts";
import { sampleRequest } from "./testing/collect.ts";

describe("pairToolResults", () => {
  it("drops a result whose call is not just before it and fills a missing one", () => {
    const history: ChatMessage[] = [
      { role: "tool", toolCallId: "stray", toolName: "x", content: "orphan", isError: false },
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "a", name: "read_file", input: {} },
          { id: "b", name: "read_file", input: {} },
        ],
      },
      { role: "tool", toolCallId: "b", toolName: "read_file", content: "B", isError: false },
    ];
    expect(pairToolResults(history)).toEqual([
      { role: "user", content: "go" },
      history[2],
      { role: "tool", toolCallId: "a", toolName: "read_file", content: MISSING_RESULT_TEXT, isError: true },
      history[3],
    ]);
  });
});

describe("anthropic mapping", () => {
  it("leaves out empty system parts, an empty assistant turn and an empty tools list", () => {
    const body = toAnthropicBody(
      {
        system: { stable: "S", environment: "" },
        messages: [
          { role: "user", content: "one" },
          { role: "assistant", content: "", toolCalls: [] },
          { role: "user", content: "two" },
        ],
        tools: [],
      },
      "claude-x",
      1000,
    );
    expect(body.system).toEqual([{ type: "text", text: "S", cache_control: { type: "ephemeral" } }]);
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "one" },
          { type: "text", text: "two" },
        ],
      },
    ]);
    expect("tools" in body).toBe(false);
    expect(body).toMatchObject({ model: "claude-x", max_tokens: 1000, stream: true });
  });

  it("wraps a tool input that is not an object, since tool_use input must be one", () => {
    const [, assistant] = toAnthropicMessages([
      { role: "user", content: "x" },
      { role: "assistant", content: "", toolCalls: [{ id: "t", name: "echo", input: "plain" }] },
      { role: "tool", toolCallId: "t", toolName: "echo", content: "ok", isError: false },
    ]);
    expect(assistant.content).toEqual([
      { type: "tool_use", id: "t", name: "echo", input: { value: "plain" } },
    ]);
  });
});

describe("openai mapping", () => {
  it("keeps content on an assistant turn without tool calls and omits tools when there are none", () => {
    const body = toOpenAiBody(
      sampleRequest([
        { role: "user", content: "a" },
        { role: "assistant", content: "", toolCalls: [] },
        { role: "user", content: "b" },
      ]),
      "m",
    );
    expect(body.messages.slice(2)).toEqual([
      { role: "user", content: "a" },
      { role: "assistant", content: "" },
      { role: "user", content: "b" },
    ]);
    expect("tools" in body).toBe(false);
    expect("max_completion_tokens" in body).toBe(false);
  });
});
