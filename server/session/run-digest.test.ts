// The compare view's figures come from logged events: tokens from the snapshot's segments and, for
// messages sent by reference, from their history_appended figures; a cost only when a snapshot carries
// one (another part of the project adds `cache.costUsd`); console calls are not runs.
import { describe, expect, it } from "vitest";
import type { RequestSnapshot } from "../protocol/runner-events.ts";
import type { SessionEvent } from "../protocol/wire.ts";
import { runDigests } from "./run-digest.ts";

function snapshot(requestIndex: number, historyLength: number, extra: object = {}): RequestSnapshot {
  return {
    runId: "run_a",
    requestIndex,
    iteration: requestIndex,
    provider: "scripted",
    model: "m",
    disclosure: "progressive",
    system: { stable: "S", environment: "E" },
    stableHash: "h",
    historyLength,
    tools: [],
    registeredNotVisible: [],
    listedSkills: [],
    activeSkills: [],
    tokenizer: "o200k_base (gpt-tokenizer)",
    segments: [
      { kind: "tool", name: "read_file", hash: "t", tokens: 30 },
      { kind: "system", name: "stable", hash: "s", tokens: 100, chars: 1 },
      { kind: "environment", name: "base", hash: "e", tokens: 20, chars: 1 },
    ],
    at: "2026-12-02T00:00:00.000Z",
    ...extra,
  };
}

const events: SessionEvent[] = [
  { type: "run_started", runId: "run_a", userMessage: "profile it" },
  {
    type: "history_appended",
    runId: "run_a",
    message: { role: "user", content: "profile it" },
    figures: { hash: "m0", tokens: 4 },
  },
  { type: "request", runId: "run_a", snapshot: snapshot(1, 1, { cache: { costUsd: 0.0012 } }) },
  { type: "usage", runId: "run_a", requestIndex: 1, usage: { inputTokens: 160, outputTokens: 9 } },
  {
    type: "history_appended",
    runId: "run_a",
    requestIndex: 1,
    message: {
      role: "assistant",
      content: "Loading.",
      toolCalls: [{ id: "c1", name: "load_skill", input: { name: "x" } }],
    },
    figures: { hash: "m1", tokens: 12 },
  },
  {
    type: "tool_call",
    runId: "run_a",
    requestIndex: 1,
    call: { id: "c1", name: "load_skill", input: {} },
    known: true,
    visible: true,
  },
  { type: "skill_activated", runId: "run_a", name: "x", source: "builtin", position: 0 },
  {
    type: "tool_call",
    runId: "console_1",
    requestIndex: 0,
    call: { id: "k", name: "read_file", input: {} },
    known: true,
    visible: true,
    console: true,
  },
  {
    type: "history_appended",
    runId: "run_a",
    message: { role: "tool", toolCallId: "c1", toolName: "load_skill", content: "ok", isError: false },
  },
  // A long message's figures come with the snapshot instead of its history_appended.
  {
    type: "request",
    runId: "run_a",
    snapshot: {
      ...snapshot(2, 3),
      segments: [...snapshot(2, 3).segments!, { kind: "message", name: "2", hash: "m2", tokens: 7 }],
    },
  },
  {
    type: "history_appended",
    runId: "run_a",
    requestIndex: 2,
    message: { role: "assistant", content: "Done.", toolCalls: [] },
  },
  { type: "stop", runId: "run_a", reason: "completed", iterations: 2 },
];

describe("runDigests", () => {
  it("reports per request tokens, usage and cost, and per run skills, tools, stop and answer", () => {
    const [run, ...others] = runDigests(
      "s1",
      events.map((event) => ({ event })),
    );
    expect(others).toEqual([]);
    expect(run).toMatchObject({
      sessionId: "s1",
      runId: "run_a",
      userMessage: "profile it",
      skillsLoaded: ["x"],
      toolsCalled: ["load_skill"],
      stopReason: "completed",
      finalAnswer: "Done.",
    });
    expect(run.requests[0]).toMatchObject({
      requestIndex: 1,
      tokens: { tools: 30, stable: 100, environment: 20, messages: 4, total: 154 },
      usage: { inputTokens: 160, outputTokens: 9 },
      costUsd: 0.0012,
      messages: [{ role: "user", content: "profile it" }],
    });
    expect(run.requests[1].tokens).toEqual({
      tools: 30,
      stable: 100,
      environment: 20,
      messages: 4 + 12 + 7,
      total: 173,
    });
    expect(run.requests[1].costUsd).toBeUndefined();
    expect(run.requests[1].messages).toHaveLength(3);
  });

  it("gives no token figures when a referenced message has none (an older log)", () => {
    const old = events.map((event) =>
      event.type === "history_appended" && event.message.role === "user"
        ? { event: { ...event, figures: undefined } }
        : { event },
    );
    expect(runDigests("s1", old)[0].requests[0].tokens).toBeUndefined();
  });
});
