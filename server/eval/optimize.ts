// The description optimizer (issue 25): skill-creator's loop without its defects. The queries are split
// into train and test (split.ts: stratified, seeded). Each iteration measures the current description on
// both with the trigger lab's real probes (the real load_skill, the real index with only this skill's
// description replaced — no decoy, every tool call recorded, no shared state between probes). The
// improver (improver.ts) sees the SKILL.md, the train failures and the train history — never a test query
// or score — and proposes the next description. The loop stops when every train query passes, after the
// last iteration, when a cap is reached, or when the improver fails; the best description is the one with
// the best TEST score (ties: the better train score, then the earlier one). One SpendGuard holds the caps
// over every probe and every improver call.
import { PlaygroundError, errorMessage } from "../errors/index.ts";
import type {
  CostEstimate,
  OptimizeIteration,
  OptimizePlan,
  OptimizeResult,
  SpendCaps,
  TriggerLabSummary,
} from "../protocol/trigger-lab.ts";
import type { Provider } from "../providers/types.ts";
import { checkRange, runTriggerLab, type LabWorkspace } from "./lab.ts";
import {
  DESCRIPTION_LIMIT,
  extractDescription,
  proposePrompt,
  shortenPrompt,
  type Improver,
  type ImproverInput,
} from "./improver.ts";
import { splitQueries } from "./split.ts";
import {
  PROBE_OUTPUT_TOKENS,
  SpendGuard,
  callUsd,
  estimateCost,
  pricingFor,
  settledUsd,
  type Pricing,
} from "./spend.ts";
import type { TriggerEvalFile } from "./triggers-file.ts";

export const DEFAULT_ITERATIONS = 5;
export const DEFAULT_HOLDOUT = 0.4;
export const DEFAULT_SEED = 42;
/** What the estimate assumes an improver answers with. */
export const IMPROVER_OUTPUT_TOKENS = 400;

export interface OptimizeOptions {
  evals: TriggerEvalFile;
  skill: string;
  /** The SKILL.md as it is on disk (the improver reads it). */
  skillMarkdown: string;
  workspace: LabWorkspace;
  createProvider: () => Provider | Promise<Provider>;
  improver: Improver;
  /** Pricing of the improver's calls (default: from its provider name and model, or offline). */
  improverPricing?: Pricing;
  runs: number;
  iterations?: number;
  holdout?: number;
  seed?: number;
  concurrency?: number;
  caps?: SpendCaps;
  onPlan?: (plan: OptimizePlan) => void;
  onIteration?: (iteration: OptimizeIteration, spentUsd: number) => void;
  /** The improver proposed the next description (to be measured). */
  onProposal?: (description: string) => void;
  signal?: AbortSignal;
}

function passedIn(summary: TriggerLabSummary, indexes: readonly number[]): number {
  return indexes.filter((index) => summary.queries[index]?.passed === true).length;
}

function better(candidate: OptimizeIteration, best: OptimizeIteration | undefined): boolean {
  if (!best) return true;
  const rate = (passed: number, total: number) => (total === 0 ? 0 : passed / total);
  const test = rate(candidate.test_passed, candidate.test_total) - rate(best.test_passed, best.test_total);
  if (test !== 0) return test > 0;
  return rate(candidate.train_passed, candidate.train_total) > rate(best.train_passed, best.train_total);
}

