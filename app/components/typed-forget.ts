// Which kept typing (lib/typed-answers.ts) is gone between two moments of the open session's view, and
// dropping it. Loaded only once something was pending (workspace-effects.ts useTypedForgottenWhenGone),
// so none of it is first-load JS.
import { keysGone, typedKey } from "../lib/typed-answers.ts";
import { get } from "../state/records.ts";
import type { SessionView } from "../state/types.ts";

/** The view (session and snapshot), then the keys of what may be typed for its pending approvals and request. */
export function pendingKeysOf(session: SessionView | undefined): string[] {
  if (!session) return [];
  const { id, manualTurn } = session;
  const keys = session.pendingApprovals.map((callId) =>
    typedKey(id, get(session.toolCalls, callId)?.runId ?? "", callId),
  );
  if (manualTurn) keys.push(typedKey(id, manualTurn.runId, manualTurn.requestIndex));
  return [`${id} ${session.openedSeq}`, ...keys];
}

/** Drops what was kept for the approvals and request pending in `before` and gone in `after`. */
export function forgetGone(before: SessionView, after: SessionView | undefined): void {
  for (const key of keysGone(pendingKeysOf(before), pendingKeysOf(after)))
    window.sessionStorage.removeItem(key);
}
