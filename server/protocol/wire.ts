// Client commands and server messages over the WebSocket. Each command is checked against the JSON
// Schemas in ./schemas.ts on receipt. The browser imports types from here only.
//
// Connecting (one origin: the Node server serves the pages and the socket on the same host and port):
// - The server prints `http://127.0.0.1:PORT/#token=<64 hex>`. The token sits in the URL fragment, so the
//   browser never sends it in a request line or a Referer.
// - The page reads `location.hash`, keeps the token in sessionStorage, strips the fragment from the address
//   bar (history.replaceState), and opens `ws://${location.host}/ws?token=<hex>`.
// - The server checks Host, then Origin, then the token (403 / 403 / 401); the first message is `hello`.
// - Every session event arrives as `{type:"event", sessionId, seq, event}`; seq increases per session
//   (text_delta events are kept in memory only, so after a server restart their seqs are gaps).
// - `create_session` / `open_session` subscribe this connection to the session. The server first sends a
//   `session_opened` event whose `seq` is the last seq it covers (it is a snapshot, not stored in the log;
//   its `history` and `activeSkills` are the state at that seq), then replays every stored event with
//   seq > `lastSeq` (all of them when `lastSeq` is absent, so the inspector can rebuild its timeline), then
//   streams live events. With `batchReplay: true` on `open_session` the replay comes as a few `events`
//   messages (each a list of `{seq, event}`) instead of one `event` message per stored event. With
//   `batchLive: true` (create_session, open_session, fork_request) the live events one turn of the server's
//   event loop produces (a burst of text deltas) come as one `events` message too; an event alone still
//   comes as an `event`. A reducer should therefore treat `session_opened` as "reset to this snapshot" and
//   skip replayed `history_appended` events whose seq <= the snapshot's seq. The turns travel once: a
//   replay from the start (no `lastSeq`) carries every `history_appended`, so `session_opened` then has no
//   `history` (only `historyLength`); with `lastSeq` > 0 it carries the history as before.
// - Requests and provider payloads travel by reference (./request-model.ts): each text or JSON value once,
//   as a blob inside the first event that needs it, then by its sha256. A request's messages are the first
//   `historyLength` messages of the conversation (the `history_appended` events in seq order) unless the
//   run's history is not the session's (an isolated slash run): then each message is a blob of its own.
import type { CatalogSnapshot, ReloadDiff, SkillFigures, SkillWarning } from "./catalog.ts";
import type { McpServerView } from "./mcp.ts";
import type { ChatMessage, ToolCall, ToolResult } from "./model.ts";
import type { CacheModelChoice, MessageFigures, SnapshotCache } from "./runner-events.ts";
import type { ManualTurnEvent, WireRunnerEvent } from "./request-model.ts";
import type { FolderTrust, SandboxState, SessionConfirmation } from "./sandbox.ts";
import type { InstallOutcome } from "./install.ts";
import type {
  CatalogBudgetReport,
  CostEstimate,
  OptimizeIteration,
  OptimizePlan,
  OptimizeResult,
  SpendCaps,
  TriggerLabProgress,
  TriggerLabResult,
  TriggerLabRunInfo,
  TriggerQueryKind,
} from "./trigger-lab.ts";
import type { BranchCheck, BranchOrigin, RunDigest } from "./branch.ts";

import type { SessionSettings } from "./schemas.ts";
export type { SessionSettings };

export interface SessionSummary {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  settings: SessionSettings;
  messageCount: number;
  running: boolean;
  /** The sandbox this session's processes run in. */
  sandbox?: SandboxState;
  /** Whether the workdir's own settings take effect (absent: the folder grants nothing). */
  trust?: FolderTrust;
  /** Set on a branch: the session and request it was forked from (server/protocol/branch.ts). */
  branch?: BranchOrigin;
  /**
   * The demo's tasks that apply to this workdir (their files exist there: server/shared/demo-tasks.ts),
   * offered by the empty chat. Sent with session_opened only (read from the workdir as it is then; a
   * summary is otherwise the same whether the session is open or read back from its log).
   */
  demoTasks?: string[];
  /**
   * Set when the session's workdir does not exist (or is not a folder) now: checked when the list is made
   * and when the session is opened. Its log stays readable; a message is refused (not_found).
   */
  workdirMissing?: true;
}

export interface ProviderInfo {
  name: string;
  configured: boolean;
  defaultModel: string;
  /** Why it is not configured, e.g. "set ANTHROPIC_API_KEY". */
  hint?: string;
  offline: boolean;
}

/** Client commands and their JSON Schemas are defined once, in ./schemas.ts. */
export type { ClientCommand } from "./schemas.ts";

