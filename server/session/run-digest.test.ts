// The compare view's figures come from logged events (format 3, as the session's stream writes them):
// tokens from the request's segments and, for messages sent by reference, from their history_appended
// figures (a long message's from the request that first sent it); a cost only when a snapshot carries one
// (another part of the project adds `cache.costUsd`); console calls are not runs.
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../protocol/model.ts";
import type { RequestSnapshot } from "../protocol/runner-events.ts";
import { TokenCounter } from "../prompt/segments.ts";
import { runDigests } from "./run-digest.ts";
import type { StreamInput } from "./request-writer.ts";
import { loggedEvents } from "./testing/logged-events.ts";

/** This file's own token counter (the composition root a test is). */
const tokens = new TokenCounter();

const conversation: ChatMessage[] = [
  { role: "user", content: "profile it" },
  {
    role: "assistant",
    content: "Loading.",
    toolCalls: [{ id: "c1", name: "load_skill", input: { name: "x" } }],
  },
  // Long enough not to be counted as it is appended: its figures come with the request that sends it.
  { role: "tool", toolCallId: "c1", toolName: "load_skill", content: "ok ".repeat(6_000), isError: false },
];
const hash = (index: number) => tokens.messageHash(conversation[index]);

function snapshot(requestIndex: number, historyLength: number, extra: object = {}): RequestSnapshot {
  return {
    runId: "run_a",
    requestIndex,
    iteration: requestIndex,
    provider: "scripted",
    model: "m",
    disclosure: "progressive",
    system: { stable: "S", environment: "E" },
    stableHash: "s",
    messages: conversation.slice(0, historyLength),
    tools: [
      {
        name: "read_file",
        description: "Reads.",
        inputSchema: { type: "object" },
        safety: "read_only",
        category: "read",
        origin: "system",
      },
    ],
    registeredNotVisible: [],
    listedSkills: [],
    activeSkills: [],
    tokenizer: "o200k_base (gpt-tokenizer)",
    segments: [
      { kind: "tool", name: "read_file", hash: "t", tokens: 30 },
      { kind: "system", name: "stable", hash: "s", tokens: 100, chars: 1 },
      { kind: "environment", name: "base", hash: "e", tokens: 20, chars: 1 },
      ...[4, 12, 7].slice(0, historyLength).map((tokens, index) => ({
        kind: "message" as const,
        name: String(index),
        hash: hash(index),
        tokens,
      })),
    ],
    at: "2026-12-02T00:00:00.000Z",
    ...extra,
  };
}

const events: StreamInput[] = [
  { type: "run_started", runId: "run_a", userMessage: "profile it" },
  {
    type: "history_appended",
    runId: "run_a",
    message: conversation[0],
    figures: { hash: hash(0), tokens: 4 },
  },
  {
    type: "request",
    runId: "run_a",
    snapshot: snapshot(1, 1, {
      // A prediction as the cache model writes it (one read back without a model or figures is none).
      cache: {
        model: "claude-sonnet-4-5",
        breakpoints: "stable",
        predicted: { read: 0, written: 0, uncached: 154 },
        costUsd: 0.0012,
      },
    }),
  },
  { type: "usage", runId: "run_a", requestIndex: 1, usage: { inputTokens: 160, outputTokens: 9 } },
  {
    type: "history_appended",
    runId: "run_a",
    requestIndex: 1,
    message: conversation[1],
    figures: { hash: hash(1), tokens: 12 },
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
    message: structuredClone(conversation[2]),
  },
  // A long message's figures come with the request instead of its history_appended.
  { type: "request", runId: "run_a", snapshot: snapshot(2, 3) },
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
      loggedEvents(events).map((event) => ({ event })),
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

  it("gives no token figures for a request logged before there were any", () => {
    const old = events.map((event) =>
      event.type === "request" ? { ...event, snapshot: { ...event.snapshot, segments: undefined } } : event,
    );
    expect(
      runDigests(
        "s1",
        loggedEvents(old as StreamInput[]).map((event) => ({ event })),
      )[0].requests[0].tokens,
    ).toBeUndefined();
  });
});
