import type { SkillResources } from "./skill-resources.ts";
import type {
  ChatMessage,
  DisclosureMode,
  StopReason,
  ToolCall,
  ToolDefinition,
  ToolResult,
  Usage,
} from "./model.ts";
import type { ApprovalAnswer, ApprovalRequest, PermissionTrace } from "./permission.ts";
import type { SandboxState } from "./sandbox.ts";
import type { CacheCheck, CacheStats, PredictedCacheDiagnostics } from "./cache-report.ts";
import type { RoutingDecision } from "./routing.ts";

/** What a segment of the prompt is; segments come in the order the provider renders them. */
export type PromptSegmentKind = "tool" | "system" | "environment" | "message";

/**
 * One part of a request as the provider renders it: tool definitions first, then the stable system, the
 * environment's sections (its base block, then one per active skill), then the messages. Figures are
 * computed once, on the server, with the tokenizer the snapshot names.
 */
export interface PromptSegment {
  kind: PromptSegmentKind;
  /** A tool's name, "stable", "base" or an active skill's name (environment), or a message's 0-based index. */
  name: string;
  /** sha256 hex of the segment's content: a tool definition's or a message's JSON, a system part's text. */
  hash: string;
  /** Tokens of the text the segment stands for (see server/prompt/segments.ts). */
  tokens: number;
  /** Characters (UTF-16 code units) of a system part; the environment's sections concatenate to it. */
  chars?: number;
}

/** Token figures of one message, sent with the history_appended event that adds it. */
export interface MessageFigures {
  hash: string;
  tokens: number;
}

/** The same request under eager disclosure, built with the builders the Runner uses in eager mode. */
export interface EagerFigures {
  stableChars: number;
  stableTokens: number;
  environmentTokens: number;
  /** Tools + eager stable + eager environment + messages. */
  totalTokens: number;
}

/** How a prompt part fared in the provider's prompt cache (a prediction, see server/cache). */
export type CacheStatus = "read" | "written" | "uncached";

/** A run of consecutive prompt segments of one part with the same predicted cache status. */
export interface CacheSegment {
  part: "tools" | "stable" | "environment" | "messages";
  /** Which segments: a tool name or "first … last", "stable", a section name, "messages 0–5". */
  label: string;
  tokens: number;
  status: CacheStatus;
  /** Why it was not read (or why it was written / read), in words. */
  reason: string;
}

/** USD per million tokens for one model, as listed in prices.json (with where it comes from). */
export interface PriceRow {
  model: string;
  input: number;
  output: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  cacheRead: number;
  source: string;
  checked: string;
}

/**
 * The cache model's prediction for one request (server/cache): what the provider would read from its
 * prompt cache, write to it, and process uncached, under the named model's rules. A prediction made
 * with the server's tokenizer, never a measurement: the provider's own report is the `usage` event.
 */
export interface SnapshotCache {
  /** The model whose caching rules were applied (the provider's, or "cache as" / --cache-model). */
  model: string;
  /** Which rule set applied: "anthropic", "openai", or "none" (no known caching for this model). */
  rules: "anthropic" | "openai" | "none";
  /** Anthropic: where breakpoints were placed ("stable" block only, or also a rolling one on the last message). */
  breakpoints?: CacheBreakpoints;
  predicted: {
    /** Tokens processed uncached (Anthropic's input_tokens; OpenAI's prompt_tokens − cached_tokens). */
    inputTokens: number;
    cacheCreationInputTokens: number;
    cacheReadInputTokens: number;
  };
  /** In render order. */
  segments: CacheSegment[];
  /** Predicted input cost of the request in USD (output not known yet); null when the model has no price. */
  costUsd: number | null;
  /** The price row used (absent when none). */
  price?: PriceRow;
  /** Where the numbers come from (tokenizer, rules file). */
  source: string;
  /** What the provider's cache diagnostics should report for this request (absent in old logs). */
  diagnostics?: PredictedCacheDiagnostics;
  /** How the SOP placement in force affects the cache for this request, in words (absent: nothing to say). */
  placementNote?: string;
}

