// The Runner's hooks as a session (or a CLI command) installs them: what the playground shows beside each
// request, computed outside the loop (server/runner/types.ts, RunnerHooks). Per request: the prompt as
// segments (hash and tokens), the eager comparison, the tools registered but not visible, the cache
// prediction with the ledger's diagnostics; per run: the sandbox stamp on run_started and cache_stats
// before stop; per usage report: the ledger's check of the provider's cache figures.
import type { CacheLedger } from "../cache/cache-ledger.ts";
import type { CachePredictor } from "../cache/cache-model.ts";
import type { ChatMessage } from "../protocol/model.ts";
import type { CacheBreakpoints, PromptSegment } from "../protocol/runner-events.ts";
import { buildEnvironmentSections } from "../prompt/environment.ts";
import { TOKENIZER_NAME, segmentTokens, type TokenCounter } from "../prompt/segments.ts";
import {
  buildStableSystem,
  indexLineTexts,
  type ListingBudget,
  type SkillBody,
} from "../prompt/stable-system.ts";
import { placementNote } from "../runner/mid-conversation.ts";
import type {
  OutgoingRequest,
  RequestAdditions,
  RunFacts,
  RunnerHooks,
  SnapshotAdditions,
} from "../runner/types.ts";
import type { ToolDefinition } from "../protocol/model.ts";
import type { PromptItem } from "../skills/types.ts";
import { sandboxState, type SandboxSettings } from "../tools/sandbox.ts";

/** The session's prompt-cache parts; absent from RequestHooksOptions: no prediction, no ledger. */
export interface RequestCacheOptions {
  /** Predicts each request's prompt-cache figures (`snapshot.cache`); absent: no prediction. */
  predictor?: CachePredictor;
  /** The model whose caching rules the prediction applies ("cache as", --cache-model); default the request's. */
  cacheModel?: string;
  /** Anthropic breakpoints, for the provider and the prediction; default "stable". */
  breakpoints?: CacheBreakpoints;
  /** OpenAI's prompt_cache_key (one per session). */
  promptCacheKey?: string;
  /**
   * The session's cache ledger (server/cache/cache-ledger.ts): predicted diagnostics for each request, the
   * provider's report beside them (usage events' `cacheCheck`), `cache_stats` after each run, and what the
   * model accepts mid-conversation.
   */
  ledger?: CacheLedger;
  /** Ask the provider for its cache diagnostics (needs `ledger`); default on. */
  diagnostics?: boolean;
}

export interface RequestHooksOptions {
  /** The Registry's names, for "registered, not visible to the model yet". */
  registry: { names(): string[] };
  /** Every catalog skill's rendered body: the eager alternative a progressive run is compared with. */
  eagerBodies: () => readonly SkillBody[];
  /** The sandbox the run's processes use, stamped on run_started; absent: network off. */
  sandbox?: SandboxSettings;
  cache?: RequestCacheOptions;
  /** Clock for cache_stats (tests pin it). */
  now?: () => Date;
  /** The composition root's token counter: every segment's figures. */
  tokens: TokenCounter;
  /** The workspace's figures of its catalog, kept across runs; absent: a fresh one (computed again). */
  figures?: CatalogFigures;
}

/**
 * What the hooks compute from the catalog alone — the eager alternative's size and each index line's
 * tokens — kept for as long as the catalog is unchanged: PromptSources hands out the same index and body
 * arrays until then, so they key these (weakly). One per workspace, shared by its sessions' runs.
 */
export class CatalogFigures {
  private readonly eagerStables = new WeakMap<
    readonly PromptItem[],
    WeakMap<readonly SkillBody[], { chars: number; tokens: number }>
  >();
  private readonly indexTokens = new WeakMap<readonly PromptItem[], Map<string, Record<string, number>>>();

  constructor(private readonly tokens: TokenCounter) {}