export async function optimizeDescription(options: OptimizeOptions): Promise<OptimizeResult> {
  const iterations = checkRange(options.iterations ?? DEFAULT_ITERATIONS, "--iterations", 1, 20, true);
  const holdout = checkRange(options.holdout ?? DEFAULT_HOLDOUT, "--holdout", 0, 0.9, false);
  const seed = checkRange(options.seed ?? DEFAULT_SEED, "--seed", 0, 2 ** 32 - 1, true);
  const item = options.workspace.catalog.promptItems().find((entry) => entry.name === options.skill);
  if (!item) {
    throw new PlaygroundError(
      "invalid_arguments",
      `--skill ${options.skill} is not in the catalog (skills: ${options.workspace.catalog.names().join(", ") || "none"})`,
    );
  }
  const queries = options.evals.queries;
  const split = splitQueries(queries, options.skill, holdout, seed);
  const scorer = await options.createProvider();
  const pricing = pricingFor(scorer.name, scorer.model);
  const improverPricing = options.improverPricing ?? {
    price: null,
    offline: true,
    model: options.improver.label,
  };
  const guard = new SpendGuard(options.caps);

  // The plan: every iteration probes every query K times; every iteration but the last asks the improver
  // once (twice when it must shorten; the estimate counts one).
  const probeCalls = iterations * queries.length * options.runs;
  const improverCalls = iterations - 1;
  const stableTokens = options.workspace.tokens.textFigures(options.skillMarkdown).tokens + 600;
  const planned = await runTriggerLab({
    evals: { file: options.evals.file, queries },
    workspace: options.workspace,
    createProvider: () => scorer,
    runs: options.runs,
    ablation: null,
    replace: { skill: options.skill, description: item.description },
    pricing,
    estimateOnly: true,
  });
  const probes = estimateCost(pricing, probeCalls, planned.estimate?.inputTokensPerCall ?? 0);
  const estimate: CostEstimate = combine(
    probes,
    estimateCost(improverPricing, improverCalls, stableTokens, IMPROVER_OUTPUT_TOKENS),
  );
  options.onPlan?.({
    estimate,
    probeCalls,
    improverCalls,
    trainSize: split.train.length,
    testSize: split.test.length,
    holdout,
    seed,
    iterations,
    runs: options.runs,
    scorer: `${scorer.name} / ${scorer.model}`,
    improver: options.improver.label,
  });

  const history: OptimizeIteration[] = [];
  let description = item.description;
  let exitReason = "";
  let best: OptimizeIteration | undefined;
  const signal = options.signal ?? new AbortController().signal;
  for (let iteration = 1; iteration <= iterations; iteration += 1) {
    const lab = await runTriggerLab({
      evals: { file: options.evals.file, queries },
      workspace: options.workspace,
      createProvider: options.createProvider,
      runs: options.runs,
      ...(options.concurrency ? { concurrency: options.concurrency } : {}),
      ablation: null,
      replace: { skill: options.skill, description },
      guard,
      pricing,
      signal,
      save: false,
    });
    if (lab.stopped) {
      exitReason = signal.aborted ? "stopped by the user" : (guard.stopped ?? lab.stopped);
      break;
    }
    const entry: OptimizeIteration = {
      iteration,
      description,
      train_passed: passedIn(lab.a, split.train),
      train_total: split.train.length,
      test_passed: passedIn(lab.a, split.test),
      test_total: split.test.length,
    };
    history.push(entry);
    if (better(entry, best)) best = entry;
    options.onIteration?.(entry, guard.spend().usd);
    if (entry.train_passed === entry.train_total) {
      exitReason = `all ${entry.train_total} train queries pass (iteration ${iteration})`;
      break;
    }
    if (iteration === iterations) {
      exitReason = `max iterations (${iterations}) reached`;
      break;
    }
    const input: ImproverInput = {
      skill: options.skill,
      skillMarkdown: options.skillMarkdown,
      description,
      failures: split.train
        .map((index) => lab.a.queries[index])
        .filter((query) => query.passed !== true)
        .map((query) => ({
          query: query.query,
          shouldTrigger: query.expect === options.skill,
          triggered: Math.round((query.triggerRate ?? 0) * (query.runs ?? 0)),
          runs: query.runs ?? 0,
        })),
      history: history.map((earlier) => ({
        description: earlier.description,
        trainPassed: earlier.train_passed,
        trainTotal: earlier.train_total,
      })),
    };
    const next = await improve(options.improver, input, guard, improverPricing, stableTokens, signal);
    if (!next.ok) {
      exitReason = next.reason;
      break;
    }
    description = next.description;
    options.onProposal?.(description);
  }
  const chosen = best;
  return {
    original_description: item.description,
    best_description: chosen?.description ?? item.description,
    best_score: chosen ? `${chosen.test_passed}/${chosen.test_total}` : null,
    best_train_score: chosen ? `${chosen.train_passed}/${chosen.train_total}` : null,
    best_test_score: chosen ? `${chosen.test_passed}/${chosen.test_total}` : null,
    iterations_run: history.length,
    holdout,
    train_size: split.train.length,
    test_size: split.test.length,
    exit_reason: exitReason,
    history,
    estimate,
    spend: guard.spend(),
    skill: options.skill,
  };
}

function combine(first: CostEstimate, second: CostEstimate): CostEstimate {
  return {
    calls: first.calls + second.calls,
    inputTokensPerCall: first.inputTokensPerCall,
    outputTokensPerCall: first.outputTokensPerCall,
    usd: first.usd === null || second.usd === null ? null : first.usd + second.usd,
    basis: `probes: ${first.basis}; improver: ${second.basis}`,
  };
}

type Improved = { ok: true; description: string } | { ok: false; reason: string };

async function askOnce(
  improver: Improver,
  prompt: string,
  step: "propose" | "shorten",
  guard: SpendGuard,
  pricing: Pricing,
  inputTokens: number,
  signal: AbortSignal,
): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  const reserved = callUsd(pricing, inputTokens, IMPROVER_OUTPUT_TOKENS);
  if (!guard.reserve(reserved)) return { ok: false, reason: guard.stopped ?? "a cap was reached" };
  try {
    const answer = await improver.ask(prompt, step, signal);
    guard.settle(
      reserved,
      settledUsd(pricing, answer.usage, { inputTokens, outputTokens: IMPROVER_OUTPUT_TOKENS }),
    );
    return { ok: true, text: answer.text };
  } catch (error) {
    guard.settle(reserved, { usd: reserved ?? 0, estimated: true });
    if (signal.aborted) return { ok: false, reason: "stopped by the user" };
    return { ok: false, reason: `the improver failed: ${errorMessage(error)}` };
  }
}

async function improve(
  improver: Improver,
  input: ImproverInput,
  guard: SpendGuard,
  pricing: Pricing,
  inputTokens: number,
  signal: AbortSignal,
): Promise<Improved> {
  const proposed = await askOnce(
    improver,
    proposePrompt(input),
    "propose",
    guard,
    pricing,
    inputTokens,
    signal,
  );
  if (!proposed.ok) return proposed;
  let description = extractDescription(proposed.text);
  if (!description) {
    return { ok: false, reason: "the improver's answer had no <new_description>…</new_description>" };
  }
  if (description.length > DESCRIPTION_LIMIT) {
    const shorter = await askOnce(
      improver,
      shortenPrompt(description),
      "shorten",
      guard,
      pricing,
      PROBE_OUTPUT_TOKENS,
      signal,
    );
    if (!shorter.ok) return shorter;
    description = extractDescription(shorter.text);
    if (!description || description.length > DESCRIPTION_LIMIT) {
      return {
        ok: false,
        reason: `the improver could not shorten its description to ${DESCRIPTION_LIMIT} characters`,
      };
    }
  }
  return { ok: true, description };
}
