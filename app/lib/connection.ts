// The WebSocket client: reads the start token from the URL fragment, connects on the same origin,
// batches incoming messages (so 10,000 text deltas cost a few renders, not 10,000; the replay of a
// reopened session is applied at once), and reconnects with backoff, reopening the current session
// from the last sequence number it saw. Its first socket is usually the one the inline script at the top of
// the workspace page opened before the scripts loaded (./early-socket.ts): adopted, with what it received.
"use client";
import { startTransition, useCallback, useEffect, useRef } from "react";
import type { ClientCommand, ServerMessage } from "../../server/protocol/index.ts";
import type { UiAction } from "../state/types.ts";
import {
  SESSION_KEY,
  TOKEN_KEY,
  refusesOpen,
  socketUrl,
  takeEarlySocket,
  tokenInFragment,
  type EarlySocket,
} from "./early-socket.ts";

export { socketUrl };
const tokenKey = TOKEN_KEY;

/** Messages are applied at most this often (one render per batch). */
const BATCH_MS = 16;
/**
 * The events a session_opened is followed by up to its seq are its replay (thousands for a long
 * session): they are applied together, so the page renders the session once instead of once per batch
 * with every turn so far — but a replay never holds what arrived back for longer than this.
 */
const REPLAY_HOLD_MS = 1000;
export const sessionKey = SESSION_KEY;

/** Takes a token from `#token=…` in the address (stores it, then strips it from the address bar). */
function tokenFromAddress(): string | undefined {
  const token = tokenInFragment(window.location.hash);
  if (!token) return undefined;
  window.sessionStorage.setItem(tokenKey, token);
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  return token;
}

/** The token from the address, else the one this tab stored earlier. */
export function readToken(): string | undefined {
  return tokenFromAddress() ?? window.sessionStorage.getItem(tokenKey) ?? undefined;
}

/**
 * Why the server refused a socket, asked over plain HTTP (GET /ws answers like the upgrade: 401 with
 * "missing token" or "wrong token", 426 when the token is right). `unreachable`: no answer at all.
 */
export async function probeToken(token: string): Promise<"wrong" | "missing" | "ok" | "unreachable"> {
  try {
    const response = await fetch(`/ws?token=${encodeURIComponent(token)}`, { cache: "no-store" });
    if (response.status !== 401) return "ok";
    const reason = await response.text();
    return reason.startsWith("wrong token") ? "wrong" : "missing";
  } catch {
    return "unreachable";
  }
}

export interface Resume {
  sessionId?: string;
  lastSeq: number;
}

const backoffMs = [250, 500, 1000, 2000, 4000];

/**
 * The page always asks for a replay in bulk (`events` frames): a long session is a few frames, not
 * thousands; and for live bursts in bulk (`batchLive`): an unpaced answer's 10,000 text deltas are a few
 * frames, not 10,000 tasks back to back on the main thread (between which the page painted only about
 * every 100 ms).
 */
function withBatchReplay(command: ClientCommand): ClientCommand {
  if (command.type === "open_session") return { ...command, batchReplay: true, batchLive: true };
  if (command.type === "create_session" || command.type === "fork_request")
    return { ...command, batchLive: true };
  return command;
}

/** A message as the reducer takes them: an `events` frame (a batched replay) is its events, one by one. */
function eventsOf(message: ServerMessage): ServerMessage[] {
  if (message.type !== "events") return [message];
  return message.events.map(({ seq, event }) => ({
    type: "event",
    sessionId: message.sessionId,
    seq,
    event,
  }));
}

/**
 * The early socket if the hook can take it over: opened with the token the hook would use and not
 * closed. Anything else is closed and forgotten (the hook connects as it always did).
 */
function adoptable(early: EarlySocket | undefined, token: string | undefined): EarlySocket | undefined {
  if (!early) return undefined;
  const state = early.socket.readyState;
  if (early.token === token && (state === WebSocket.CONNECTING || state === WebSocket.OPEN)) return early;
  early.socket.close();
  return undefined;
}