  /** The stable system eager mode would send for this index and these bodies: its length and tokens. */
  eagerStable(items: readonly PromptItem[], bodies: readonly SkillBody[]): { chars: number; tokens: number } {
    let byBodies = this.eagerStables.get(items);
    if (!byBodies) this.eagerStables.set(items, (byBodies = new WeakMap()));
    let known = byBodies.get(bodies);
    if (!known) {
      // The same builder eager mode uses (its tokens cached by hash).
      const text = buildStableSystem({ skills: [...items], disclosure: "eager", eagerBodies: [...bodies] });
      known = { chars: text.length, tokens: this.tokens.textFigures(text).tokens };
      byBodies.set(bodies, known);
    }
    return known;
  }

  /** Each index line's tokens (the inspector's Context and the skill lane show these). */
  indexLineTokens(items: readonly PromptItem[], budget: ListingBudget | undefined): Record<string, number> {
    const key = JSON.stringify(budget ?? null);
    let byBudget = this.indexTokens.get(items);
    if (!byBudget) this.indexTokens.set(items, (byBudget = new Map()));
    let known = byBudget.get(key);
    if (!known) {
      known = Object.fromEntries(
        indexLineTexts([...items], budget).map(({ name, line }) => [
          name,
          this.tokens.textFigures(line).tokens,
        ]),
      );
      byBudget.set(key, known);
    }
    return known;
  }
}

/** What a run computes once for every request: its stable system's figures and the eager comparison. */
interface RunFigures {
  stablePart: PromptSegment;
  eagerStable: { chars: number; tokens: number };
  indexLineTokens?: Record<string, number>;
}

