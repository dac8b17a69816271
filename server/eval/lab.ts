// The trigger lab: every query of an eval file, K times each, as independent probes with bounded
// concurrency, scored by the first load_skill; optionally an ablation (one skill's description replaced)
// run the same way and reported side by side. Results are saved next to the eval file (results.ts).
import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import { performance } from "node:perf_hooks";
import { PlaygroundError } from "../errors/index.ts";
import type { ToolDefinition } from "../protocol/model.ts";
import type {
  ProbeRecord,
  TriggerLabProgress,
  TriggerLabResult,
  TriggerLabRunInfo,
  TriggerLabSummary,
} from "../protocol/trigger-lab.ts";
import { buildEnvironment } from "../prompt/environment.ts";
import { buildStableSystem, type ListingBudget } from "../prompt/stable-system.ts";
import type { Provider } from "../providers/types.ts";
import type { EnvironmentFacts } from "../runner/types.ts";
import type { Catalog } from "../skills/catalog.ts";
import type { PromptItem } from "../skills/types.ts";
import { runProbe, type ProbeSetup } from "./probe.ts";
import { saveLabResult } from "./results.ts";
import { scoreTriggerLab, type ScoredQuery } from "./score.ts";
import { checkExpectedSkills, type TriggerAblation, type TriggerEvalFile } from "./triggers-file.ts";

export const MAX_RUNS = 100;
export const MAX_CONCURRENCY = 32;

export interface LabWorkspace {
  catalog: Catalog;
  /** The tool definitions a fresh run of this workspace shows the model. */
  tools: readonly ToolDefinition[];
  facts: EnvironmentFacts;
  workdir: string;
  home: string;
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
  listingBudget?: ListingBudget;
  /** Called once before the first probe is sent: what runs, and how many probes in all. */
  onStarted?: (info: TriggerLabRunInfo, total: number) => void;
  onProgress?: (progress: TriggerLabProgress) => void;
  signal?: AbortSignal;
  now?: () => Date;
  labId?: string;
  /** Write the JSONL and summary next to the eval file (default true). */
  save?: boolean;
}

interface Side {
  name: "a" | "b";
  setup: ProbeSetup;
}

function checkCount(value: number, name: string, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new PlaygroundError(
      "invalid_arguments",
      `${name} must be a whole number from 1 to ${max} (got ${value})`,
    );
  }
  return value;
}

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
    startedAt: now().toISOString(),
  };
  const environment = buildEnvironment({
    ...workspace.facts,
    provider: first.name,
    model: first.model,
    date: now(),
    activeSkills: [],
  });
  const setupFor = (sideAblation: TriggerAblation | undefined): ProbeSetup => ({
    catalog: workspace.catalog,
    stable: buildStableSystem({
      skills: itemsWith(workspace.catalog.promptItems(), sideAblation),
      disclosure: "progressive",
      ...(options.listingBudget ? { listingBudget: options.listingBudget } : {}),
    }),
    environment,
    tools: workspace.tools,
    workdir: workspace.workdir,
    home: workspace.home,
  });
  const sides: Side[] = [{ name: "a", setup: setupFor(undefined) }];
  if (ablation) sides.push({ name: "b", setup: setupFor(ablation) });

  const perSide = evals.queries.length * runs;
  const total = perSide * sides.length;
  options.onStarted?.(info, total);
  let done = 0;
  let firstUsed = false;
  const records = await pooled(total, concurrency, async (index): Promise<ProbeRecord> => {
    const side = sides[Math.floor(index / perSide)];
    const within = index % perSide;
    const queryIndex = Math.floor(within / runs);
    const run = (within % runs) + 1;
    let probe: ProbeRecord;
    if (signal.aborted) {
      probe = { first: null, loaded: [], outcome: "provider_error", error: "the lab was stopped" };
    } else {
      const provider = firstUsed ? await options.createProvider() : ((firstUsed = true), first);
      probe = await runProbe(evals.queries[queryIndex].query, side.setup, provider, signal);
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
      probes: records.slice(
        sideIndex * perSide + queryIndex * runs,
        sideIndex * perSide + (queryIndex + 1) * runs,
      ),
    }));
    return scoreTriggerLab(scored, catalogNames);
  });
  const result: TriggerLabResult = {
    info,
    a: summaries[0],
    ...(summaries[1] ? { b: summaries[1] } : {}),
    durationMs: performance.now() - started,
  };
  if (options.save === false) return result;
  return saveLabResult(result);
}
