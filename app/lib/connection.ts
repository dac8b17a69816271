// The WebSocket client: reads the start token from the URL fragment, connects on the same origin,
// batches incoming messages (so 10,000 text deltas cost a few renders, not 10,000; the replay of a
// reopened session is applied at once), and reconnects with backoff, reopening the current session
// from the last sequence number it saw.
"use client";
import { startTransition, useCallback, useEffect, useRef } from "react";
import type { ClientCommand, ServerMessage } from "../../server/protocol/index.ts";
import type { UiAction } from "../state/types.ts";

const tokenKey = "pseudoclaude-playground-token";

/** Messages are applied at most this often (one render per batch). */
const BATCH_MS = 16;
/**
 * The events a session_opened is followed by up to its seq are its replay (thousands for a long
 * session): they are applied together, so the page renders the session once instead of once per batch
 * with every turn so far — but a replay never holds what arrived back for longer than this.
 */
const REPLAY_HOLD_MS = 1000;
export const sessionKey = "pseudoclaude-playground-session";

/** Takes a token from `#token=…` in the address (stores it, then strips it from the address bar). */
function tokenFromAddress(): string | undefined {
  const match = /(?:^#|&)token=([0-9a-fA-F]+)/.exec(window.location.hash);
  if (!match) return undefined;
  window.sessionStorage.setItem(tokenKey, match[1]);
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  return match[1];
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

export function socketUrl(token: string): string {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${window.location.host}/ws?token=${encodeURIComponent(token)}`;
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

export function usePlaygroundSocket(dispatch: (action: UiAction) => void, resume: () => Resume) {
  const socketRef = useRef<WebSocket | null>(null);
  const resumeRef = useRef(resume);
  resumeRef.current = resume;

  useEffect(() => {
    let token = readToken();
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
      const socket = new WebSocket(socketUrl(usedToken));
      let opened = false;
      live = socket;
      socketRef.current = socket;
      socket.onopen = () => {
        opened = true;
        attempt = 0;
        socket.send(JSON.stringify({ type: "list_sessions" } satisfies ClientCommand));
        const { sessionId, lastSeq } = resumeRef.current();
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
      socket.onmessage = (frame) => {
        let replayEnded = false;
        try {
          const message = JSON.parse(String(frame.data)) as ServerMessage;
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
