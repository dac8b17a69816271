// The trigger lab: every query of an eval file, K times each, as independent probes with bounded
// concurrency, scored by the first load_skill; optionally an ablation (one skill's description replaced)
// and an arm without skills, run the same way and reported side by side. Before the first probe it says
// how many calls it will make and what they cost (spend.ts); the caps stop it cleanly, with the partial
// results scored and saved and the reason stated. Results are saved next to the eval file (results.ts).
import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import { performance } from "node:perf_hooks";
import { PlaygroundError } from "../errors/index.ts";
import type { ToolDefinition } from "../protocol/model.ts";
import type {
  CostEstimate,
  LabSide,
  ProbeRecord,
  SpendCaps,
  TriggerLabProgress,
  TriggerLabResult,
  TriggerLabRunInfo,
  TriggerLabSummary,
} from "../protocol/trigger-lab.ts";
import { buildEnvironment } from "../prompt/environment.ts";
import { segmentTokens, type TokenCounter } from "../prompt/segments.ts";
import { buildStableSystem, type ListingBudget } from "../prompt/stable-system.ts";
import type { Provider } from "../providers/types.ts";
import type { EnvironmentFacts } from "../runner/types.ts";
import type { Catalog } from "../skills/catalog.ts";
import type { PromptItem } from "../skills/types.ts";
import { evalNotes } from "./notes.ts";
import { runProbe, type ProbeSetup } from "./probe.ts";
import { saveLabResult } from "./results.ts";
import { scoreTriggerLab, type ScoredQuery } from "./score.ts";
import {
  PROBE_OUTPUT_TOKENS,
  SpendGuard,
  callUsd,
  estimateCost,
  pricingFor,
  settledUsd,
  type Pricing,
} from "./spend.ts";
import { checkExpectedSkills, type TriggerAblation, type TriggerEvalFile } from "./triggers-file.ts";

export const MAX_RUNS = 100;
export const MAX_CONCURRENCY = 32;
export const DEFAULT_RUNS = 3;

export interface LabWorkspace {
  catalog: Catalog;
  /** The tool definitions a fresh run of this workspace shows the model. */
  tools: readonly ToolDefinition[];
  facts: EnvironmentFacts;
  workdir: string;
  home: string;
  /** The token counter the figures come from (the composition root's). */
  tokens: TokenCounter;
}

/** A lab's view of a workspace (the CLI's or a session's): its catalog, tool definitions and facts. */
export function labWorkspaceOf(workspace: {
  catalog: Catalog;
  registry: { definitions(): ToolDefinition[] };
  prompt: { environmentFacts(): EnvironmentFacts };
  workdir: string;
  home: string;
  tokens: TokenCounter;
}): LabWorkspace {
  return {
    catalog: workspace.catalog,
    tools: workspace.registry.definitions(),
    facts: workspace.prompt.environmentFacts(),
    workdir: workspace.workdir,
    home: workspace.home,
    tokens: workspace.tokens,
  };
}

export interface TriggerLabOptions {
  evals: TriggerEvalFile;
  workspace: LabWorkspace;
  /** Called once per probe: each probe is a fresh conversation (the scripted model keeps per-conversation state). */
  createProvider: () => Provider | Promise<Provider>;
  runs: number;
  concurrency?: number;
  /** Overrides the eval file's ablation; `null`: no ablation even if the file has one. */
  ablation?: TriggerAblation | null;
  /** Side A with this skill's description replaced (the optimizer's candidate). */
  replace?: TriggerAblation;
  /** Also run every probe with an empty skills index (the arm without skills). */
  withoutSkills?: boolean;
  listingBudget?: ListingBudget;
  caps?: SpendCaps;
  /** Shared with the caller's other calls (an optimization holds one guard for all its labs). */
  guard?: SpendGuard;
  /** Defaults to the price table (server/cache/prices.json, then the user's copy). */
  pricing?: Pricing;
  /** Called once before the first probe is sent: what runs, how many probes in all, and what they cost. */
  onStarted?: (info: TriggerLabRunInfo, total: number, estimate: CostEstimate) => void;
  onProgress?: (progress: TriggerLabProgress) => void;
  signal?: AbortSignal;
  now?: () => Date;
  labId?: string;
  /** Write the JSONL and summary next to the eval file (default true). */
  save?: boolean;
  /** Say what it would cost and send nothing (every probe `not_run`, nothing saved). */
  estimateOnly?: boolean;
}

