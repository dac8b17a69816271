// Kept typing is dropped when its approval or manual request is gone, and only then: the views the real
// reducer produces for an answer, a run that stops, and a session opened afresh (whose replay brings
// its pending approval back one event at a time).
import { describe, expect, it } from "vitest";
import type { ServerMessage } from "../../server/protocol/index.ts";
import { keysGone, typedKey } from "../lib/typed-answers.ts";
import { initialUiState, uiReducer } from "../state/reducer.ts";
import { envelope, snapshot, summary, wireRequest } from "../state/test-builders.ts";
import type { UiState } from "../state/types.ts";
import { pendingKeysOf } from "./typed-forget.ts";

function run(messages: ServerMessage[], start: UiState = initialUiState): UiState {
  return uiReducer(start, { type: "server_batch", messages });
}

const opened = (seq: number) =>
  envelope(seq, { type: "session_opened", session: summary(), history: [], activeSkills: [] });
const asked = (seq: number, callId: string, sessionId = "s1") =>
  envelope(
    seq,
    {
      type: "permission_request",
      runId: "r1",
      request: {
        callId,
        tool: "run_command",
        category: "exec",
        input: {},
        command: "rm -rf logs",
        cwd: "/w",
        trace: { decision: "ask", source: "mode", category: "exec" },
      },
    },
    sessionId,
  );
const called = (seq: number, callId: string, sessionId = "s1") =>
  envelope(
    seq,
    {
      type: "tool_call",
      runId: "r1",
      requestIndex: 1,
      call: { id: callId, name: "run_command", input: {} },
      known: true,
      visible: true,
    },
    sessionId,
  );

describe("pendingKeysOf and keysGone over the reducer's views", () => {
  const started = run([opened(1), envelope(2, { type: "run_started", runId: "r1", userMessage: "go" })]);
  const asking = run([called(3, "c1"), asked(4, "c1"), called(5, "c2"), asked(6, "c2")], started);

  it("keys each pending approval by session, run and call", () => {
    expect(pendingKeysOf(asking.session).slice(1)).toEqual([
      typedKey("s1", "r1", "c1"),
      typedKey("s1", "r1", "c2"),
    ]);
    expect(pendingKeysOf(undefined)).toEqual([]);
  });

  it("drops an answered approval's key and keeps the other's", () => {
    const answered = run(
      [
        envelope(7, {
          type: "permission_decision",
          runId: "r1",
          callId: "c1",
          trace: { decision: "deny", source: "user", category: "exec" },
          answer: { kind: "deny", reason: "no" },
        }),
      ],
      asking,
    );
    expect(keysGone(pendingKeysOf(asking.session), pendingKeysOf(answered.session))).toEqual([
      typedKey("s1", "r1", "c1"),
    ]);
  });

  it("drops every key of a run that stops, its manual request's too", () => {
    const manual = run(
      [
        envelope(7, {
          type: "manual_turn_requested",
          runId: "r1",
          requestIndex: 2,
          ...wireRequest(snapshot()),
        }),
      ],
      asking,
    );
    expect(pendingKeysOf(manual.session)).toContain(typedKey("s1", "r1", 2));
    const stopped = run(
      [envelope(8, { type: "stop", runId: "r1", reason: "canceled", iterations: 1 })],
      manual,
    );
    expect(keysGone(pendingKeysOf(manual.session), pendingKeysOf(stopped.session)).sort()).toEqual(
      [typedKey("s1", "r1", "c1"), typedKey("s1", "r1", "c2"), typedKey("s1", "r1", 2)].sort(),
    );
  });

  it("drops nothing while another session opens and replays its pending approvals", () => {
    let view = pendingKeysOf(asking.session);
    let state = run(
      [envelope(10, { type: "session_opened", session: summary("s2"), history: [], activeSkills: [] }, "s2")],
      asking,
    );
    const replay = [
      envelope(2, { type: "run_started", runId: "r1", userMessage: "go" }, "s2"),
      called(3, "c1", "s2"),
      asked(4, "c1", "s2"),
    ];
    for (const message of replay) {
      state = run([message], state);
      const next = pendingKeysOf(state.session);
      expect(keysGone(view, next)).toEqual([]);
      view = next;
    }
    expect(view.slice(1)).toEqual([typedKey("s2", "r1", "c1")]);
  });
});
