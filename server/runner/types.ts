import type { SecretScope } from "../providers/redact.ts";
import type {
  MessageFigures,
  RequestSnapshot,
  RunnerEvent,
  SkillPlacement,
} from "../protocol/runner-events.ts";
import type { CacheCheck } from "../protocol/cache-report.ts";
import type { SandboxState } from "../protocol/sandbox.ts";
import type { MidConversationSupport } from "../cache/rules.ts";
import type { ChatMessage, DisclosureMode, StopReason, ToolDefinition, Usage } from "../protocol/model.ts";
import type { PermissionHook } from "../permission/types.ts";
import type { EnvironmentInput, EnvironmentSection } from "../prompt/environment.ts";
import type { ListingBudget, SkillBody } from "../prompt/stable-system.ts";
import type { ModelRequest, Provider } from "../providers/types.ts";
import type { PromptItem } from "../skills/types.ts";
import type { Registry } from "../tools/registry.ts";
import type { TokenCounter } from "../prompt/segments.ts";
import type { ProcessRunner } from "../tools/process-runner.ts";
import type { SandboxSettings } from "../tools/sandbox.ts";
import type { SkillRoot } from "../tools/skill-roots.ts";

export const DEFAULT_MAX_ITERATIONS = 10;
/** Unknown tool calls in a row that stop a run. */
export const UNKNOWN_TOOL_LIMIT = 2;
/** A permission hook that has not answered `evaluate` by then is treated as a deny (fail closed). */
export const PERMISSION_EVALUATE_TIMEOUT_MS = 5_000;

export interface EnvironmentFacts {
  version: string;
  /** Realpath of the working directory. */
  cwd: string;
  platform: string;
}

/** Where the Runner reads the prompt's inputs from; regathered before every request. */
export interface PromptSources {
  /** The skills index (name + description); the same array while the catalog is unchanged (don't change it). */
  promptItems(): readonly PromptItem[];
  /** Rendered bodies of the active skills, in activation order. */
  activeSkills(): SkillBody[];
  /** Arguments each active skill was loaded with; eager mode shows them, as its body is not repeated. */
  activeSkillArguments?(): Record<string, string>;
  /**
   * Rendered bodies of every catalog skill, for eager mode and the eager-length comparison; the same
   * array while the catalog is unchanged (don't change it).
   */
  eagerBodies(): readonly SkillBody[];
  environmentFacts(): EnvironmentFacts;
  /** Parts of the request replaced by hand (a branch's edits, ./request-overrides.ts); absent: none. */
  overrides?(): PromptOverrides;
}

/** What an edited request replaces in every request the Runner builds from these sources. */
export interface PromptOverrides {
  /** The stable system text, instead of the one built from the index. */
  stable?: string;
  /** Environment section text by section name ("base" or an active skill's name). */
  environment?: Record<string, string>;
  /** Tool definitions' description / input schema by tool name (what the model sees; execution is unchanged). */
  tools?: Record<string, { description?: string; inputSchema?: Record<string, unknown> }>;
}

/** Request indexes are 1-based across a session's runs; share one counter between Runners of a session. */
export class RequestCounter {
  private value: number;
  constructor(start = 0) {
    this.value = start;
  }
  next(): number {
    this.value += 1;
    return this.value;
  }
  get current(): number {
    return this.value;
  }
}

/**
 * What the loop itself uses: the seed's parts (provider, registry, permission hook, prompt sources,
 * history) and what running tools needs. Everything the playground shows beside a request — token
 * figures, the eager comparison, the cache prediction, "registered, not visible", the sandbox stamp — is
 * computed by `hooks` the session installs (DESIGN §2: "request hooks injected").
 */
export interface RunnerDependencies {
  provider: Provider;
  registry: Registry;
  permission: PermissionHook;
  prompt: PromptSources;
  /** Realpath of the working directory (tools run against it). */
  workdir: string;
  /** The conversation, owned by the caller; the Runner appends to it (and emits history_appended). */
  history: ChatMessage[];
  onEvent: (event: RunnerEvent) => void;
  disclosure?: DisclosureMode;
  maxIterations?: number;
  requestCounter?: RequestCounter;
  /** Clock for the environment date and snapshot timestamps (tests pin it). */
  now?: () => Date;
  /** Milliseconds before a silent permission `evaluate` fails closed; default 5 s. */
  permissionTimeoutMs?: number;
  /** The OS sandbox for the processes tools start (network, homes); absent: network off, real home. */
  sandbox?: SandboxSettings;
  /** Starts the processes tools run (the composition root's runner). */
  processes: ProcessRunner;
  /** The composition root's token counter (the figures of what a tool call or a slash command adds). */
  tokens: TokenCounter;
  /**
   * The session's secrets, kept out of tool results and named on approval cards; absent: a scope of the
   * run's own (the environment's key variables only).
   */
  secrets?: SecretScope;
  /** Optional listing budget of the skills index (default off: the stable system's bytes are unchanged). */
  listingBudget?: ListingBudget;
  /** Experiment: where active SOPs go; default "environment" (the design). */
  skillPlacement?: SkillPlacement;
  /** The loaded skills' folders: a command that runs or names one of their files says so (skill_resource_used). */
  skillRoots?: () => readonly SkillRoot[];
  /** What the session computes around the loop (see RunnerHooks); absent: the bare loop. */
  hooks?: RunnerHooks;
}

