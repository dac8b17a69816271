// What the workspace does on its own, beside rendering: which session to open first, the queue that
// goes out when a run ends, the session list refreshed after a run, downloads, presenter type and the
// Escape that stops a run. Each hook is one of those behaviours; the container (./workspace.tsx) wires
// them to the store and the socket.
"use client";
import { useEffect, useRef, type Dispatch, type RefObject } from "react";
import type { ClientCommand } from "../../server/protocol/index.ts";
import { sessionKey } from "../lib/connection.ts";
import { firstSessionTarget } from "../lib/early-socket.ts";
import { readQueued, writeQueued } from "../lib/typed-storage.ts";
import { queuedFor } from "../state/outbox.ts";
import type { SessionView, UiAction, UiState } from "../state/types.ts";

/**
 * First session of this connection: the one this tab showed before a reload, else the newest, else a new
 * one. `openRequested` is false again when the open session is deleted (the next one opens then).
 */
export function useFirstSession(
  state: UiState,
  stateRef: RefObject<UiState>,
  openRequested: RefObject<boolean>,
  send: (command: ClientCommand) => void,
): void {
  const session = state.session;
  useEffect(() => {
    if (state.connection !== "open" || !state.sessionListLoaded || session || openRequested.current) return;
    openRequested.current = true;
    // The rule the early socket's script follows too (lib/early-socket.ts); when it already asked for
    // this open, the hook does not ask again.
    const target = firstSessionTarget(state.sessions, window.sessionStorage.getItem(sessionKey));
    send(target ? { type: "open_session", sessionId: target } : { type: "create_session" });
  }, [state.connection, state.sessionListLoaded, state.sessions, session, send, openRequested]);

  useEffect(() => {
    if (state.connection !== "open") openRequested.current = !!stateRef.current.session;
  }, [state.connection, openRequested, stateRef]);

  useEffect(() => {
    if (session?.id) window.sessionStorage.setItem(sessionKey, session.id);
  }, [session?.id]);
}

/**
 * Messages queued during a run survive a reload of the tab (lib/typed-storage.ts): restored once, then
 * kept in step with the queue; each still goes out when its session's run ends.
 */
export function useQueueSurvivesReload(queue: UiState["queue"], dispatch: Dispatch<UiAction>): void {
  const restored = useRef(false);
  useEffect(() => {
    if (!restored.current) {
      restored.current = true;
      for (const item of readQueued())
        dispatch({ type: "queue_message", sessionId: item.sessionId, text: item.text });
      return;
    }
    writeQueued(queue);
  }, [queue, dispatch]);
}

/**
 * A deny reason or a manual answer kept for a reload (lib/typed-answers.ts) is dropped once its approval
 * or request is gone from the view: answered (here or in another tab) or its run ended. Only a view that
 * had something pending can have lost it; what is gone is worked out in ./typed-forget.ts, loaded then.
 */
export function useTypedForgottenWhenGone(session: SessionView | undefined): void {
  const last = useRef(session);
  useEffect(() => {
    const before = last.current;
    last.current = session;
    if (before && before !== session && (before.pendingApprovals.length > 0 || before.manualTurn))
      void import("./typed-forget.ts").then((module) => module.forgetGone(before, session));
  }, [session]);
}

/**
 * When the open session's run ends: the session list is asked for again (titles and message counts
 * change with each run), and the first message queued for that session goes out (the next waits for the
 * run that one starts). A refusal puts it back at the head of the queue (state/outbox.ts).
 */
export function useRunEnd(
  stateRef: RefObject<UiState>,
  sessionId: string | undefined,
  running: boolean,
  dispatch: Dispatch<UiAction>,
  send: (command: ClientCommand) => void,
  socketSend: (command: ClientCommand) => boolean,
  onQueuedSent: () => void,
): void {
  useEffect(() => {
    if (!running && stateRef.current.connection === "open" && stateRef.current.session)
      send({ type: "list_sessions" });
  }, [running, send, stateRef]);

  const lastRun = useRef<{ sessionId?: string; running: boolean }>({ running: false });
  useEffect(() => {
    const previous = lastRun.current;
    lastRun.current = { sessionId, running };
    if (!sessionId || previous.sessionId !== sessionId || !previous.running || running) return;
    const next = queuedFor(stateRef.current.queue, sessionId)[0];
    if (!next) return;
    onQueuedSent();
    if (socketSend({ type: "send_message", sessionId, text: next.text }))
      dispatch({ type: "message_sent", sessionId, text: next.text, queuedId: next.id });
  }, [running, sessionId, socketSend, dispatch, stateRef, onQueuedSent]);
}

/** The server answers export_session with a file (the JSONL log, an HTML page): the browser downloads it. */
export function useDownloads(pending: UiState["pendingExport"], dispatch: Dispatch<UiAction>): void {
  useEffect(() => {
    if (!pending) return;
    const link = document.createElement("a");
    link.href = URL.createObjectURL(
      new Blob([pending.jsonl], { type: pending.mimeType ?? "application/x-ndjson" }),
    );
    link.download = pending.fileName;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    dispatch({ type: "export_done" });
  }, [pending, dispatch]);
}

/** Presenter mode: larger type everywhere (the root font size; widths are in px, so columns keep theirs). */
export function usePresenterType(presenter: boolean): void {
  useEffect(() => {
    document.documentElement.style.fontSize = presenter ? "20px" : "";
  }, [presenter]);
}

/**
 * Escape stops the running turn from anywhere, so a presenter never needs the mouse for it. Menus and
 * dialogs that close on Escape call preventDefault first, and window listeners run after theirs; while a
 * dialog of the workspace is open, Escape is the dialog's.
 */
export function useEscapeStops(active: boolean, stop: () => void): void {
  const latest = useRef(stop);
  latest.current = stop;
  useEffect(() => {
    if (!active) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      event.preventDefault();
      latest.current();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [active]);
}
