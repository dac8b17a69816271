// What the user typed and what went wrong, kept so nothing is lost and nothing repeats:
// - the queue: messages typed while a run was going, each bound to its session, sent in order when that
//   session's run ends (or removed by the user);
// - the outbox: the one message sent and not yet started by the server. If the server answers that a run is
//   still going, or refuses the message, the text goes back to the head of the queue instead of vanishing;
// - errors: each bound to the session its command named (shown only with that session), and an error that
//   repeats (same session, code and message) counts up on one card instead of stacking copies.
import type { UiError, UiState, QueuedMessage } from "./types.ts";

/** Keeps the error list short: the newest errors matter, old ones scroll away. */
const maxErrors = 8;

export function addError(
  state: UiState,
  code: string,
  message: string,
  command?: string,
  sessionId?: string,
): UiState {
  const same = state.errors.find(
    (error) => error.code === code && error.message === message && error.sessionId === sessionId,
  );
  if (same) {
    const counted: UiError = { ...same, count: same.count + 1 };
    return { ...state, errors: [...state.errors.filter((error) => error !== same), counted] };
  }
  const error: UiError = {
    id: `error-${state.nextLocalId}`,
    code,
    message,
    count: 1,
    ...(command ? { command } : {}),
    ...(sessionId ? { sessionId } : {}),
  };
  return { ...state, errors: [...state.errors, error].slice(-maxErrors), nextLocalId: state.nextLocalId + 1 };
}

/** The errors to show beside a session: its own, and those that belong to no session (the connection). */
export function errorsFor(errors: UiError[], sessionId: string | undefined): UiError[] {
  return errors.filter((error) => error.sessionId === undefined || error.sessionId === sessionId);
}

export function queuedFor(queue: QueuedMessage[], sessionId: string | undefined): QueuedMessage[] {
  return sessionId === undefined ? [] : queue.filter((item) => item.sessionId === sessionId);
}

export function enqueue(state: UiState, sessionId: string, text: string, front = false): UiState {
  const item: QueuedMessage = { id: `queued-${state.nextLocalId}`, sessionId, text };
  return {
    ...state,
    queue: front ? [item, ...state.queue] : [...state.queue, item],
    nextLocalId: state.nextLocalId + 1,
  };
}

export function unqueue(state: UiState, id: string): UiState {
  return { ...state, queue: state.queue.filter((item) => item.id !== id) };
}

/** A send_message went out: remember its text until the server starts a run for that session. */
export function messageSent(state: UiState, sessionId: string, text: string, queuedId?: string): UiState {
  const queue = queuedId ? state.queue.filter((item) => item.id !== queuedId) : state.queue;
  return { ...state, queue, outbox: { sessionId, text } };
}

/** The server started a run in this session: the message in flight arrived. */
export function runStarted(state: UiState, sessionId: string): UiState {
  return state.outbox?.sessionId === sessionId ? { ...state, outbox: undefined } : state;
}

/**
 * The server refused a command. A refused send_message puts its text back at the head of its session's
 * queue; when the refusal only says a run is still going, the queued message says so itself and no error
 * card is added.
 */
export function commandRefused(
  state: UiState,
  code: string,
  message: string,
  command?: string,
  sessionId?: string,
): UiState {
  const outbox = state.outbox;
  if (command === "send_message" && outbox && (sessionId === undefined || outbox.sessionId === sessionId)) {
    const requeued = enqueue({ ...state, outbox: undefined }, outbox.sessionId, outbox.text, true);
    if (code === "run_in_progress") return requeued;
    return addError(requeued, code, message, command, outbox.sessionId);
  }
  return addError(state, code, message, command, sessionId);
}
