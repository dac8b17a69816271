// UI state of the workspace. Everything here is derived from ServerMessages by ./reducer.ts; the
// components read it and never talk to the socket directly.
import type {
  BranchCheck,
  CacheCheck,
  CacheModelChoice,
  CacheStats,
  CatalogBudgetReport,
  SkillFigures,
} from "../../server/protocol/index.ts";
import type { TriggerLabView } from "./trigger-lab-state.ts";
import type { OptimizerView } from "./optimizer-state.ts";
import type {
  ApprovalRequest,
  CatalogSnapshot,
  McpServerView,
  ChatMessage,
  PermissionTrace,
  ProviderInfo,
  ReloadDiff,
  RoutingDecision,
  RunDigest,
  SandboxState,
  ServerMessage,
  SessionConfirmation,
  SessionSettings,
  SessionSummary,
  SkillWarning,
  StopReason,
  ToolResult,
  Usage,
} from "../../server/protocol/index.ts";
import type { InstallOutcome } from "../../server/protocol/index.ts";
import type { SkillResourceView } from "./skill-resources.ts";
import type { Records } from "./records.ts";
import type { RequestRef } from "../../server/protocol/index.ts";
import type { RequestStore } from "./request-store.ts";
import type { ResolvedSnapshot } from "./snapshot-view.ts";

/** `no_token`: the page has none; `wrong_token`: the server says it is not this start's (it restarted). */
export type ConnectionStatus = "idle" | "connecting" | "open" | "closed" | "no_token" | "wrong_token";

export type ToolCallState = "pending" | "awaiting_approval" | "running" | "done" | "error" | "denied";

export interface ToolCallView {
  id: string;
  name: string;
  input: unknown;
  runId: string;
  requestIndex: number;
  state: ToolCallState;
  /** Run by hand from the tool console: no model asked for it, and no run is going. */
  byHand?: boolean;
  /** False when the model called a tool that is not in its definitions (registered-not-visible or unknown). */
  known: boolean;
  visible: boolean;
  approval?: ApprovalRequest;
  trace?: PermissionTrace;
  denialReason?: string;
  result?: ToolResult | HistoryToolResult;
  fullOutput?: string;
  durationMs?: number;
}

/** A result known only from the conversation history: its text and whether it failed, nothing more. */
export interface HistoryToolResult {
  ok: boolean;
  tool: string;
  content: string;
  errorType?: undefined;
  error?: undefined;
  metadata?: undefined;
}

export type ChatTurn =
  | { kind: "user"; id: string; text: string; runId?: string; skill?: string }
  | {
      kind: "assistant";
      id: string;
      runId?: string;
      /** The model request that produced this turn (links to the inspector timeline). */
      requestIndex?: number;
      /** A call run by hand from the tool console, not by the model. */
      byHand?: boolean;
      text: string;
      streaming: boolean;
      toolCallIds: string[];
    }
  | { kind: "tool_message"; id: string; toolName: string; content: string; isError: boolean }
  | { kind: "stop"; id: string; runId: string; reason: StopReason; message?: string; iterations: number }
  | { kind: "retry"; id: string; requestIndex: number; attempt: number; delayMs: number; reason: string }
  | { kind: "error"; id: string; code: string; message: string };

export interface RequestView {
  requestIndex: number;
  runId: string;
  /** The request as the server sent it: by reference (the selectors of ./snapshot-view.ts resolve it). */
  snapshot: RequestRef;
  /** The session's blobs and conversation, which the reference names (shared by the session's requests). */
  store: RequestStore;
  /** The hash of the provider's payload (./snapshot-view.ts requestPayload gives it as sent). */
  payload?: string;
  /** The description router's decision for this request ("why this skill"); absent for models. */
  routing?: RoutingDecision;
  usage?: Usage;
  /** The provider's cache diagnostics beside the prediction (the usage event's check). */
  cacheCheck?: CacheCheck;
}

export interface ReloadFeedEntry {
  id: string;
  diff: ReloadDiff;
  warnings: SkillWarning[];
  trigger: "watch" | "manual";
  seq: number;
}

export interface ConsoleResult {
  requestId: string;
  tool: string;
  input: unknown;
  result?: ToolResult;
  durationMs?: number;
  fullOutput?: string;
}

export interface ManualTurnRequest {
  runId: string;
  requestIndex: number;
  snapshot: ResolvedSnapshot;
}