export function usePlaygroundSocket(dispatch: (action: UiAction) => void, resume: () => Resume) {
  const socketRef = useRef<WebSocket | null>(null);
  const resumeRef = useRef(resume);
  resumeRef.current = resume;
  /**
   * The session the page's first socket asked to open before the list (the early script, or the hook
   * for it): the page's own open_session for it is not sent again, and its refusal is not shown.
   */
  const earlyOpenRef = useRef<{ socket: WebSocket; sessionId: string } | undefined>(undefined);

  useEffect(() => {
    let token = readToken();
    let early = adoptable(takeEarlySocket(), token);
    /** A socket of this page has opened (a later one is a reconnect: it resumes, it asks nothing first). */
    let everOpened = false;
    let disposed = false;
    let attempt = 0;
    let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    let queue: ServerMessage[] = [];
    /** The socket this page uses now; an older one (replaced after a hashchange) is ignored when it closes. */
    let live: WebSocket | undefined;

    /** The session_opened whose replay may be arriving, and whether it is (its events up to that seq). */
    let replayOf: { sessionId: string; seq: number } | undefined;
    let replaying = false;
    const flush = () => {
      if (flushTimer) clearTimeout(flushTimer);
      flushTimer = undefined;
      const messages = queue;
      queue = [];
      // A transition: React renders what the batch changed in slices it can interrupt, so a long render
      // (a reopened session's replay, a long answer) never holds the main thread in one task, and batches
      // that arrive while it renders are taken together into the next render instead of one render each.
      if (messages.length) startTransition(() => dispatch({ type: "server_batch", messages }));
    };
    /** Follows a session_opened's replay; true for the message that ends one. */
    const followReplay = (message: ServerMessage): boolean => {
      if (message.type !== "event") return false;
      if (message.event.type === "session_opened") {
        replayOf = { sessionId: message.sessionId, seq: message.seq };
        return false;
      }
      if (replayOf?.sessionId !== message.sessionId) return false;
      if (message.seq < replayOf.seq) {
        replaying = true;
        return false;
      }
      const ended = replaying;
      replaying = false;
      replayOf = undefined;
      return ended;
    };

    const retry = () => {
      const delay = backoffMs[Math.min(attempt, backoffMs.length - 1)];
      attempt += 1;
      reconnectTimer = setTimeout(connect, delay);
    };

    const connect = () => {
      reconnectTimer = undefined;
      if (!token) {
        dispatch({ type: "connection", status: "no_token" });
        return;
      }
      dispatch({ type: "connection", status: "connecting" });
      const usedToken: string = token;
      const adopted = early;
      early = undefined;
      const socket = adopted?.socket ?? new WebSocket(socketUrl(usedToken));
      let opened = false;
      live = socket;
      socketRef.current = socket;
      earlyOpenRef.current =
        adopted?.openedSession !== undefined ? { socket, sessionId: adopted.openedSession } : undefined;
      const onOpen = (listSent: boolean) => {
        opened = true;
        attempt = 0;
        const { sessionId, lastSeq } = resumeRef.current();
        const stored = window.sessionStorage.getItem(sessionKey);
        if (!listSent && !sessionId && !everOpened && stored) {
          // The page's first socket, open before the early script could ask (adopted while connecting,
          // or no script): it asks as the script does, for the session this tab showed, before the list.
          const command: ClientCommand = {
            type: "open_session",
            sessionId: stored,
            batchReplay: true,
            batchLive: true,
          };
          socket.send(JSON.stringify(command));
          earlyOpenRef.current = { socket, sessionId: stored };
        }
        everOpened = true;
        if (!listSent) socket.send(JSON.stringify({ type: "list_sessions" } satisfies ClientCommand));
        if (sessionId) {
          const command: ClientCommand = {
            type: "open_session",
            sessionId,
            ...(lastSeq > 0 ? { lastSeq } : {}),
            batchReplay: true,
            batchLive: true,
          };
          socket.send(JSON.stringify(command));
        }
      };
      socket.onopen = () => onOpen(false);
      const receive = (text: string) => {
        let replayEnded = false;
        try {
          const message = JSON.parse(text) as ServerMessage;
          const earlyOpen = earlyOpenRef.current;
          if (earlyOpen?.socket === socket && refusesOpen(message, earlyOpen.sessionId)) {
            // The early script's open, refused before the page asked for it (the session is gone):
            // the page picks from the list as it always did, and hears of that open's refusal only if
            // it asks for the same session itself.
            earlyOpenRef.current = undefined;
            return;
          }
          for (const one of eventsOf(message)) {
            queue.push(one);
            replayEnded = followReplay(one);
          }
        } catch (error) {
          dispatch({
            type: "local_error",
            code: "bad_frame",
            message: `The server sent a frame that is not JSON: ${String(error)}`,
          });
          return;
        }
        if (replaying) {
          // Held until the replay's last event (or REPLAY_HOLD_MS): one render for the whole session.
          flushTimer ??= setTimeout(flush, REPLAY_HOLD_MS);
          return;
        }
        if (replayEnded) return flush();
        flushTimer ??= setTimeout(flush, BATCH_MS);
      };
      socket.onmessage = (frame) => receive(String(frame.data));
      socket.onclose = () => {
        flush();
        if (socketRef.current === socket) socketRef.current = null;
        // A socket replaced by a new token (hashchange) or an unmounted page: nothing more to do here.
        if (disposed || live !== socket) return;
        dispatch({ type: "connection", status: "closed" });
        if (opened) return retry();
        // Refused before it opened: ask the server why. A token of an earlier start will never work, so
        // the page says so and waits for the new address instead of retrying.
        void probeToken(usedToken).then((answer) => {
          if (disposed || live !== socket) return;
          if (answer === "wrong") return dispatch({ type: "connection", status: "wrong_token" });
          if (answer === "missing") return dispatch({ type: "connection", status: "no_token" });
          if (attempt === 4) {
            dispatch({
              type: "local_error",
              code: "disconnected",
              message:
                `Cannot reach the playground server at ${window.location.host}; still retrying. ` +
                "If you restarted it, paste the address it printed (…#token=…) into this tab.",
            });
          }
          retry();
        });
      };
      if (!adopted) return;
      // Adopted: what the early script already did and received is handled now, in order, as if it
      // had happened here (its open event, when it opened, came before any frame).
      if (socket.readyState === WebSocket.OPEN) onOpen(adopted.listSent);
      for (const text of adopted.frames) receive(text);
    };

    // Pasting the address a restarted server printed changes only the fragment: no reload, a hashchange.
    // The new token replaces the old one and the page connects with it at once.
    const onHashChange = () => {
      const fresh = tokenFromAddress();
      if (!fresh) return;
      token = fresh;
      attempt = 0;
      clearTimeout(reconnectTimer);
      const old = live;
      live = undefined;
      socketRef.current = null;
      old?.close();
      connect();
    };
    window.addEventListener("hashchange", onHashChange);
    connect();
    return () => {
      disposed = true;
      window.removeEventListener("hashchange", onHashChange);
      clearTimeout(reconnectTimer);
      clearTimeout(flushTimer);
      socketRef.current?.close();
    };
  }, [dispatch]);

  return useCallback(
    (command: ClientCommand): boolean => {
      const socket = socketRef.current;
      const earlyOpen = earlyOpenRef.current;
      if (
        command.type === "open_session" &&
        earlyOpen?.socket === socket &&
        earlyOpen.sessionId === command.sessionId &&
        command.lastSeq === undefined
      ) {
        // The early script asked for this very open on this socket: its replay is on the way (or here).
        earlyOpenRef.current = undefined;
        return true;
      }
      if (!socket || socket.readyState !== WebSocket.OPEN) {
        dispatch({
          type: "local_error",
          code: "not_connected",
          message: `Not connected to the server; "${command.type}" was not sent. Reconnecting…`,
        });
        return false;
      }
      socket.send(JSON.stringify(withBatchReplay(command)));
      return true;
    },
    [dispatch],
  );
}