export const ESTIMATE_ONLY = "estimate only: nothing was sent";

interface Side {
  name: LabSide;
  setup: ProbeSetup;
  /** Input tokens of the request before the query's message (tools, stable system, environment). */
  baseTokens: number;
}

/** A number option within its range, or an invalid_arguments error naming the flag. */
export function checkRange(value: number, name: string, low: number, high: number, integer = true): number {
  if (!Number.isFinite(value) || value < low || value > high || (integer && !Number.isInteger(value))) {
    throw new PlaygroundError(
      "invalid_arguments",
      `${name} must be ${integer ? "a whole number" : "a number"} from ${low} to ${high} (got ${value})`,
    );
  }
  return value;
}

const checkCount = (value: number, name: string, max: number) => checkRange(value, name, 1, max);

function itemsWith(items: PromptItem[], ablation: TriggerAblation | undefined): PromptItem[] {
  if (!ablation) return items;
  return items.map((item) =>
    item.name === ablation.skill ? { ...item, description: ablation.description } : item,
  );
}

/** Runs `tasks` with at most `limit` in flight; results keep the tasks' order. */
async function pooled<T>(count: number, limit: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return results;
}

export async function runTriggerLab(options: TriggerLabOptions): Promise<TriggerLabResult> {
  const { evals, workspace } = options;
  const runs = checkCount(options.runs, "--runs", MAX_RUNS);
  const concurrency = checkCount(options.concurrency ?? 4, "--concurrency", MAX_CONCURRENCY);
  const catalogNames = workspace.catalog.names();
  const ablation = options.ablation === null ? undefined : (options.ablation ?? evals.ablation);
  checkExpectedSkills({ ...evals, ...(ablation ? { ablation } : {}) }, catalogNames);
  // One internal signal that follows the caller's: every in-flight probe listens to it (more than Node's
  // default of 10 listeners at high concurrency), while the caller's signal gets a single listener.
  const controller = new AbortController();
  setMaxListeners(MAX_CONCURRENCY * 4, controller.signal);
  const outer = options.signal;
  const follow = () => controller.abort();
  if (outer?.aborted) controller.abort();
  else outer?.addEventListener("abort", follow, { once: true });
  const signal = controller.signal;
  const now = options.now ?? (() => new Date());
  const first = await options.createProvider();
  const started = performance.now();
  const info: TriggerLabRunInfo = {
    labId: options.labId ?? `lab_${randomUUID().slice(0, 8)}`,
    evalFile: evals.file,
    provider: first.name,
    model: first.model,
    runs,
    concurrency,
    ...(ablation ? { ablation } : {}),
    ...(options.listingBudget ? { budget: options.listingBudget } : {}),
    ...(options.withoutSkills ? { withoutSkills: true } : {}),
    startedAt: now().toISOString(),
  };
  const environment = buildEnvironment({
    ...workspace.facts,
    provider: first.name,
    model: first.model,
    date: now(),
    activeSkills: [],
  });
  const toolTokens = segmentTokens(workspace.tokens.toolSegments(workspace.tools));
  const sideFor = (name: LabSide, items: PromptItem[]): Side => {
    const stable = buildStableSystem({
      skills: items,
      disclosure: "progressive",
      ...(options.listingBudget ? { listingBudget: options.listingBudget } : {}),
    });
    return {
      name,
      setup: {
        catalog: workspace.catalog,
        stable,
        environment,
        tools: workspace.tools,
        workdir: workspace.workdir,
        home: workspace.home,
      },
      baseTokens:
        toolTokens +
        workspace.tokens.textFigures(stable).tokens +
        workspace.tokens.textFigures(environment).tokens,
    };
  };
  const items = workspace.catalog.promptItems();
  const sides: Side[] = [sideFor("a", itemsWith(items, options.replace))];
  if (ablation) sides.push(sideFor("b", itemsWith(items, ablation)));
  if (options.withoutSkills) sides.push(sideFor("none", []));

  const perSide = evals.queries.length * runs;
  const total = perSide * sides.length;
  const pricing = options.pricing ?? pricingFor(first.name, first.model);
  const guard = options.guard ?? new SpendGuard(options.caps);
  if (options.estimateOnly) guard.stop(ESTIMATE_ONLY);
  const tokensOf = (side: Side, queryIndex: number) =>
    side.baseTokens + workspace.tokens.textFigures(evals.queries[queryIndex].query).tokens;
  const meanInput = Math.round(
    sides.reduce(
      (sum, side) => sum + evals.queries.reduce((inner, _query, index) => inner + tokensOf(side, index), 0),
      0,
    ) / Math.max(1, sides.length * evals.queries.length),
  );
  const estimate = estimateCost(pricing, total, meanInput);
  options.onStarted?.(info, total, estimate);
  let done = 0;
  let firstUsed = false;
  const records = await pooled(total, concurrency, async (index): Promise<ProbeRecord> => {
    const side = sides[Math.floor(index / perSide)];
    const within = index % perSide;
    const queryIndex = Math.floor(within / runs);
    const run = (within % runs) + 1;
    const query = evals.queries[queryIndex];
    const inputTokens = tokensOf(side, queryIndex);
    const reserved = callUsd(pricing, inputTokens, PROBE_OUTPUT_TOKENS);
    let probe: ProbeRecord;
    if (signal.aborted) guard.stop("the lab was stopped");
    if (!guard.reserve(reserved)) {
      probe = { first: null, loaded: [], outcome: "not_run", error: guard.stopped };
    } else {
      const provider = firstUsed ? await options.createProvider() : ((firstUsed = true), first);
      const { usage, ...record } = await runProbe(query.query, side.setup, provider, signal, {
        countedInputTokens: inputTokens,
        ...(query.checks ? { checks: query.checks } : {}),
      });
      const spent = settledUsd(pricing, usage, {
        inputTokens,
        outputTokens: usage?.outputTokens ?? PROBE_OUTPUT_TOKENS,
      });
      guard.settle(reserved, spent);
      probe = { ...record, ...(pricing.offline || pricing.price ? { costUsd: spent.usd } : {}) };
    }
    done += 1;
    options.onProgress?.({ labId: info.labId, side: side.name, done, total, queryIndex, run, probe });
    return probe;
  }).finally(() => outer?.removeEventListener("abort", follow));

  const summaries = sides.map((side, sideIndex): TriggerLabSummary => {
    const scored: ScoredQuery[] = evals.queries.map((query, queryIndex) => ({
      query: query.query,
      expect: query.expect,
      kind: query.kind,
      ...(query.avoid ? { avoid: query.avoid } : {}),
      probes: records.slice(
        sideIndex * perSide + queryIndex * runs,
        sideIndex * perSide + (queryIndex + 1) * runs,
      ),
    }));
    return scoreTriggerLab(scored, catalogNames);
  });
  const bySide = (name: LabSide) => summaries[sides.findIndex((side) => side.name === name)];
  const notes = evalNotes(evals.queries, items);
  const stopped = options.estimateOnly
    ? ESTIMATE_ONLY
    : records.some((probe) => probe.outcome === "not_run")
      ? guard.stopped
      : undefined;
  const result: TriggerLabResult = {
    info,
    a: summaries[0],
    ...(ablation ? { b: bySide("b") } : {}),
    ...(options.withoutSkills ? { none: bySide("none") } : {}),
    ...(notes.length > 0 ? { notes } : {}),
    estimate,
    ...(options.caps && Object.keys(options.caps).length > 0 ? { caps: options.caps } : {}),
    spend: guard.spend(),
    ...(stopped ? { stopped: options.estimateOnly ? stopped : `${stopped}; the results are partial` } : {}),
    durationMs: performance.now() - started,
  };
  if (options.save === false || options.estimateOnly) return result;
  return saveLabResult(result);
}
