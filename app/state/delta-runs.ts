// A batch of server messages applied with each run of text deltas joined into one: the deltas of one
// answer that arrived together (10,000 when a provider streams unpaced) update the answer's turn once,
// not once per word, so the batch's render does not spend its time copying the turn 10,000 times.
import type { ServerMessage } from "../../server/protocol/index.ts";
import type { SessionView, UiState } from "./types.ts";
import { applyViewEvent, isViewEvent } from "./view-events.ts";

type EventMessage = Extract<ServerMessage, { type: "event" }>;
type DeltaMessage = EventMessage & { event: Extract<EventMessage["event"], { type: "text_delta" }> };

function isDelta(message: ServerMessage): message is DeltaMessage {
  return message.type === "event" && message.event.type === "text_delta";
}

/** Where the run of deltas starting at `start` ends: same session, run and request, seqs increasing. */
export function deltaRunEnd(messages: readonly ServerMessage[], start: number): number {
  const first = messages[start];
  if (!isDelta(first)) return start + 1;
  let end = start + 1;
  while (end < messages.length) {
    const next = messages[end];
    const previous = messages[end - 1] as DeltaMessage;
    if (
      !isDelta(next) ||
      next.sessionId !== first.sessionId ||
      next.event.runId !== first.event.runId ||
      next.event.requestIndex !== first.event.requestIndex ||
      next.seq <= previous.seq
    )
      break;
    end += 1;
  }
  return end;
}

/** One delta with the run's text and its last seq (the run's deltas, in order, none left out). */
export function joinDeltas(run: readonly DeltaMessage[]): DeltaMessage {
  const last = run[run.length - 1];
  return { ...last, event: { ...last.event, text: run.map((message) => message.event.text).join("") } };
}

/**
 * Applies `messages` in order, as `apply` one by one would. A delta the view already has (seq at or below
 * the session's last, after a reconnect) is left out before joining, as `apply` would skip it.
 *
 * A run of events that change only the open session's view (./view-events.ts: a reopened session's
 * replay is thousands of them) is folded over the view alone: the state around it is made once at the
 * run's end, with the run's last seq, not once per event (with its `lastSeq` on a copy of the view).
 */
export function applyJoiningDeltas(
  state: UiState,
  messages: readonly ServerMessage[],
  apply: (state: UiState, message: ServerMessage) => UiState,
): UiState {
  let next = state;
  /** The view the current run of view events has made so far, and its last seq. */
  let fold: { view: SessionView; lastSeq: number } | undefined;
  const settle = () => {
    if (!fold) return;
    next = { ...next, session: { ...fold.view, lastSeq: fold.lastSeq } };
    fold = undefined;
  };
  for (let index = 0; index < messages.length;) {
    const end = deltaRunEnd(messages, index);
    let message = messages[index];
    if (end - index > 1) {
      const run = messages.slice(index, end) as DeltaMessage[];
      const session = fold?.view ?? next.session;
      const seen = session?.id === run[0].sessionId ? (fold?.lastSeq ?? session.lastSeq) : 0;
      const fresh = run.filter((one) => one.seq > seen);
      index = end;
      if (fresh.length === 0) continue;
      message = joinDeltas(fresh);
    } else index = end;
    const session = fold?.view ?? next.session;
    if (message.type === "event" && session?.id === message.sessionId && isViewEvent(message.event)) {
      fold ??= { view: session, lastSeq: session.lastSeq };
      if (message.seq <= fold.lastSeq) continue; // a duplicate after a reconnect, as the reducer skips it
      fold.view = applyViewEvent(fold.view, message.seq, message.event);
      fold.lastSeq = message.seq;
      continue;
    }
    settle();
    next = apply(next, message);
  }
  settle();
  return next;
}
