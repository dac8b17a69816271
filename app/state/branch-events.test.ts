// The reducer's branch and compare parts, through the one reducer: a branch's copied conversation
// becomes its chat turns at branch_started, its first run adds no user turn, and session_runs is kept.
import { describe, expect, it } from "vitest";
import type {
  BranchOrigin,
  ServerMessage,
  SessionEvent,
  SessionSummary,
} from "../../server/protocol/index.ts";
import { initialUiState, uiReducer } from "./reducer.ts";
import type { UiState } from "./types.ts";
import { turnsOf } from "./selectors.ts";

const branch: BranchOrigin = {
  originSessionId: "origin-1",
  requestIndex: 1,
  kind: "edit",
  edits: [{ kind: "skill_description", skill: "review", description: "x" }],
  label: "forked from #1: skill review description",
};
const summary: SessionSummary = {
  id: "branch-1",
  title: branch.label,
  createdAt: "2026-12-02T00:00:00.000Z",
  updatedAt: "2026-12-02T00:00:00.000Z",
  settings: {
    workdir: "/w",
    provider: "manual",
    model: "you",
    permissionMode: "default",
    disclosure: "progressive",
  },
  messageCount: 0,
  running: false,
  branch,
};

function play(events: SessionEvent[], state: UiState = initialUiState): UiState {
  return events.reduce(
    (current, event, index) =>
      uiReducer(current, {
        type: "server",
        message: { type: "event", sessionId: "branch-1", seq: index + 1, event },
      }),
    state,
  );
}

describe("branch events", () => {
  it("shows the copied conversation as turns and adds no user turn for the continuing run", () => {
    const state = play([
      { type: "session_opened", session: summary, historyLength: 0, activeSkills: [] },
      { type: "history_appended", runId: "branch_x", message: { role: "user", content: "hello there" } },
      { type: "branch_started", branch },
      { type: "run_started", runId: "run_b", userMessage: "", continues: true },
    ]);
    const session = state.session!;
    expect(session.summary.branch?.label).toBe(branch.label);
    expect(turnsOf(session).map((turn) => turn.kind)).toEqual(["user"]);
    expect(turnsOf(session)[0]).toMatchObject({ kind: "user", text: "hello there" });
    expect(session.running).toBe(true);
  });

  it("keeps each session's runs for the compare view", () => {
    const message: ServerMessage = { type: "session_runs", sessionId: "origin-1", runs: [] };
    const state = uiReducer(initialUiState, { type: "server", message });
    expect(state.runs).toEqual({ "origin-1": [] });
  });
});