/** A model "cache as" can predict with: its rule set, the shortest prefix it caches, and how long an entry lives. */
export interface CacheModelChoice {
  model: string;
  rules: "anthropic" | "openai";
  /** Tokens a prefix needs before the provider caches it (Anthropic: per model; OpenAI: one figure). */
  minTokens: number;
  /** Seconds an entry lives without use (Anthropic: refreshed by each read; the playground uses 5 minutes). */
  ttlSeconds: number;
  /** Whether the price table has it, so its predictions have a cost. */
  priced: boolean;
}

/** Anthropic breakpoint placement: the stable block only, or the stable block plus the conversation's end. */
export type CacheBreakpoints = "stable" | "rolling";

/**
 * Where an active skill's SOP goes: the environment block (the design), the load_skill result ("message"),
 * or a mid-conversation system message after that result ("system", on the models cache-rules.json marks
 * as accepting one; the others get the load_skill result).
 */
export type SkillPlacement = "environment" | "message" | "system";

/**
 * Everything the model was given for one request, captured before the provider is called: the Runner's
 * form, in full. On the wire and in the log it is a RequestRef (./request-model.ts).
 */
export interface RequestSnapshot {
  runId: string;
  /** 1-based index of the request within the session (across runs). */
  requestIndex: number;
  /** 1-based iteration within the run. */
  iteration: number;
  provider: string;
  model: string;
  disclosure: DisclosureMode;
  system: { stable: string; environment: string };
  /** sha256 hex of system.stable. */
  stableHash: string;
  /**
   * The conversation sent. The Runner's event (and `cli run --json`) carries it in full; the WebSocket and
   * the session log carry the request by reference (request-model.ts: the conversation's first n).
   */
  messages: ChatMessage[];
  /** The run-level tool definitions snapshot: what the model can see. */
  tools: ToolDefinition[];
  /** Names of tools registered in the Registry but not in `tools` (registered, not visible yet). */
  registeredNotVisible: string[];
  /** Skill names as listed in the stable system index. */
  listedSkills: string[];
  /** Active skill names in activation order (their bodies are in the environment). */
  activeSkills: string[];
  /** The system.stable that eager mode would have produced (for the eager-vs-progressive comparison). */
  eagerStableLength?: number;
  /** The tokenizer of every token figure here, e.g. "o200k_base (gpt-tokenizer)" (absent in old logs). */
  tokenizer?: string;
  /** The prompt in render order: tools, stable system, environment sections, messages (absent in old logs). */
  segments?: PromptSegment[];
  /** The eager alternative of this request (absent in old logs). */
  eager?: EagerFigures;
  /** The prompt-cache prediction for this request (absent in old logs). */
  cache?: SnapshotCache;
  /**
   * Tokens of each listed skill's line in the stable system's index (o200k_base, server/prompt/segments.ts);
   * absent in eager mode, for an edited stable system, and in logs written before it was recorded.
   */
  indexLineTokens?: Record<string, number>;
  at: string;
}

/** The events of a run, each with the console marker (see ConsoleMarker). */
export type RunnerEvent = RunnerEventVariant & ConsoleMarker;

/**
 * Set on the events of a call made by hand from the tool console: no model request produced it and no
 * run owns it (their runId is only the call's id; their requestIndex, 0, means nothing).
 */
export interface ConsoleMarker {
  console?: true;
}