/** What a run settled before its first request; the same object for every request of the run. */
export interface RunFacts {
  runId: string;
  disclosure: DisclosureMode;
  /** The skills index the stable system was built from. */
  items: readonly PromptItem[];
  /** The stable system (built, or replaced by a branch's edit) and its sha256. */
  stable: string;
  stableHash: string;
  /** The stable system is a branch's edit, not built from `items`. */
  stableOverridden: boolean;
  listingBudget?: ListingBudget;
}

/** The request the loop is about to send, as `RunnerHooks.beforeRequest` sees it (read it, don't change it). */
export interface OutgoingRequest {
  run: RunFacts;
  requestIndex: number;
  iteration: number;
  /** The request's model (a skill's `model:` or the provider's). */
  model: string;
  provider: string;
  /** ISO time of the request (the snapshot's `at`). */
  at: string;
  /** The tools the model sees this request (the run's snapshot of the Registry). */
  visibleTools: readonly ToolDefinition[];
  /** What `tools` carries (the SOP-placement experiment may add some mid-conversation instead). */
  sentTools: readonly ToolDefinition[];
  environmentInput: EnvironmentInput;
  /** The environment's sections as sent (a branch's edits applied). */
  sections: readonly EnvironmentSection[];
  messages: readonly ChatMessage[];
  /** The SOP placement asked for, and the model's mid-conversation support (undefined: none known). */
  placement: SkillPlacement;
  support: MidConversationSupport | undefined;
}

/** Snapshot fields a hook computes (RequestSnapshot's documentation says what each means). */
export type SnapshotAdditions = Partial<
  Pick<
    RequestSnapshot,
    | "registeredNotVisible"
    | "indexLineTokens"
    | "eagerStableLength"
    | "tokenizer"
    | "segments"
    | "eager"
    | "cache"
  >
>;

/** Provider-request fields a hook adds (prompt-cache settings; providers/types.ts documents them). */
export type RequestAdditions = Partial<
  Pick<ModelRequest, "cacheBreakpoints" | "promptCacheKey" | "cacheDiagnostics">
>;

/**
 * What the session computes around the loop, called by the Runner at fixed points. Hooks add fields to
 * events; they never change what the model is sent beyond the provider's cache settings
 * (`RequestAdditions`), and a hook that is absent leaves its fields out (`registeredNotVisible`: []).
 */
export interface RunnerHooks {
  /** A run starts: fields run_started carries besides the loop's own (the sandbox stamp). */
  runStarted?(runId: string): { sandbox?: SandboxState };
  /**
   * The SOP-placement experiment's question: does `model` take mid-conversation system messages and tool
   * changes (server/cache/cache-rules.json)? Absent or undefined: it does not.
   */
  midConversation?(model: string): MidConversationSupport | undefined;
  /** The tools the conversation's last request sent as `tools` (for the tool-change plan). */
  lastSentTools?(): readonly ToolDefinition[] | undefined;
  /** A message was appended to the history: its figures for `history_appended` (absent: none). */
  messageAppended?(message: ChatMessage): MessageFigures | undefined;
  /**
   * The request is built and about to be snapshotted and sent: the snapshot's figures (segments, eager
   * comparison, cache prediction, registered-not-visible) and the provider's cache settings.
   */
  beforeRequest?(request: OutgoingRequest): { snapshot?: SnapshotAdditions; request?: RequestAdditions };
  /** The provider reported usage for request #`requestIndex`: what the usage event adds (`cacheCheck`). */
  afterUsage?(requestIndex: number, usage: Usage): { cacheCheck?: CacheCheck } | undefined;
  /** The provider refused its cache-diagnostics parameter: stop asking for it. */
  diagnosticsRefused?(): void;
  /** The run is about to stop: events that go out just before `stop` (the session's cache_stats). */
  beforeStop?(runId: string): RunnerEvent[];
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Plan mode: the model sees read_only tools only. */
  planMode?: boolean;
  /**
   * Experiment (a labelled deviation from DESIGN.md): recompute tool definitions before every request, so
   * a skill tool registered in this run becomes visible in the same run.
   */
  refreshToolsEachIteration?: boolean;
  /** Only these tool names are visible (isolated skill runs). */
  toolNames?: readonly string[];
  /** Per-request model override (a skill's `model:`). */
  model?: string;
  /** Set when the run was started by a slash invocation. */
  skill?: string;
  runId?: string;
  /** Called right after run_started (slash invocation emits its activation events there). */
  onStarted?: () => void;
  disclosure?: DisclosureMode;
  maxIterations?: number;
  /** Add no user message: continue the conversation as it is (a branch's first run); `userText` is ignored. */
  continueConversation?: boolean;
  /**
   * The run's tool definitions are these tools, in this order (those not registered are left out): a
   * branch's first run keeps the tool list of the origin's run, as that run kept it (registered is not
   * visible). With `refreshToolsEachIteration`, only the first request's.
   */
  visibleTools?: readonly string[];
  /** The environment's date (YYYY-MM-DD) instead of today's: a branch's first run pins its origin's. */
  environmentDate?: string;
}

export interface RunOutcome {
  runId: string;
  reason: StopReason;
  message?: string;
  iterations: number;
  /** Text of the last assistant message of the run. */
  finalText: string;
}
