// `cli eval optimize` (the description optimizer, server/eval/optimize.ts) and `cli eval compare` (two
// saved lab results per query). Optimize prints its plan — calls and cost — on stderr before the first
// call, each iteration as it ends, and the result on stdout (`--json`: skill-creator's run_loop.py fields,
// plus estimate and spend). It writes nothing to the skill: the page's optimizer panel applies a
// description, after showing the diff, when the person clicks Apply.
import path from "node:path";
import { PlaygroundError } from "../errors/index.ts";
import { compareLabResults } from "../eval/compare.ts";
import { providerImprover, type Improver } from "../eval/improver.ts";
import { optimizeDescription } from "../eval/optimize.ts";
import { readSavedResult, resultPaths } from "../eval/results.ts";
import { OFFLINE_PROVIDERS, pricingFor } from "../eval/spend.ts";
import { DEFAULT_EVAL_PATH, loadTriggersFile } from "../eval/triggers-file.ts";
import type { OptimizeResult, SpendCaps } from "../protocol/trigger-lab.ts";
import { createProvider, loadProvidersConfig } from "../providers/index.ts";
import type { SecretRedactor } from "../providers/redact.ts";
import type { Workspace } from "../session/workspace.ts";
import { formatComparison, formatEstimate, labWorkspace, probeFactory } from "./eval-command.ts";

export interface EvalOptimizeOptions {
  evals?: string;
  skill: string;
  provider: string;
  model?: string;
  baseUrl?: string;
  scenario?: string;
  improverProvider?: string;
  improverModel?: string;
  improverBaseUrl?: string;
  runs: number;
  concurrency: number;
  iterations?: number;
  holdout?: number;
  seed?: number;
  caps?: SpendCaps;
  /** The environment a real provider's key and endpoint are read from (the CLI's `io.env`). */
  providerEnv?: Readonly<Record<string, string | undefined>>;
  /** The command's provider keys (the configured keys join them; the improver redacts with them). */
  secrets?: SecretRedactor;
  json: boolean;
  write: (text: string) => void;
  writeProgress: (text: string) => void;
}

async function improverFor(
  options: EvalOptimizeOptions,
): Promise<{ improver: Improver; name: string; model: string }> {
  const name = options.improverProvider ?? options.provider;
  if (OFFLINE_PROVIDERS.has(name)) {
    throw new PlaygroundError(
      "invalid_arguments",
      `the ${name} provider cannot propose descriptions: name a model with --improver-provider openai|anthropic --improver-model M, or use the page's optimizer panel, where you propose them (manual)`,
    );
  }
  const sameEndpoint = name === options.provider;
  const baseUrl = options.improverBaseUrl ?? (sameEndpoint ? options.baseUrl : undefined);
  const model = options.improverModel ?? (sameEndpoint ? options.model : undefined);
  const provider = await createProvider({
    name,
    ...(model ? { model } : {}),
    ...(baseUrl ? { baseUrl } : {}),
    config: loadProvidersConfig({
      ...(options.providerEnv ? { env: { ...options.providerEnv } } : {}),
      ...(options.secrets ? { secrets: options.secrets } : {}),
    }),
    ...(options.secrets ? { secrets: options.secrets } : {}),
  });
  return { improver: providerImprover(provider), name: provider.name, model: provider.model };
}

export function formatOptimize(result: OptimizeResult): string {
  const lines = [
    `optimized ${result.skill}: ${result.iterations_run} iteration(s), train ${result.train_size} / test ${result.test_size} (holdout ${result.holdout})`,
    `stopped because: ${result.exit_reason}`,
    "",
    "iter  train   test    description",
  ];
  for (const entry of result.history) {
    lines.push(
      `${String(entry.iteration).padStart(4)}  ${`${entry.train_passed}/${entry.train_total}`.padEnd(6)}  ${`${entry.test_passed}/${entry.test_total}`.padEnd(6)}  ${entry.description}`,
    );
  }
  lines.push(
    "",
    `original: ${result.original_description}`,
    `best (test ${result.best_test_score ?? "—"}, train ${result.best_train_score ?? "—"}): ${result.best_description}`,
    `spent: ${result.spend.calls} call(s), $${result.spend.usd.toFixed(4)}`,
    "Nothing was written: apply the best description to the SKILL.md yourself, or with Apply in the page's optimizer panel.",
  );
  return lines.join("\n");
}

export async function evalOptimize(workspace: Workspace, options: EvalOptimizeOptions): Promise<void> {
  const evalFile = path.resolve(options.evals ?? path.join(workspace.workdir, DEFAULT_EVAL_PATH));
  const evals = await loadTriggersFile(evalFile, { skill: options.skill });
  const skillMarkdown = workspace.catalog.raw(options.skill);
  if (skillMarkdown === undefined) {
    throw new PlaygroundError(
      "invalid_arguments",
      `--skill ${options.skill} is not in the catalog (skills: ${workspace.catalog.names().join(", ") || "none"})`,
    );
  }
  const { improver, name, model } = await improverFor(options);
  const result = await optimizeDescription({
    evals,
    skill: options.skill,
    skillMarkdown,
    workspace: labWorkspace(workspace),
    createProvider: await probeFactory(options, evals),
    improver,
    improverPricing: pricingFor(name, model),
    runs: options.runs,
    concurrency: options.concurrency,
    ...(options.iterations !== undefined ? { iterations: options.iterations } : {}),
    ...(options.holdout !== undefined ? { holdout: options.holdout } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.caps ? { caps: options.caps } : {}),
    onPlan: (plan) =>
      options.writeProgress(
        `${formatEstimate(plan.estimate, options.caps)}\nsplit: ${plan.trainSize} train, ${plan.testSize} test (holdout ${plan.holdout}, seed ${plan.seed}); scorer ${plan.scorer}; improver ${plan.improver}\n`,
      ),
    onIteration: (entry, usd) =>
      options.writeProgress(
        `iteration ${entry.iteration}: train ${entry.train_passed}/${entry.train_total}, test ${entry.test_passed}/${entry.test_total}, $${usd.toFixed(4)} so far\n`,
      ),
  });
  options.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatOptimize(result)}\n`);
}

export async function evalCompare(options: {
  files: string[];
  evals?: string;
  workdir?: string;
  json: boolean;
  write: (text: string) => void;
}): Promise<void> {
  let files = options.files.map((file) => path.resolve(file));
  if (files.length === 0) {
    const evalFile = path.resolve(options.evals ?? path.join(options.workdir ?? ".", DEFAULT_EVAL_PATH));
    const paths = resultPaths(evalFile);
    files = [paths.previous, paths.summary];
  } else if (files.length !== 2) {
    throw new PlaygroundError(
      "invalid_arguments",
      "eval compare takes two saved summaries (BEFORE.summary.json AFTER.summary.json), or none for the eval file's last two",
    );
  }
  const [before, after] = await Promise.all(files.map(readSavedResult));
  const problem = before.problem ?? after.problem;
  if (problem || !before.result || !after.result)
    throw new PlaygroundError("invalid_arguments", problem ?? "");
  const comparison = compareLabResults(before.result, after.result, { before: files[0], after: files[1] });
  options.write(
    options.json ? `${JSON.stringify(comparison, null, 2)}\n` : `${formatComparison(comparison)}\n`,
  );
}
