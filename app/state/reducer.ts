// The one reducer: turns ServerMessages (and a few local actions) into UI state.
import type { ServerMessage, SessionEvent, SessionSummary } from "../../server/protocol/index.ts";
import { callKey, turnKey, turnsFromHistory } from "./run-events.ts";
import { applyJoiningDeltas } from "./delta-runs.ts";
import { emptyRecords } from "./records.ts";
import { withSessionRuns } from "./branch-events.ts";
import { RequestStore } from "./request-store.ts";
import { applyViewEvent } from "./view-events.ts";
import type { SessionView, UiAction, UiState } from "./types.ts";
import { addError, commandRefused, enqueue, messageSent, runStarted, unqueue } from "./outbox.ts";

export const initialUiState: UiState = {
  connection: "idle",
  providers: [],
  sessions: [],
  sessionListLoaded: false,
  errors: [],
  queue: [],
  nextLocalId: 1,
};

function emptySession(summary: SessionSummary, openedSeq: number): SessionView {
  return {
    id: summary.id,
    summary,
    settings: summary.settings,
    lastSeq: 0,
    openedSeq,
    visibleTools: [],
    registeredTools: [],
    activeSkills: [],
    turns: emptyRecords(turnKey),
    store: new RequestStore(),
    toolCalls: emptyRecords(callKey),
    pendingApprovals: [],
    requests: [],
    reloadFeed: [],
    consoleResults: {},
    running: summary.running,
    turnsFromHistory: false,
    trustPromptDismissed: false,
  };
}

function upsertSummary(sessions: SessionSummary[], summary: SessionSummary): SessionSummary[] {
  const others = sessions.filter((session) => session.id !== summary.id);
  return [summary, ...others];
}

function applySessionEvent(state: UiState, sessionId: string, seq: number, event: SessionEvent): UiState {
  if (event.type === "session_opened") {
    const current = state.session;
    const sessions = upsertSummary(state.sessions, event.session);
    // A reconnect to the session we already show keeps its turns; the server replays only what we missed.
    if (current && current.id === sessionId && current.lastSeq > 0) {
      return {
        ...state,
        sessions,
        session: {
          ...current,
          summary: event.session,
          settings: event.session.settings,
          running: event.session.running,
          // The snapshot's sandbox is the newest word on it.
          runSandbox: undefined,
        },
      };
    }
    const fresh = emptySession(event.session, seq);
    // Without `history` the replay that follows starts at the beginning and carries every message.
    if (!event.history)
      return { ...state, sessions, session: { ...fresh, activeSkills: event.activeSkills } };
    const fromHistory = turnsFromHistory(event.history);
    fresh.store.appendAll(seq, event.history, event.historyFigures);
    const session: SessionView = {
      ...fresh,
      turns: fromHistory.turns,
      toolCalls: fromHistory.toolCalls,
      activeSkills: event.activeSkills,
      turnsFromHistory: fromHistory.turns.size > 0,
    };
    return { ...state, sessions, session };
  }

  const session = state.session;
  if (!session || session.id !== sessionId) return state;
  if (seq <= session.lastSeq) return state; // duplicate after a reconnect
  const view: SessionView = { ...session, lastSeq: seq };

  switch (event.type) {
    case "trust_state": {
      const summary = { ...view.summary, trust: event.trust };
      // A "Keep untrusted" answers one prompt: new grants (or a change of trust) ask again.
      const unchanged = JSON.stringify(view.summary.trust) === JSON.stringify(event.trust);
      return {
        ...state,
        sessions: state.sessions.map((item) => (item.id === summary.id ? summary : item)),
        session: { ...view, summary, trustPromptDismissed: unchanged && view.trustPromptDismissed },
      };
    }
    case "settings_changed": {
      const summary = { ...view.summary, settings: event.settings };
      return {
        ...state,
        // The list's entry may know more than the view's summary (its title, from the first message).
        sessions: state.sessions.map((item) =>
          item.id === summary.id ? { ...item, settings: event.settings } : item,
        ),
        session: { ...view, settings: event.settings, summary },
      };
    }
    default:
      return { ...state, session: applyViewEvent(view, seq, event) };
  }
}

/** Errors about the connection itself (app/lib/connection.ts), void once the server says hello again. */
const connectionErrorCodes = new Set(["disconnected", "not_connected"]);

