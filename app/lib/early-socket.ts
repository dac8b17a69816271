// The page's socket opens before React does. A reopened session's replay takes the server a few
// hundred ms to read, check and send — as long as the page's scripts take to load and hydrate — so a
// small inline script (rendered by the workspace page, app/page.tsx, and moved by the server to the start
// of <head>) connects at once, asks for the session list and opens the session the page would open
// first, and keeps every frame until the
// connection hook (./connection.ts) adopts the socket; the hook then handles those frames as if they had
// just arrived, and from then on the socket is the hook's (its reconnects, its token rules).
//
// No "use client": the page (a server component) inlines these functions' source text, and the hook
// imports the same functions, so the early script and the page make their choices by one rule.
// Each function here is self-contained (no imports, no module state) for that reason.
import type { SessionSummary } from "../../server/protocol/index.ts";

/**
 * The id of the inline script's element: the server moves its text to the start of <head>, before the
 * stylesheet an inline script would wait for (server/transport/page-html.ts EARLY_SCRIPT_ID).
 */
export const EARLY_SOCKET_SCRIPT_ID = "early-socket";
/** Where the inline script leaves its socket for the hook (a property of `window`). */
export const EARLY_SOCKET_GLOBAL = "__pseudoclaudeEarlySocket";
/** sessionStorage: the token a `#token=…` address gave this tab. */
export const TOKEN_KEY = "pseudoclaude-playground-token";
/** sessionStorage: the session this tab shows (reopened after a reload). */
export const SESSION_KEY = "pseudoclaude-playground-session";

export interface EarlySocket {
  socket: WebSocket;
  token: string;
  /** Every frame received before the hook adopted the socket, in order. */
  frames: string[];
  /** The script sent list_sessions (the socket opened before the hook adopted it). */
  listSent: boolean;
  /**
   * The session the script asked to open (open_session with batchReplay and batchLive) and that has not failed. Its
   * refusal (an error frame for that open) is not among `frames`: the page never asked for it.
   */
  openedSession?: string;
  /** Stops the script's own handling: from now on the socket and its frames are the caller's. */
  stop(): void;
}

/** The token `#token=…` in an address fragment, if any (the hook stores it and strips it). */
export function tokenInFragment(hash: string): string | undefined {
  const match = /(?:^#|&)token=([0-9a-fA-F]+)/.exec(hash);
  return match ? match[1] : undefined;
}

export function socketUrl(token: string): string {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${window.location.host}/ws?token=${encodeURIComponent(token)}`;
}

/**
 * The first session a connection opens: the one this tab showed before a reload, else the newest whose
 * folder exists (a session whose workdir is gone cannot run: it is opened only when every one is gone).
 */
export function firstSessionTarget(
  sessions: readonly Pick<SessionSummary, "id" | "updatedAt" | "workdirMissing">[],
  stored: string | null,
): string | undefined {
  const known = sessions.find((item) => item.id === stored);
  const newest = [...sessions].sort(
    (left, right) =>
      Number(left.workdirMissing === true) - Number(right.workdirMissing === true) ||
      right.updatedAt.localeCompare(left.updatedAt),
  )[0];
  return (known ?? newest)?.id;
}

/** Whether a message is the server's refusal of open_session for `sessionId`. */
export function refusesOpen(message: unknown, sessionId: string): boolean {
  const error = message as { type?: unknown; command?: unknown; sessionId?: unknown } | null;
  return error?.type === "error" && error.command === "open_session" && error.sessionId === sessionId;
}

/**
 * The inline script's body: connects with the token the hook would use and, when open, asks for what
 * the page would ask for first — the session list, and the session firstSessionTarget picks from it.
 * The session this tab showed before a reload is asked for at once, before the list (the server
 * handles one connection's commands in order, so the list then finds it open and does not read its
 * log); if the server refuses it (deleted meanwhile), that refusal is dropped and the pick is made from
 * the list as the page would. Nothing is created (no session at all: the page creates one). Frames are
 * kept as text; only an error or the session list is parsed (the server writes `type` first).
 */
export function earlyConnect(
  keys: { token: string; session: string; global: string },
  tokenOf: typeof tokenInFragment,
  urlOf: typeof socketUrl,
  pick: typeof firstSessionTarget,
  refuses: typeof refusesOpen,
): void {
  try {
    const token = tokenOf(window.location.hash) ?? window.sessionStorage.getItem(keys.token);
    if (!token || typeof WebSocket !== "function") return;
    const socket = new WebSocket(urlOf(token));
    let listed = false;
    let pending: string | undefined;
    const open = (sessionId: string) => {
      socket.send(JSON.stringify({ type: "open_session", sessionId, batchReplay: true, batchLive: true }));
      early.openedSession = sessionId;
    };
    const early: EarlySocket = {
      socket,
      token,
      frames: [],
      listSent: false,
      stop: () => {
        socket.removeEventListener("open", onOpen);
        socket.removeEventListener("message", onMessage);
      },
    };
    const onOpen = () => {
      const stored = window.sessionStorage.getItem(keys.session);
      if (stored) {
        open(stored);
        pending = stored;
      }
      socket.send(JSON.stringify({ type: "list_sessions" }));
      early.listSent = true;
    };
    const onMessage = (frame: MessageEvent) => {
      const text = String(frame.data);
      const interesting =
        !listed && (text.startsWith('{"type":"error"') || text.startsWith('{"type":"session_list"'));
      if (!interesting) {
        early.frames.push(text);
        return;
      }
      let message: { type?: string; sessions?: SessionSummary[] };
      try {
        message = JSON.parse(text) as typeof message;
      } catch {
        // Not JSON: the hook reports the frame when it adopts the socket; this script opens nothing more.
        early.frames.push(text);
        listed = true;
        return;
      }
      if (pending !== undefined && refuses(message, pending)) {
        pending = undefined;
        early.openedSession = undefined;
        return;
      }
      early.frames.push(text);
      if (message.type !== "session_list" || !Array.isArray(message.sessions)) return;
      listed = true;
      if (early.openedSession !== undefined) return;
      const target = pick(message.sessions, window.sessionStorage.getItem(keys.session));
      if (target !== undefined) open(target);
    };
    socket.addEventListener("open", onOpen);
    socket.addEventListener("message", onMessage);
    (window as unknown as Record<string, unknown>)[keys.global] = early;
  } catch {
    // Anything unexpected (storage disabled, a frame that is not JSON): the hook connects on its own,
    // as it did before this script existed, and reports what it finds.
    delete (window as unknown as Record<string, unknown>)[keys.global];
  }
}

/** The inline script's text: earlyConnect called with the keys and the rules above, as source. */
export function earlySocketScript(): string {
  const args = [
    JSON.stringify({ token: TOKEN_KEY, session: SESSION_KEY, global: EARLY_SOCKET_GLOBAL }),
    tokenInFragment.toString(),
    socketUrl.toString(),
    firstSessionTarget.toString(),
    refusesOpen.toString(),
  ];
  return `(${earlyConnect.toString()})(${args.join(",")});`;
}

/** The early socket, taken once: later callers (a remount, a reconnect) get nothing. */
export function takeEarlySocket(): EarlySocket | undefined {
  const holder = window as unknown as Record<string, EarlySocket | undefined>;
  const early = holder[EARLY_SOCKET_GLOBAL];
  delete holder[EARLY_SOCKET_GLOBAL];
  early?.stop();
  return early;
}