type RunnerEventVariant =
  | {
      type: "run_started";
      runId: string;
      userMessage: string;
      skill?: string;
      /** The sandbox this run's processes use (absent in logs written before the sandbox existed). */
      sandbox?: SandboxState;
      /** The run adds no user message: it continues the conversation as it is (a branch's first run). */
      continues?: true;
    }
  | { type: "request"; runId: string; snapshot: RequestSnapshot }
  /** The provider's own payload (keys redacted) for the Raw pane. */
  | {
      type: "provider_payload";
      runId: string;
      requestIndex: number;
      payload: unknown;
      /** The description router's decision for this request: every skill's score (absent for models). */
      routing?: RoutingDecision;
    }
  | {
      type: "provider_retry";
      runId: string;
      requestIndex: number;
      attempt: number;
      delayMs: number;
      reason: string;
    }
  | { type: "text_delta"; runId: string; requestIndex: number; text: string }
  /** The provider's usage report; `cacheCheck`: its cache diagnostics beside the prediction (absent: nothing to compare). */
  | { type: "usage"; runId: string; requestIndex: number; usage: Usage; cacheCheck?: CacheCheck }
  /** The session's prompt-cache statistics, after each run (server/cache/cache-ledger.ts). */
  | { type: "cache_stats"; runId: string; stats: CacheStats }
  /**
   * Something the provider did on its own that the user should know, e.g. `cache_diagnostics_rejected`:
   * the server refused the diagnostics parameter, the request was sent again without it, and the session
   * stops asking for it.
   */
  | {
      type: "provider_notice";
      runId: string;
      requestIndex: number;
      code: "cache_diagnostics_rejected";
      message: string;
    }
  /**
   * Written by versions before log format 2 (and by nothing now): an assistant message, which the
   * history_appended after it repeated. Readers still accept it, for old logs.
   */
  | {
      type: "assistant_message";
      runId: string;
      requestIndex: number;
      message: ChatMessage & { role: "assistant" };
    }
  | {
      type: "tool_call";
      runId: string;
      requestIndex: number;
      call: ToolCall;
      known: boolean;
      visible: boolean;
    }
  | { type: "permission_request"; runId: string; request: ApprovalRequest }
  | {
      type: "permission_decision";
      runId: string;
      callId: string;
      trace: PermissionTrace;
      answer?: ApprovalAnswer;
    }
  | { type: "tool_started"; runId: string; callId: string; tool: string }
  | {
      type: "tool_result";
      runId: string;
      callId: string;
      result: ToolResult;
      durationMs: number;
      trace?: PermissionTrace;
      /** Full output for the UI (up to 1 MiB) when the model's copy was capped. */
      fullOutput?: string;
    }
  | {
      type: "skill_activated";
      runId: string;
      name: string;
      source: string;
      position: number;
      /** The arguments the skill was loaded with (absent in logs written before they were recorded). */
      arguments?: string;
      /** Base directory and file manifest (absent in logs written before level 3). */
      resources?: SkillResources;
      /** Tokens of its line in the stable system's index (level 1; o200k_base, server/prompt/segments.ts). */
      indexTokens?: number;
    }
  | { type: "tools_registered"; runId: string; skill: string; tools: string[] }
  /**
   * A file of a loaded skill's folder read into the conversation (level 3): its size on disk and the
   * tokens of the text the model received (o200k_base, server/prompt/segments.ts).
   */
  | { type: "skill_resource_read"; runId: string; skill: string; path: string; bytes: number; tokens: number }
  /**
   * A command the run executed (run_command, a skill's tools.json tool) used a file of a loaded skill:
   * `ran` it (the program, or the script an interpreter runs) or `named` it as another argument. Derived
   * by the Runner from the command line with the shell parser (server/runner/skill-files-used.ts), after
   * the process ran; absent from logs written before it existed.
   */
  | {
      type: "skill_resource_used";
      runId: string;
      callId: string;
      tool: string;
      skill: string;
      path: string;
      how: "ran" | "named";
    }
  /**
   * A message appended to the conversation. An assistant message names the request that produced it
   * (`requestIndex`): this event is the assistant's final text for the chat, too. `figures` are the
   * message's hash and tokens (absent in old logs).
   */
  | {
      type: "history_appended";
      runId: string;
      message: ChatMessage;
      requestIndex?: number;
      figures?: MessageFigures;
    }
  | { type: "stop"; runId: string; reason: StopReason; message?: string; iterations: number };