export function createRequestHooks(options: RequestHooksOptions): RunnerHooks {
  const cache = options.cache;
  const ledger = cache?.ledger;
  const cacheModelOf = (model: string) => cache?.cacheModel || model;
  const now = options.now ?? (() => new Date());
  const runFigures = new WeakMap<RunFacts, RunFigures>();
  const { tokens: counter } = options;
  const figures = options.figures ?? new CatalogFigures(counter);
  const toolParts = new WeakMap<readonly ToolDefinition[], PromptSegment[]>();

  const figuresOf = (run: RunFacts): RunFigures => {
    const known = runFigures.get(run);
    if (known) return known;
    const stablePart = counter.stableSegment(run.stable, run.stableHash);
    const eagerStable =
      run.disclosure === "eager"
        ? { chars: run.stable.length, tokens: stablePart.tokens }
        : figures.eagerStable(run.items, options.eagerBodies());
    // Each index line's tokens: the inspector's Context and the skill lane show these.
    const indexLineTokens =
      run.disclosure === "progressive" && !run.stableOverridden
        ? figures.indexLineTokens(run.items, run.listingBudget)
        : undefined;
    const computed = { stablePart, eagerStable, ...(indexLineTokens ? { indexLineTokens } : {}) };
    runFigures.set(run, computed);
    return computed;
  };

  const toolSegmentsOf = (tools: readonly ToolDefinition[]): PromptSegment[] => {
    let parts = toolParts.get(tools);
    if (!parts) {
      parts = counter.toolSegments(tools);
      toolParts.set(tools, parts);
    }
    return parts;
  };

  // The Runner hands over the same environment objects while the environment is unchanged
  // (runner/environment-gather.ts): its figures are computed once for all of those requests.
  const environmentFigures = new WeakMap<
    OutgoingRequest["environmentInput"],
    { parts: PromptSegment[]; eagerTokens: number }
  >();
  const environmentFiguresOf = (request: OutgoingRequest) => {
    let known = environmentFigures.get(request.environmentInput);
    if (!known) {
      const parts = counter.environmentSegments(request.sections);
      const eagerTokens =
        request.run.disclosure === "eager"
          ? segmentTokens(parts)
          : segmentTokens(
              counter.environmentSegments(
                buildEnvironmentSections({ ...request.environmentInput, disclosure: "eager" }),
              ),
            );
      known = { parts, eagerTokens };
      environmentFigures.set(request.environmentInput, known);
    }
    return known;
  };

  const beforeRequest = (
    request: OutgoingRequest,
  ): { snapshot: SnapshotAdditions; request: RequestAdditions } => {
    const { run } = request;
    const figures = figuresOf(run);
    const tools = toolSegmentsOf(request.sentTools);
    const { parts: environmentParts, eagerTokens: eagerEnvironmentTokens } = environmentFiguresOf(request);
    const messageParts = counter.messageSegments(request.messages);
    const segments = [...tools, figures.stablePart, ...environmentParts, ...messageParts];
    const visible = new Set(request.visibleTools.map((tool) => tool.name));
    const registeredNotVisible = options.registry.names().filter((name) => !visible.has(name));

    const breakpoints = cache?.breakpoints ?? "stable";
    // Read before `expect` records this request: the diagnostics compare it with the response before.
    const requestAdditions: RequestAdditions = {
      ...(breakpoints === "rolling" ? { cacheBreakpoints: breakpoints } : {}),
      ...(cache?.promptCacheKey ? { promptCacheKey: cache.promptCacheKey } : {}),
      ...(ledger && cache?.diagnostics !== false && ledger.asksDiagnostics()
        ? { cacheDiagnostics: { previousResponseId: ledger.previousResponseId() } }
        : {}),
    };
    const predicted = cache?.predictor?.predict({
      requestIndex: request.requestIndex,
      runId: run.runId,
      at: request.at,
      segments,
      model: cacheModelOf(request.model),
      breakpoints,
      registeredNotVisible,
    });
    const note =
      cache && run.disclosure === "progressive"
        ? placementNote(request.placement, predicted?.model ?? cacheModelOf(request.model), request.support)
        : undefined;
    // The ledger records the request's divergence from the one before it (what the provider's diagnostics
    // should say): the prediction's own, which its cache strip words, else found against its last request.
    const diagnostics = ledger?.expect({
      requestIndex: request.requestIndex,
      provider: request.provider,
      at: request.at,
      model: predicted?.model ?? cacheModelOf(request.model),
      segments,
      registeredNotVisible,
      tools: request.sentTools,
      ...(predicted ? { predicted: predicted.predicted } : {}),
      ...(predicted?.diagnostics ? { diagnostics: predicted.diagnostics } : {}),
      ...(note ? { placementNote: note } : {}),
    });
    const snapshotCache = predicted && {
      ...predicted,
      ...(diagnostics ? { diagnostics } : {}),
      ...(note ? { placementNote: note } : {}),
    };
    return {
      snapshot: {
        registeredNotVisible,
        ...(figures.indexLineTokens ? { indexLineTokens: figures.indexLineTokens } : {}),
        eagerStableLength: figures.eagerStable.chars,
        tokenizer: TOKENIZER_NAME,
        segments,
        eager: {
          stableChars: figures.eagerStable.chars,
          stableTokens: figures.eagerStable.tokens,
          environmentTokens: eagerEnvironmentTokens,
          totalTokens:
            segmentTokens(tools) +
            figures.eagerStable.tokens +
            eagerEnvironmentTokens +
            segmentTokens(messageParts),
        },
        ...(snapshotCache ? { cache: snapshotCache } : {}),
      },
      request: requestAdditions,
    };
  };

  return {
    runStarted: () => ({
      sandbox: sandboxState(options.sandbox?.network ?? false, options.sandbox?.availability),
    }),
    midConversation: (model) => ledger?.supports(cacheModelOf(model)),
    lastSentTools: () => ledger?.lastSentTools(),
    messageAppended: (message: ChatMessage) => counter.figuresOnAppend(message),
    beforeRequest,
    afterUsage: (requestIndex, usage) => {
      const cacheCheck = ledger?.report(requestIndex, usage, now().toISOString());
      return cacheCheck ? { cacheCheck } : undefined;
    },
    diagnosticsRefused: () => ledger?.refuseDiagnostics(),
    beforeStop: (runId) =>
      ledger ? [{ type: "cache_stats", runId, stats: ledger.stats(now().toISOString()) }] : [],
  };
}
