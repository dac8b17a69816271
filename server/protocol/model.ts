// Provider-neutral conversation and tool types. These are wire types: the Runner, the providers, the
// session log and the browser all use exactly these shapes.
import type { WrittenPath } from "../shared/command-writes.ts";
import type { SkillResources } from "./skill-resources.ts";
import type { ErrorType } from "../errors/index.ts";
import type { PermissionTrace } from "./permission.ts";
import type { ReportedCacheDiagnostics } from "./cache-report.ts";

export type JsonSchema = Record<string, unknown>;

export type ToolSafety = "read_only" | "side_effect";
export type ToolCategory = "read" | "write" | "exec";

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  safety: ToolSafety;
  category: ToolCategory;
  /** "system" for protected built-ins, "skill" for tools.json tools, "main" for anything else. */
  origin: "system" | "skill" | "main";
  /** For skill tools: the skill that registered it. */
  skill?: string;
  /** For MCP tools (`mcp__<server>__<tool>`, origin "main"): the server it comes from. */
  mcpServer?: string;
}

export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

export type ChatMessage =
  | {
      role: "user";
      content: string;
      /**
       * Tools this message makes visible as a mid-conversation tool change (skill placement "system", on
       * models that accept one): sent after this turn instead of in the request's `tools`, so the cached
       * prefix stays. Absent everywhere else.
       */
      addedTools?: ToolDefinition[];
    }
  | { role: "assistant"; content: string; toolCalls: ToolCall[] }
  | {
      role: "tool";
      toolCallId: string;
      toolName: string;
      content: string;
      isError: boolean;
      /**
       * Text of a mid-conversation system message sent right after the turn holding this result (skill
       * placement "system": a loaded skill's SOP). Absent everywhere else.
       */
      system?: string;
    };

/** The system tool that loads a skill; every layer names it through this constant. */
export const LOAD_SKILL_TOOL_NAME = "load_skill";

/**
 * What a call changed beyond its text, reported by the tool and consumed by the Runner (which turns each
 * effect into its event). Never parsed back out of `metadata`.
 */
export type ToolEffect =
  | {
      type: "skill_activated";
      skill: string;
      source: string;
      /** 0-based position in the active skills. */
      position: number;
      /** The arguments the SOP was rendered with ("" when none). */
      arguments: string;
      /** Where the skill lives and its files (absent in logs written before level 3). */
      resources?: SkillResources;
    }
  | { type: "tools_registered"; skill: string; names: string[] }
  /** A file tool read a file of a loaded skill's folder (`path` relative to its base directory). */
  | { type: "skill_resource_read"; skill: string; path: string; bytes: number };

/**
 * The one metadata vocabulary of tool results (what the UI reads). Process results (run_command and
 * skill tools) carry the process fields; any result whose model copy was capped carries `modelTruncated`.
 * Tools may add their own fields (`path`, `bytes`, …).
 */
export interface ToolResultMetadata {
  /** The model's copy was capped; the full text is the event's `fullOutput`. */
  modelTruncated?: boolean;
  omittedChars?: number;
  /** Output cut by the tool itself (read_file at its size cap). */
  truncated?: boolean;
  command?: string;
  cwd?: string;
  exitCode?: number | null;
  signal?: string | null;
  stderr?: string;
  durationMs?: number;
  timeoutMs?: number;
  stdoutBytes?: number;
  stderrBytes?: number;
  stdoutTruncated?: boolean;
  stderrTruncated?: boolean;
  timedOut?: boolean;
  canceled?: boolean;
  killedLeftovers?: boolean;
  /** Stop was pressed while the call ran, but it finished by itself: this is its real result. */
  finishedDespiteStop?: boolean;
  /**
   * What a command (run_command, a skill tool) wrote to the workdir, recorded when its held writes were
   * applied (server/tools/held-writes-record.ts): top-level entries first, at most WRITES_LISTED. Absent
   * when its writes were not held (the sandbox's `writesHeld` says why): then what it wrote is not known.
   */
  writes?: WrittenPath[];
  /** Paths the call wrote beyond those listed in `writes`. */
  writesOmitted?: number;
  /** The count in `writesOmitted` stopped early (a huge new folder): the call wrote at least that many more. */
  writesOmittedAtLeast?: boolean;
  [field: string]: unknown;
}

/** One path a command wrote (ToolResultMetadata.writes): defined in server/shared, which pages import too. */
export type { WrittenPath };

interface ToolResultBase {
  tool: string;
  /** What the model sees (capped). */
  content: string;
  metadata?: ToolResultMetadata;
  effects?: ToolEffect[];
}

export interface ToolSuccess extends ToolResultBase {
  ok: true;
  errorType?: undefined;
  error?: undefined;
}

/** A refused call: the trace says which rule, mode or sandbox policy refused it. */
export interface ToolDenial extends ToolResultBase {
  ok: false;
  errorType: "permission_denied";
  error: string;
  metadata: ToolResultMetadata & { permission: PermissionTrace };
}

export interface ToolFailure extends ToolResultBase {
  ok: false;
  errorType: Exclude<ErrorType, "permission_denied">;
  error: string;
}

/**
 * A tool call's result, keyed by `errorType` (absent on success). The JSON fields `ok`, `tool`,
 * `content`, `errorType`, `error`, `metadata` are what old logs and `run --json` consumers read.
 */
export type ToolResult = ToolSuccess | ToolDenial | ToolFailure;

export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  cacheCreationInputTokens?: number;
  cacheReadInputTokens?: number;
  /**
   * Where the numbers come from: the provider's own report (absent means the same, for older logs), or
   * an estimate made here (the scripted model counts the chunks it streamed; it has no tokenizer).
   */
  source?: "provider" | "estimate";
  /** How an estimate was made, shown next to it. */
  estimate?: string;
  /** The TTL the provider wrote cache entries with (Anthropic `usage.cache_creation`: 1h tokens > 0). */
  cacheWriteTtl?: "5m" | "1h";
  /** What the provider said about its prompt cache for this response (absent: it said nothing, or was not asked). */
  cacheDiagnostics?: ReportedCacheDiagnostics;
}

export type DisclosureMode = "progressive" | "eager";
export type PermissionMode = "strict" | "default" | "acceptEdits" | "bypassPermissions";
export type StopReason =
  | "completed"
  | "max_iterations"
  | "unknown_tool_limit"
  | "canceled"
  | "provider_error"
  /** The server ended (crash, kill -9) during the run; written by the next start, which found no stop. */
  | "interrupted";