export interface SessionView {
  id: string;
  summary: SessionSummary;
  settings: SessionSettings;
  /** Highest event sequence number applied; sent back in open_session after a reconnect. */
  lastSeq: number;
  catalog?: CatalogSnapshot;
  visibleTools: string[];
  registeredTools: string[];
  activeSkills: string[];
  /** The conversation in order, by turn id (./records.ts: an event changes only the turn it is about). */
  turns: Records<ChatTurn>;
  /** The blobs and the conversation (history_appended messages and their figures) requests refer to. */
  store: RequestStore;
  /** The session's tool calls, by call id (a turn names its calls by id). */
  toolCalls: Records<ToolCallView>;
  /** Call ids waiting for the user's answer, oldest first. */
  pendingApprovals: string[];
  requests: RequestView[];
  reloadFeed: ReloadFeedEntry[];
  consoleResults: Record<string, ConsoleResult>;
  /** The session's MCP servers (the newest mcp_state event); absent when it has none. */
  mcp?: { servers: McpServerView[]; warnings: string[] };
  manualTurn?: ManualTurnRequest;
  running: boolean;
  currentRunId?: string;
  /** The newest sandbox reported for this session's processes (run_started or an exec call's trace). */
  runSandbox?: SandboxState;
  /** The user chose "Keep untrusted" for the folder's current trust prompt. */
  trustPromptDismissed: boolean;
  /** Sequence number of the session_opened event that (re)started this view. */
  openedSeq: number;
  /** Turns came from session_opened history only (no live events seen yet). */
  turnsFromHistory: boolean;
  /** Level 3: each loaded skill's files and their reads (./skill-resources.ts); absent until one is loaded. */
  skillResources?: Record<string, SkillResourceView>;
  /** The trigger lab's live table and result (issue 14). */
  triggerLab?: TriggerLabView;
  /** The description optimizer (issue 25), live only. */
  optimizer?: OptimizerView;
  /** The last catalog budget report the server sent. */
  catalogBudget?: CatalogBudgetReport;
  /** The session's prompt-cache statistics after its last run (the newest cache_stats event). */
  cacheStats?: CacheStats;
  /** What listing and loading each skill costs, as the server counted it (skill_figures), by name. */
  skillFigures?: Record<string, SkillFigures>;
  /** A branch: how its first request compares with the origin's, segment by segment (branch_checked). */
  branchCheck?: BranchCheck;
}

export interface UiError {
  id: string;
  code: string;
  message: string;
  command?: string;
  /** The session the failed command named; absent for the connection's own errors. */
  sessionId?: string;
  /** How many times this same error arrived (one card counts them). */
  count: number;
}

/** A message typed while its session's run was going: sent when that run ends, unless removed. */
export interface QueuedMessage {
  id: string;
  sessionId: string;
  text: string;
}

/** A command the server refused with `confirmation_required`, waiting for the user's answer. */
export interface PendingConfirmation {
  /** The refused command's type, e.g. `create_session`. */
  command: string;
  sessionId?: string;
  message: string;
  confirm: SessionConfirmation[];
}

export interface UiState {
  connection: ConnectionStatus;
  serverVersion?: string;
  providers: ProviderInfo[];
  defaultWorkdir?: string;
  /** Whether this machine can sandbox tool processes (from hello; absent from older servers). */
  machineSandbox?: { available: boolean; reason?: string };
  /** The models "cache as" offers and the scripted/manual default (from hello; absent from older servers). */
  cacheAs?: { models: CacheModelChoice[]; default: string };
  sessions: SessionSummary[];
  /** True once the server has answered list_sessions on this connection. */
  sessionListLoaded: boolean;
  session?: SessionView;
  errors: UiError[];
  /** Messages waiting for their session's run to end (./outbox.ts). */
  queue: QueuedMessage[];
  /** The message sent and not yet started by the server (returns to the queue if refused). */
  outbox?: { sessionId: string; text: string };
  /** A session log the server sent for download; cleared once the browser has it. */
  pendingExport?: { sessionId: string; fileName: string; jsonl: string; mimeType?: string };
  /** A risky create_session / update_session waiting for the user to confirm it. */
  confirmation?: PendingConfirmation;
  /** The server's latest answer to install_skill ("Add skill"): a plan, an install or a refusal. */
  skillInstall?: { uploadId: string; dryRun: boolean; outcome: InstallOutcome };
  /** Counter for stable ids of items created by the reducer. */
  nextLocalId: number;
  /** Runs of sessions the compare view asked for (get_runs), by session id. */
  runs?: Record<string, RunDigest[]>;
}

export type UiAction =
  | { type: "server"; message: ServerMessage }
  | { type: "server_batch"; messages: ServerMessage[] }
  | { type: "connection"; status: ConnectionStatus }
  | { type: "local_error"; code: string; message: string; sessionId?: string }
  | { type: "queue_message"; sessionId: string; text: string }
  | { type: "unqueue_message"; id: string }
  /** A send_message went out (from the composer, or the queue's item `queuedId`). */
  | { type: "message_sent"; sessionId: string; text: string; queuedId?: string }
  | { type: "dismiss_error"; id: string }
  | { type: "export_done" }
  | { type: "confirmation_done" }
  /** Hide ("Keep untrusted") or show again the folder's trust prompt. */
  | { type: "trust_prompt"; dismissed: boolean }
  | { type: "console_started"; requestId: string; tool: string; input: unknown }
  /** The Add skill dialog closed: forget the server's last answer. */
  | { type: "skill_install_clear" };

export type { ChatMessage };
