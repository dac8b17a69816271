// X11 in the UI: a run the server closed after a crash (`stop: interrupted`, written at the next start)
// ends like any other stop: the run is no longer running, its open tool call is closed, and the stop turn
// carries the server's explanation.
import { describe, expect, it } from "vitest";
import type { ServerMessage } from "../../server/protocol/index.ts";
import { initialUiState, uiReducer } from "./reducer.ts";
import { envelope, summary } from "./test-builders.ts";
import { turnsOf, callsOf } from "./selectors.ts";

const INTERRUPTED = "the server stopped during this run (found at the next start)";

describe("an interrupted run", () => {
  it("ends the run, closes the open call and keeps the message", () => {
    const messages: ServerMessage[] = [
      envelope(1, { type: "session_opened", session: summary(), history: [], activeSkills: [] }),
      envelope(2, { type: "run_started", runId: "r1", userMessage: "sleep" }),
      envelope(3, {
        type: "tool_call",
        runId: "r1",
        requestIndex: 1,
        call: { id: "c1", name: "run_command", input: { command: "sleep 600" } },
        known: true,
        visible: true,
      }),
      envelope(4, { type: "tool_started", runId: "r1", callId: "c1", tool: "run_command" }),
      envelope(5, { type: "stop", runId: "r1", reason: "interrupted", message: INTERRUPTED, iterations: 1 }),
    ];
    const state = uiReducer(initialUiState, { type: "server_batch", messages });
    expect(state.session!.running).toBe(false);
    expect(callsOf(state.session!).c1.state).toBe("error");
    expect(turnsOf(state.session!).at(-1)).toMatchObject({
      kind: "stop",
      reason: "interrupted",
      message: INTERRUPTED,
    });
  });
});