export function applyServerMessage(state: UiState, message: ServerMessage): UiState {
  switch (message.type) {
    case "hello":
      return {
        ...state,
        // Connected again: what the connection's own errors said is no longer true.
        errors: state.errors.filter((error) => !connectionErrorCodes.has(error.code)),
        connection: "open",
        serverVersion: message.serverVersion,
        providers: message.providers,
        defaultWorkdir: message.defaultWorkdir,
        machineSandbox: message.sandbox,
        ...(message.cacheAs ? { cacheAs: message.cacheAs } : {}),
      };
    case "providers":
      return { ...state, providers: message.providers };
    case "session_list":
      return { ...state, sessions: message.sessions, sessionListLoaded: true };
    case "session_deleted": {
      const sessions = state.sessions.filter((session) => session.id !== message.sessionId);
      const session = state.session?.id === message.sessionId ? undefined : state.session;
      // What belonged to the deleted session goes with it: its queued messages and its errors.
      return {
        ...state,
        sessions,
        session,
        queue: state.queue.filter((item) => item.sessionId !== message.sessionId),
        errors: state.errors.filter((error) => error.sessionId !== message.sessionId),
      };
    }
    case "error": {
      // A risky session (a broad workdir, bypassPermissions) is not an error: the user is asked to confirm.
      if (message.code === "confirmation_required" && message.command && message.confirm?.length)
        return {
          ...state,
          confirmation: {
            command: message.command,
            sessionId: message.sessionId,
            message: message.message,
            confirm: message.confirm,
          },
        };
      return commandRefused(state, message.code, message.message, message.command, message.sessionId);
    }
    case "session_runs":
      return { ...state, runs: withSessionRuns(state.runs, message.sessionId, message.runs) };
    case "session_export":
      return {
        ...state,
        pendingExport: { sessionId: message.sessionId, fileName: message.fileName, jsonl: message.jsonl },
      };
    case "skill_figures": {
      const view = state.session;
      if (!view || view.id !== message.sessionId) return state;
      const skillFigures = { ...view.skillFigures, [message.figures.name]: message.figures };
      return { ...state, session: { ...view, skillFigures } };
    }
    case "skill_install":
      return {
        ...state,
        skillInstall: { uploadId: message.uploadId, dryRun: message.dryRun, outcome: message.outcome },
      };
    case "session_file":
      // An HTML page or a scenario: downloaded like the log (`jsonl` holds the file's text).
      return {
        ...state,
        pendingExport: {
          sessionId: message.sessionId,
          fileName: message.fileName,
          jsonl: message.text,
          mimeType: message.mimeType,
        },
      };
    case "event": {
      const applied = applySessionEvent(state, message.sessionId, message.seq, message.event);
      return message.event.type === "run_started" ? runStarted(applied, message.sessionId) : applied;
    }
    default:
      // A newer server may send message types this page does not know yet: ignore them, never crash.
      return state;
  }
}

export function uiReducer(state: UiState, action: UiAction): UiState {
  switch (action.type) {
    case "server":
      return applyServerMessage(state, action.message);
    case "server_batch":
      return applyJoiningDeltas(state, action.messages, applyServerMessage);
    case "connection":
      return {
        ...state,
        connection: action.status,
        sessionListLoaded: action.status === "open" ? state.sessionListLoaded : false,
      };
    case "local_error":
      return addError(state, action.code, action.message, undefined, action.sessionId);
    case "queue_message":
      return enqueue(state, action.sessionId, action.text);
    case "unqueue_message":
      return unqueue(state, action.id);
    case "message_sent":
      return messageSent(state, action.sessionId, action.text, action.queuedId);
    case "export_done":
      return { ...state, pendingExport: undefined };
    case "skill_install_clear":
      return { ...state, skillInstall: undefined };
    case "confirmation_done":
      return { ...state, confirmation: undefined };
    case "trust_prompt":
      return state.session
        ? { ...state, session: { ...state.session, trustPromptDismissed: action.dismissed } }
        : state;
    case "dismiss_error":
      return { ...state, errors: state.errors.filter((error) => error.id !== action.id) };
    case "console_started": {
      const session = state.session;
      if (!session) return state;
      const entry = { requestId: action.requestId, tool: action.tool, input: action.input };
      return {
        ...state,
        session: { ...session, consoleResults: { ...session.consoleResults, [action.requestId]: entry } },
      };
    }
  }
}
