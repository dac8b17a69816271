// Nothing typed is lost and no error repeats or strays into another session: the queue, the message in
// flight, and the error list, through the one reducer.
import { describe, expect, it } from "vitest";
import type { ServerMessage } from "../../server/protocol/index.ts";
import { errorsFor, queuedFor } from "./outbox.ts";
import { initialUiState, uiReducer } from "./reducer.ts";
import { envelope, summary } from "./test-builders.ts";
import type { UiAction, UiState } from "./types.ts";

/** Local actions as they are; server messages (anything with a server message type) wrapped. */
const localTypes = new Set(["queue_message", "unqueue_message", "message_sent", "local_error", "server"]);
function apply(state: UiState, ...actions: (UiAction | ServerMessage)[]): UiState {
  return actions.reduce<UiState>(
    (current, action) =>
      uiReducer(
        current,
        localTypes.has(action.type)
          ? (action as UiAction)
          : { type: "server", message: action as ServerMessage },
      ),
    state,
  );
}

const opened = envelope(1, { type: "session_opened", session: summary("s1"), history: [], activeSkills: [] });
const running = apply(
  initialUiState,
  opened,
  envelope(2, { type: "run_started", runId: "r1", userMessage: "first" }),
);
const refused = (code: string, sessionId = "s1"): ServerMessage => ({
  type: "error",
  code,
  message: code === "run_in_progress" ? "a run is in progress; press Stop or wait" : "no provider",
  command: "send_message",
  sessionId,
});

describe("the message queue and the message in flight", () => {
  it("keeps a message typed during a run in its session's queue, in order, until removed", () => {
    const state = apply(
      running,
      { type: "queue_message", sessionId: "s1", text: "second" },
      { type: "queue_message", sessionId: "s1", text: "third" },
    );
    expect(queuedFor(state.queue, "s1").map((item) => item.text)).toEqual(["second", "third"]);
    expect(queuedFor(state.queue, "s2")).toEqual([]);
    const removed = apply(state, { type: "unqueue_message", id: state.queue[0].id });
    expect(removed.queue.map((item) => item.text)).toEqual(["third"]);
  });

  it("a send the server refuses because a run is going goes back to the head of the queue, with no error card", () => {
    const queued = apply(running, { type: "queue_message", sessionId: "s1", text: "later" });
    const state = apply(
      queued,
      { type: "message_sent", sessionId: "s1", text: "now" },
      refused("run_in_progress"),
    );
    expect(state.queue.map((item) => item.text)).toEqual(["now", "later"]);
    expect(state.outbox).toBeUndefined();
    expect(state.errors).toEqual([]);
  });

  it("any other refusal keeps the text too, and says why beside its session", () => {
    const state = apply(
      running,
      { type: "message_sent", sessionId: "s1", text: "hello" },
      refused("provider_error"),
    );
    expect(state.queue.map((item) => item.text)).toEqual(["hello"]);
    expect(state.errors).toMatchObject([{ code: "provider_error", sessionId: "s1", count: 1 }]);
  });

  it("a queued message sent is no longer queued, and is done once its run starts", () => {
    const queued = apply(running, { type: "queue_message", sessionId: "s1", text: "next" });
    const sent = apply(queued, {
      type: "message_sent",
      sessionId: "s1",
      text: "next",
      queuedId: queued.queue[0].id,
    });
    expect(sent.queue).toEqual([]);
    expect(sent.outbox).toEqual({ sessionId: "s1", text: "next" });
    const started = apply(sent, envelope(3, { type: "run_started", runId: "r2", userMessage: "next" }));
    expect(started.outbox).toBeUndefined();
    expect(apply(started, refused("run_in_progress")).queue).toEqual([]);
  });

  it("deleting a session drops its queue and its errors", () => {
    const state = apply(running, { type: "queue_message", sessionId: "s1", text: "x" }, refused("internal"), {
      type: "server",
      message: { type: "session_deleted", sessionId: "s1" },
    } as UiAction);
    expect(state.queue).toEqual([]);
    expect(state.errors).toEqual([]);
  });
});

describe("errors", () => {
  it("count up on one card when the same error repeats, instead of stacking copies", () => {
    const error: ServerMessage = {
      type: "error",
      code: "not_found",
      message: "no such session",
      sessionId: "s1",
    };
    const state = apply(initialUiState, error, error, error);
    expect(state.errors).toHaveLength(1);
    expect(state.errors[0]).toMatchObject({ code: "not_found", count: 3 });
  });

  it("belong to their session: another session does not show them; the connection's own show everywhere", () => {
    const state = apply(
      initialUiState,
      { type: "error", code: "internal", message: "boom", sessionId: "s1" },
      { type: "local_error", code: "disconnected", message: "cannot reach the server" },
    );
    expect(errorsFor(state.errors, "s1").map((error) => error.code)).toEqual(["internal", "disconnected"]);
    expect(errorsFor(state.errors, "s2").map((error) => error.code)).toEqual(["disconnected"]);
  });

  it("the connection's errors go once the server says hello again", () => {
    const state = apply(
      initialUiState,
      { type: "local_error", code: "disconnected", message: "cannot reach the server" },
      { type: "hello", serverVersion: "0.1.0", providers: [], defaultWorkdir: "/tmp" },
    );
    expect(state.errors).toEqual([]);
  });
});
