// The branch and compare parts of the UI state: a branch's copied conversation becomes its first chat
// turns when branch_started arrives, and each session_runs answer is kept for the compare view. Pure.
import type { RunDigest, SessionEvent } from "../../server/protocol/index.ts";
import { callKey, turnKey, turnsFromHistory } from "./run-events.ts";
import { recordsOf, toArray } from "./records.ts";
import type { SessionView } from "./types.ts";

/** The copied conversation (its history_appended events came just before) shown as chat turns. */
export function applyBranchStarted(
  view: SessionView,
  _event: Extract<SessionEvent, { type: "branch_started" }>,
): SessionView {
  const copied = turnsFromHistory(view.store.conversation.history);
  // Once per branch: the copied turns go first, so the lists are made anew.
  const turns = toArray(copied.turns).map((turn) => ({ ...turn, id: `branch-${turn.id}` }));
  const ownCalls = toArray(view.toolCalls);
  const own = new Set(ownCalls.map(callKey));
  const calls = [...toArray(copied.toolCalls).filter((call) => !own.has(call.id)), ...ownCalls];
  return {
    ...view,
    turns: recordsOf(turnKey, [...turns, ...toArray(view.turns)]),
    toolCalls: recordsOf(callKey, calls),
  };
}

/** Runs per session id, as the server last reported them. */
export type RunsBySession = Record<string, RunDigest[]>;

export function withSessionRuns(
  runs: RunsBySession | undefined,
  sessionId: string,
  list: RunDigest[],
): RunsBySession {
  return { ...runs, [sessionId]: list };
}
