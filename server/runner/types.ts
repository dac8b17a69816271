import type { SecretScope } from "../providers/redact.ts";
import type { CacheBreakpoints, RunnerEvent, SkillPlacement } from "../protocol/runner-events.ts";
import type { CachePredictor } from "../cache/cache-model.ts";
import type { CacheLedger } from "../cache/cache-ledger.ts";
import type { ChatMessage, DisclosureMode, StopReason } from "../protocol/model.ts";
import type { PermissionHook } from "../permission/types.ts";
import type { ListingBudget, SkillBody } from "../prompt/stable-system.ts";
import type { Provider } from "../providers/types.ts";
import type { PromptItem } from "../skills/types.ts";
import type { Registry } from "../tools/registry.ts";
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
  /** The skills index (name + description). */
  promptItems(): PromptItem[];
  /** Rendered bodies of the active skills, in activation order. */
  activeSkills(): SkillBody[];
  /** Arguments each active skill was loaded with; eager mode shows them, as its body is not repeated. */
  activeSkillArguments?(): Record<string, string>;
  /** Rendered bodies of every catalog skill, for eager mode and the eager-length comparison. */
  eagerBodies(): SkillBody[];
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
  /** Starts the processes tools run (the composition root's runner); absent: the default runner. */
  processes?: ProcessRunner;
  /** The session's secrets, kept out of tool results and named on approval cards; absent: provider keys. */
  secrets?: SecretScope;
  /** Optional listing budget of the skills index (default off: the stable system's bytes are unchanged). */
  listingBudget?: ListingBudget;
  /** Predicts each request's prompt-cache figures (`snapshot.cache`); absent: no prediction. */
  cache?: CachePredictor;
  /** The model whose caching rules the prediction applies ("cache as", --cache-model); default the request's. */
  cacheModel?: string;
  /** Anthropic breakpoints, for the provider and the prediction; default "stable". */
  cacheBreakpoints?: CacheBreakpoints;
  /** OpenAI's prompt_cache_key (one per session). */
  promptCacheKey?: string;
  /** Experiment: where active SOPs go; default "environment" (the design). */
  skillPlacement?: SkillPlacement;
  /** The loaded skills' folders: a command that runs or names one of their files says so (skill_resource_used). */
  skillRoots?: () => readonly SkillRoot[];
  /**
   * The session's cache ledger (server/cache/cache-ledger.ts): predicted diagnostics for each request, the
   * provider's report beside them (usage events' `cacheCheck`), `cache_stats` after each run, and what the
   * model accepts mid-conversation. Absent: none of these.
   */
  cacheLedger?: CacheLedger;
  /** Ask the provider for its cache diagnostics (needs `cacheLedger`); default on. */
  cacheDiagnostics?: boolean;
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