/** Events that belong to one session's ordered stream (each carries a sequence number). */
export type SessionEvent =
  | WireRunnerEvent
  | {
      type: "session_opened";
      session: SessionSummary;
      /** The conversation at this seq; absent when the replay that follows starts at the beginning. */
      history?: ChatMessage[];
      /** The server's figures (hash, tokens) of each message of `history`, when it is sent. */
      historyFigures?: MessageFigures[];
      /** Messages in the conversation at this seq (absent from servers before log format 2). */
      historyLength?: number;
      activeSkills: string[];
    }
  | { type: "catalog_snapshot"; catalog: CatalogSnapshot; visibleTools: string[]; registeredTools: string[] }
  | { type: "catalog_diff"; diff: ReloadDiff; warnings: SkillWarning[]; trigger: "watch" | "manual" }
  | { type: "settings_changed"; settings: SessionSettings }
  /** The workdir's trust, sent when a session opens on a folder whose settings grant something, and on change. */
  | { type: "trust_state"; trust: FolderTrust }
  | ManualTurnEvent
  | {
      type: "tool_console_result";
      requestId: string;
      /** The id the call's own events carry as runId (absent in logs written before it was sent). */
      runId?: string;
      tool: string;
      input: unknown;
      result: ToolResult;
      durationMs: number;
      fullOutput?: string;
    }
  /**
   * `runFailed`: the message sent did not start a run, or its run failed outside the Runner — no `stop`
   * follows for it (a headless client such as `cli run` ends the turn here).
   */
  | { type: "session_error"; message: string; code: string; runFailed?: true }
  /** Trigger lab (issue 14): never stored in the log (the results are saved next to the eval file). */
  | {
      type: "trigger_lab_started";
      info: TriggerLabRunInfo;
      queries: { query: string; expect: string; kind: TriggerQueryKind }[];
      total: number;
      /** The calls and their cost, said before the first one (absent from servers before issue 25). */
      estimate?: CostEstimate;
      caps?: SpendCaps;
    }
  | { type: "trigger_lab_progress"; progress: TriggerLabProgress }
  | { type: "trigger_lab_finished"; result: TriggerLabResult }
  | { type: "trigger_lab_failed"; labId?: string; message: string }
  | { type: "catalog_budget_report"; report: CatalogBudgetReport }
  /** The description optimizer (issue 25): live or in memory only, never in the log. */
  | { type: "optimizer_started"; skill: string; original: string; plan: OptimizePlan; caps?: SpendCaps }
  | { type: "optimizer_iteration"; iteration: OptimizeIteration; spentUsd: number }
  /** The person is the improver: what a model would be sent (train data only), and the current description. */
  | {
      type: "optimizer_proposal_requested";
      step: "propose" | "shorten";
      prompt: string;
      description: string;
    }
  | { type: "optimizer_finished"; result: OptimizeResult }
  | { type: "optimizer_failed"; message: string }
  | { type: "description_applied"; skill: string; file: string; before: string; after: string }
  /**
   * A branch's start, after the copied conversation (its history_appended events) and before its first
   * run, which continues that conversation with the edits applied.
   */
  | { type: "branch_started"; branch: BranchOrigin }
  /** After a branch's first request: how it compares with the origin's, segment by segment. */
  | { type: "branch_checked"; check: BranchCheck }
  /** The session's MCP servers: status, tools (with their definitions' token cost), stderr tail. */
  | { type: "mcp_state"; servers: McpServerView[]; warnings: string[] }
  /**
   * "cache as" changed: every request the session has shown, predicted again in order as if it had gone
   * to `model` (each replaces that request's `snapshot.cache`); later requests go on from this state.
   */
  | {
      type: "cache_repredicted";
      model: string;
      requests: { requestIndex: number; cache: SnapshotCache }[];
    };

export type ServerMessage =
  | {
      type: "hello";
      serverVersion: string;
      providers: ProviderInfo[];
      defaultWorkdir: string;
      /** Whether this machine can sandbox tool processes (bubblewrap), and why not. */
      sandbox?: { available: boolean; reason?: string };
      /**
       * The models "cache as" offers (the rules table's, with their minimum and TTL), and the one a
       * scripted or manual session predicts with when none is chosen.
       */
      cacheAs?: { models: CacheModelChoice[]; default: string };
    }
  | { type: "session_list"; sessions: SessionSummary[] }
  | { type: "providers"; providers: ProviderInfo[] }
  | { type: "event"; sessionId: string; seq: number; event: SessionEvent }
  /**
   * A replay in bulk, for a client that asked with `open_session`'s `batchReplay`: the stored events
   * after its `lastSeq`, in seq order, each exactly as its own `event` message would carry it. A long
   * replay is split over a few of these (about 4 MB of JSON each); live events still come one by one.
   */
  | { type: "events"; sessionId: string; events: { seq: number; event: SessionEvent }[] }
  | { type: "session_deleted"; sessionId: string }
  /** Answer to get_runs: the session's runs as the compare view shows them. */
  | { type: "session_runs"; sessionId: string; runs: RunDigest[] }
  /** The session's append-only log, one JSON record per line (header first). */
  | { type: "session_export"; sessionId: string; fileName: string; jsonl: string }
  /** The answer to `skill_figures`: one skill's index line and load costs, in tokens. */
  | { type: "skill_figures"; sessionId: string; figures: SkillFigures }
  /** The answer to `install_skill`: the plan (dry run), the install, or the refusal. */
  | { type: "skill_install"; sessionId: string; uploadId: string; dryRun: boolean; outcome: InstallOutcome }
  /** A session exported as one file: a self-contained HTML page or a scenario YAML (export_session's `format`). */
  | {
      type: "session_file";
      sessionId: string;
      format: "html" | "scenario" | "otlp";
      fileName: string;
      mimeType: string;
      text: string;
    }
  /** A command could not be carried out, or a frame was invalid. */
  | {
      type: "error";
      code: string;
      message: string;
      command?: string;
      sessionId?: string;
      /** With code `confirmation_required`: what the user must confirm before the command is resent. */
      confirm?: SessionConfirmation[];
    };

export type { ToolCall };
