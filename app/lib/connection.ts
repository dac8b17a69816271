// The WebSocket client: reads the start token from the URL fragment, connects on the same origin,
// batches incoming messages (so 10,000 text deltas cost a few renders, not 10,000), and reconnects
// with backoff, reopening the current session from the last sequence number it saw.
"use client";
import { useCallback, useEffect, useRef } from "react";
import type { ClientCommand, ServerMessage } from "../../server/protocol/index.ts";
import type { UiAction } from "../state/types.ts";

const tokenKey = "pseudoclaude-playground-token";
export const sessionKey = "pseudoclaude-playground-session";

/** Takes the token from `#token=…` (then strips it from the address bar) or from sessionStorage. */
export function readToken(): string | undefined {
  const match = /(?:^#|&)token=([0-9a-fA-F]+)/.exec(window.location.hash);
  if (match) {
    window.sessionStorage.setItem(tokenKey, match[1]);
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
    return match[1];
  }
  return window.sessionStorage.getItem(tokenKey) ?? undefined;
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

export function usePlaygroundSocket(dispatch: (action: UiAction) => void, resume: () => Resume) {
  const socketRef = useRef<WebSocket | null>(null);
  const resumeRef = useRef(resume);
  resumeRef.current = resume;

  useEffect(() => {
    const token = readToken();
    if (!token) {
      dispatch({ type: "connection", status: "no_token" });
      return;
    }
    let disposed = false;
    let attempt = 0;
    let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    let queue: ServerMessage[] = [];

    const flush = () => {
      flushTimer = undefined;
      const messages = queue;
      queue = [];
      if (messages.length) dispatch({ type: "server_batch", messages });
    };

    const connect = () => {
      dispatch({ type: "connection", status: "connecting" });
      const socket = new WebSocket(socketUrl(token));
      socketRef.current = socket;
      socket.onopen = () => {
        attempt = 0;
        socket.send(JSON.stringify({ type: "list_sessions" } satisfies ClientCommand));
        const { sessionId, lastSeq } = resumeRef.current();
        if (sessionId) {
          const command: ClientCommand = {
            type: "open_session",
            sessionId,
            ...(lastSeq > 0 ? { lastSeq } : {}),
          };
          socket.send(JSON.stringify(command));
        }
      };
      socket.onmessage = (frame) => {
        try {
          queue.push(JSON.parse(String(frame.data)) as ServerMessage);
        } catch (error) {
          dispatch({
            type: "local_error",
            code: "bad_frame",
            message: `The server sent a frame that is not JSON: ${String(error)}`,
          });
          return;
        }
        flushTimer ??= setTimeout(flush, 16);
      };
      socket.onclose = () => {
        flush();
        if (socketRef.current === socket) socketRef.current = null;
        if (disposed) return;
        dispatch({ type: "connection", status: "closed" });
        if (attempt === 4) {
          dispatch({
            type: "local_error",
            code: "disconnected",
            message:
              `Cannot reach the playground server at ${window.location.host}; still retrying. ` +
              "If the server was restarted, open the new address it printed: the token changes on every start.",
          });
        }
        const delay = backoffMs[Math.min(attempt, backoffMs.length - 1)];
        attempt += 1;
        reconnectTimer = setTimeout(connect, delay);
      };
    };
    connect();
    return () => {
      disposed = true;
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
      socket.send(JSON.stringify(command));
      return true;
    },
    [dispatch],
  );
}
