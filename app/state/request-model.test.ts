// The page's side of the request model: requests stay references into the session's store (blobs and
// conversation) and are resolved when shown, with their messages (and message segments) from the
// conversation; token figures are the server's, the environment's sections are the server's segments, and
// an assistant message arrives once (history_appended naming its request).
import { describe, expect, it } from "vitest";
import type { ChatMessage, PromptSegment, ServerMessage } from "../../server/protocol/index.ts";
import { initialUiState, uiReducer } from "./reducer.ts";
import { environmentParts, requestSnapshot, tokenFigures } from "./snapshot-view.ts";
import { envelope, requestEvent, snapshot, summary, tool } from "./test-builders.ts";
import { turnsOf } from "./selectors.ts";

function run(messages: ServerMessage[]) {
  return uiReducer(initialUiState, { type: "server_batch", messages });
}

const user: ChatMessage = { role: "user", content: "review it" };
const answer: ChatMessage = { role: "assistant", content: "Findings: none.", toolCalls: [] };
const base = "# Environment\n- cwd: /tmp/demo\n\n## Active Skills\n";
const reviewSection = "### review\nREVIEW BODY\n## Steps\n";
const segments: PromptSegment[] = [
  { kind: "tool", name: "read_file", hash: "t1", tokens: 40 },
  { kind: "system", name: "stable", hash: "s1", tokens: 300, chars: 20 },
  { kind: "environment", name: "base", hash: "e1", tokens: 12, chars: base.length },
  { kind: "environment", name: "review", hash: "e2", tokens: 5, chars: reviewSection.length },
];

/** Request #n in full, as the Runner made it (its messages: the conversation's first `messages`). */
function full(requestIndex: number, messages: ChatMessage[] = []) {
  return snapshot({
    requestIndex,
    system: { stable: "x".repeat(20), environment: base + reviewSection },
    stableHash: "s1",
    tools: [tool("read_file")],
    messages,
    segments: [
      ...segments,
      ...messages.map((_message, index): PromptSegment => ({
        kind: "message",
        name: String(index),
        hash: `m${index}`,
        tokens: [4, 6, 2][index],
      })),
    ],
    tokenizer: "o200k_base (gpt-tokenizer)",
    eager: { stableChars: 900, stableTokens: 700, environmentTokens: 10, totalTokens: 777 },
  });
}

/** A request as the server sends it: a reference, its messages the conversation's first n. */
function referenced(requestIndex: number, historyLength: number) {
  return requestEvent(full(requestIndex), { historyLength });
}

describe("request model in the page", () => {
  it("rebuilds the conversation from a replay from the start and resolves snapshots against it", () => {
    const state = run([
      // A replay from the start: session_opened carries no history.
      envelope(9, { type: "session_opened", session: summary(), historyLength: 2, activeSkills: [] }),
      envelope(1, { type: "run_started", runId: "r1", userMessage: "review it" }),
      envelope(2, {
        type: "history_appended",
        runId: "r1",
        message: user,
        figures: { hash: "m0", tokens: 4 },
      }),
      envelope(3, referenced(1, 1)),
      envelope(4, { type: "text_delta", runId: "r1", requestIndex: 1, text: "Find" }),
      envelope(5, {
        type: "history_appended",
        runId: "r1",
        message: answer,
        requestIndex: 1,
        figures: { hash: "m1", tokens: 6 },
      }),
      envelope(6, { type: "stop", runId: "r1", reason: "completed", iterations: 1 }),
      envelope(10, { type: "run_started", runId: "r2", userMessage: "again" }),
      envelope(11, {
        type: "history_appended",
        runId: "r2",
        message: { role: "user", content: "again" },
        figures: { hash: "m2", tokens: 2 },
      }),
      envelope(12, referenced(2, 3)),
    ]);
    const session = state.session!;
    expect(session.store.conversation.history).toEqual([user, answer, { role: "user", content: "again" }]);
    const first = requestSnapshot(session.requests[0]);
    const second = requestSnapshot(session.requests[1]);
    expect(first).toEqual(full(1, [user]));
    expect(second).toEqual(full(2, [user, answer, { role: "user", content: "again" }]));
    expect(second.segments!.map((segment) => `${segment.kind}:${segment.name}`)).toEqual([
      "tool:read_file",
      "system:stable",
      "environment:base",
      "environment:review",
      "message:0",
      "message:1",
      "message:2",
    ]);
    // The assistant's text comes from its one history_appended, and the turn is done.
    const turn = turnsOf(session).find((entry) => entry.kind === "assistant");
    expect(turn).toMatchObject({ requestIndex: 1, text: "Findings: none.", streaming: false });

    // The server's numbers, summed per pane; the eager alternative is the server's too.
    expect(tokenFigures(second)).toEqual({
      tools: 40,
      stable: 300,
      environment: 17,
      messages: 12,
      total: 369,
      tokenizer: "o200k_base (gpt-tokenizer)",
    });
    expect(second.eager?.totalTokens).toBe(777);
  });

  it("skips replayed messages a snapshot with history already holds", () => {
    const state = run([
      envelope(5, {
        type: "session_opened",
        session: summary(),
        history: [user],
        historyFigures: [{ hash: "m0", tokens: 4 }],
        historyLength: 1,
        activeSkills: [],
      }),
      envelope(2, { type: "history_appended", runId: "r1", message: user }),
      envelope(3, referenced(1, 1)),
    ]);
    expect(state.session!.store.conversation.history).toEqual([user]);
    expect(requestSnapshot(state.session!.requests[0]).segments?.at(-1)).toMatchObject({
      hash: "m0",
      tokens: 4,
    });
  });

  it("shows an isolated slash run's answer, reopened from a log that has no deltas", () => {
    const state = run([
      envelope(9, { type: "session_opened", session: summary(), historyLength: 2, activeSkills: [] }),
      envelope(1, { type: "run_started", runId: "r9", userMessage: "/notes\n\nSummarize.", skill: "notes" }),
      // Its private history: each message a blob of its own, its history_appended events not in the stream.
      envelope(
        2,
        requestEvent(
          snapshot({ runId: "r9", messages: [{ role: "user", content: "/notes\n\nSummarize." }] }),
        ),
      ),
      envelope(3, { type: "stop", runId: "r9", reason: "completed", iterations: 1 }),
      envelope(4, { type: "history_appended", runId: "r9", message: { role: "user", content: "/notes" } }),
      envelope(5, {
        type: "history_appended",
        runId: "r9",
        message: { role: "assistant", content: "The notes are summarized.", toolCalls: [] },
      }),
    ]);
    const turn = turnsOf(state.session!).find((entry) => entry.kind === "assistant");
    expect(turn).toMatchObject({ runId: "r9", requestIndex: 1, text: "The notes are summarized." });
    expect(requestSnapshot(state.session!.requests[0]).messages).toEqual([
      { role: "user", content: "/notes\n\nSummarize." },
    ]);
  });

  it("splits the environment at the server's sections, never by parsing the text", () => {
    const parts = environmentParts(full(1));
    expect(parts.map((part) => [part.name, part.heading])).toEqual([
      ["base", "# Environment"],
      ["review", "### review"],
    ]);
    // The skill's own "## Steps" heading stays inside its section.
    expect(parts[1].text).toBe("REVIEW BODY\n## Steps\n");
    // A snapshot from an old log has no segments: one part, and no token figures.
    const old = snapshot({ system: { stable: "s", environment: base + reviewSection } });
    expect(environmentParts(old)).toHaveLength(1);
    expect(tokenFigures(old)).toBeUndefined();
  });
});
