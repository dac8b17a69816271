// `cli eval triggers | optimize | compare`. triggers: the trigger lab from the command line, progress
// on stderr, the result on stdout (`--json`: {skills, queries, confusion, confounds} as before, then what
// issue 25 added: overall, notes, estimate, spend, stopped, without_skills, comparison); exit 0 even
// when skills miss, since the numbers are the result. The calls and their cost are said on stderr before
// the first one. optimize and compare: eval-optimize.ts.
import path from "node:path";
import { PlaygroundError } from "../errors/index.ts";
import { VERDICT_LABELS } from "../eval/compare.ts";
import { labWorkspaceOf, runTriggerLab, type LabWorkspace } from "../eval/lab.ts";
import {
  loadTriggersFile,
  DEFAULT_EVAL_PATH,
  type TriggerAblation,
  type TriggerEvalFile,
} from "../eval/triggers-file.ts";
import type { ListingBudget } from "../prompt/stable-system.ts";
import type {
  CatalogBudgetReport,
  CostEstimate,
  LabComparison,
  SpendCaps,
  TriggerLabProgress,
  TriggerLabResult,
  TriggerLabSummary,
} from "../protocol/trigger-lab.ts";
import { describeBudget } from "../prompt/catalog-budget.ts";
import {
  createProvider,
  loadProvidersConfig,
  loadScenarios,
  RouterProvider,
  ScriptedProvider,
} from "../providers/index.ts";
import type { Provider } from "../providers/types.ts";
import type { SecretRedactor } from "../providers/redact.ts";
import type { Workspace } from "../session/workspace.ts";
import type { CliArguments } from "./args.ts";

export interface EvalTriggersOptions {
  evals?: string;
  /** The skill a skill-creator JSON eval file tests. */
  skill?: string;
  provider: string;
  model?: string;
  baseUrl?: string;
  scenario?: string;
  runs: number;
  concurrency: number;
  ablation?: TriggerAblation;
  withoutSkills?: boolean;
  caps?: SpendCaps;
  /** Print the calls and their cost, send nothing. */
  estimateOnly?: boolean;
  listingBudget?: ListingBudget;
  /** The environment a real provider's key and endpoint are read from (the CLI's `io.env`). */
  providerEnv?: Readonly<Record<string, string | undefined>>;
  /** The command's provider keys (the configured keys join them; a real provider redacts with them). */
  secrets?: SecretRedactor;
  json: boolean;
  write: (text: string) => void;
  writeProgress: (text: string) => void;
  /** Whether stderr is a terminal (a redrawn bar) or not (a line every tenth). */
  progressIsTerminal: boolean;
}

const summaryJson = (summary: TriggerLabSummary) => ({
  skills: summary.skills.map(({ name, precision, recall, triggerRate, probes, falsePositiveRate }) => ({
    name,
    precision,
    recall,
    triggerRate,
    probes,
    ...(falsePositiveRate !== undefined ? { falsePositiveRate } : {}),
  })),
  queries: summary.queries.map(
    ({ query, expect, kind, passRate, probes, avoid, triggerRate, runs, checksPassRate, passed }) => ({
      query,
      expect,
      kind,
      passRate,
      probes: probes.map(({ first, loaded, outcome, checks }) => ({
        first,
        loaded,
        outcome,
        ...(checks ? { checks } : {}),
      })),
      ...(avoid ? { avoid } : {}),
      ...(runs !== undefined ? { runs } : {}),
      ...(triggerRate !== undefined ? { triggerRate, passed } : {}),
      ...(checksPassRate !== undefined ? { checksPassRate } : {}),
    }),
  ),
  confusion: summary.confusion,
  confounds: summary.confounds,
  ...(summary.overall ? { overall: summary.overall } : {}),
});

/** `--json`'s document for one side of the lab. */
export function labJson(summary: TriggerLabSummary) {
  return summaryJson(summary);
}

/** `--json`'s whole document: side A, then the ablation, the arm without skills and the lab's own facts. */
export function labResultJson(result: TriggerLabResult) {
  return {
    ...labJson(result.a),
    ...(result.b && result.info.ablation
      ? { ablation: { ...result.info.ablation, ...labJson(result.b) } }
      : {}),
    ...(result.none ? { without_skills: labJson(result.none) } : {}),
    ...(result.notes ? { notes: result.notes } : {}),
    ...(result.estimate ? { estimate: result.estimate } : {}),
    ...(result.spend ? { spend: result.spend } : {}),
    ...(result.stopped ? { stopped: result.stopped } : {}),
    ...(result.comparison ? { comparison: result.comparison } : {}),
  };
}

/** A fresh provider per probe for the offline models (they keep per-conversation state), else one. */
export async function probeFactory(
  options: {
    provider: string;
    model?: string;
    baseUrl?: string;
    scenario?: string;
    providerEnv?: EvalIo["env"];
    secrets?: SecretRedactor;
  },
  evals: TriggerEvalFile,
): Promise<() => Provider | Promise<Provider>> {
  if (options.provider === "manual") {
    throw new PlaygroundError(
      "invalid_arguments",
      "eval cannot use the manual provider from the command line: every probe would wait for a person",
    );
  }
  if (options.provider === "router") {
    const scenarios = options.scenario ? await loadScenarios(path.resolve(options.scenario)) : [];
    return () => new RouterProvider({ scenarios });
  }
  if (options.provider === "scripted") {
    const scenario = options.scenario ? path.resolve(options.scenario) : evals.scenarios;
    if (!scenario) {
      throw new PlaygroundError(
        "invalid_arguments",
        `the scripted provider needs scenarios: add "scenarios: FOLDER" to ${evals.file} or pass --scenario FILE`,
      );
    }
    const scenarios = await loadScenarios(scenario);
    const model = options.model;
    return () =>
      new ScriptedProvider(scenarios.length === 1 ? scenarios[0] : scenarios, model ? { model } : {});
  }
  const provider = await createProvider({
    name: options.provider,
    ...(options.model ? { model: options.model } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    config: loadProvidersConfig({
      ...(options.providerEnv ? { env: { ...options.providerEnv } } : {}),
      ...(options.secrets ? { secrets: options.secrets } : {}),
    }),
    ...(options.secrets ? { secrets: options.secrets } : {}),
  });
  return () => provider;
}

/** The lab's view of a CLI workspace. */
export const labWorkspace = (workspace: Workspace): LabWorkspace => labWorkspaceOf(workspace);

/** The catalog budget report as text (`catalog --catalog-budget`). */
export function formatBudget(report: CatalogBudgetReport): string {
  const lines = [`\n${describeBudget(report)}`, "(a prediction from the client's published rules)"];
  for (const entry of report.entries) {
    const status = entry.listed ? entry.status : "not listed";
    lines.push(
      `  ${status.padEnd(10)} ${entry.name} (${entry.shownChars}/${entry.descriptionChars} chars)${entry.reason ? ` — ${entry.reason}` : ""}`,
    );
  }
  lines.push(`sources: ${report.sources.join("; ")}`);
  return lines.join("\n");
}

const percent = (value: number | null | undefined) =>
  value === null || value === undefined ? "  —  " : `${(value * 100).toFixed(0).padStart(3)}%`;

/** "48 model calls, estimated $0.0123 (basis)" — said before the first call. */
export function formatEstimate(estimate: CostEstimate, caps?: SpendCaps): string {
  const usd =
    estimate.usd === null
      ? "cost unknown"
      : estimate.usd === 0
        ? "$0"
        : `estimated $${estimate.usd.toFixed(4)}`;
  const capText = [
    caps?.maxCalls !== undefined ? `--max-calls ${caps.maxCalls}` : "",
    caps?.maxUsd !== undefined ? `--max-usd ${caps.maxUsd}` : "",
  ].filter(Boolean);
  return `plan: ${estimate.calls} model call(s), ~${estimate.inputTokensPerCall} input tokens each, ${usd} (${estimate.basis})${capText.length > 0 ? `; caps: ${capText.join(", ")}` : ""}`;
}

export function formatComparison(comparison: LabComparison): string {
  const counts = Object.entries(comparison.counts)
    .filter(([, count]) => count > 0)
    .map(([verdict, count]) => `${VERDICT_LABELS[verdict as keyof typeof VERDICT_LABELS]} ${count}`)
    .join(", ");
  const lines = [`against ${comparison.before.labId} (${comparison.before.startedAt}): ${counts}`];
  for (const query of comparison.queries) {
    if (query.verdict === "still_passing") continue;
    lines.push(`  ${VERDICT_LABELS[query.verdict].padEnd(13)} ${query.expect.padEnd(15)} ${query.query}`);
  }
  return lines.join("\n");
}

export function formatLab(result: TriggerLabResult): string {
  const side = (title: string, summary: TriggerLabSummary) => {
    const lines = [`${title}`, "skill                     precision  recall  trigger  FP rate  probes"];
    for (const skill of summary.skills) {
      lines.push(
        `${skill.name.padEnd(25)} ${percent(skill.precision).padStart(9)}  ${percent(skill.recall).padStart(6)}  ${percent(skill.triggerRate).padStart(7)}  ${percent(skill.falsePositiveRate).padStart(7)}  ${String(skill.probes).padStart(6)}`,
      );
    }
    lines.push("", "verdict  trigger  pass  expect          kind        query");
    for (const query of summary.queries) {
      const verdict =
        query.runs === 0 ? "NOT RUN" : query.passed === undefined ? "" : query.passed ? "PASS" : "FAIL";
      const checks =
        query.checksPassRate === undefined ? "" : `  [checks ${percent(query.checksPassRate).trim()}]`;
      lines.push(
        `${verdict.padEnd(8)} ${percent(query.triggerRate).padStart(7)} ${percent(query.runs === 0 ? null : query.passRate)} ${(query.avoid ? `not ${query.avoid}` : query.expect).padEnd(15)} ${query.kind.padEnd(11)} ${query.query}${checks}`,
      );
    }
    const overall = summary.overall;
    if (overall) {
      lines.push(
        "",
        `over runs: precision ${percent(overall.precision).trim()}, recall ${percent(overall.recall).trim()}, false-positive rate ${percent(overall.falsePositiveRate).trim()}, accuracy ${percent(overall.accuracy).trim()}; ${overall.queriesPassed}/${overall.queries} queries pass at 0.5`,
      );
    }
    const confounds = Object.entries(summary.confounds)
      .map(([name, count]) => `${name} ${count}`)
      .join(", ");
    lines.push("", `confounds: ${confounds}`);
    return lines.join("\n");
  };
  const parts = [
    `trigger lab: ${result.info.provider} / ${result.info.model}, ${result.info.runs} run(s) per query, concurrency ${result.info.concurrency}`,
    side(result.b || result.none ? "A (descriptions as they are)" : "results", result.a),
  ];
  if (result.b && result.info.ablation) {
    parts.push(side(`B (${result.info.ablation.skill}'s description replaced)`, result.b));
  }
  if (result.none) parts.push(side("without skills (empty index)", result.none));
  for (const note of result.notes ?? []) parts.push(`note: ${note}`);
  if (result.spend) {
    parts.push(
      `spent: ${result.spend.calls} call(s), $${result.spend.usd.toFixed(4)}${result.spend.estimatedCalls > 0 ? ` (${result.spend.estimatedCalls} priced at the estimate: no usage reported)` : ""}`,
    );
  }
  if (result.stopped) parts.push(`stopped: ${result.stopped}`);
  if (result.comparison) parts.push(formatComparison(result.comparison));
  if (result.files) parts.push(`saved: ${result.files.jsonl}\n       ${result.files.summary}`);
  if (result.saveError) parts.push(`not saved: ${result.saveError}`);
  return parts.join("\n\n");
}

export function progressPrinter(options: {
  writeProgress: (text: string) => void;
  progressIsTerminal: boolean;
}): (progress: { done: number; total: number }) => void {
  let lastTenth = -1;
  return ({ done, total }) => {
    if (options.progressIsTerminal) {
      const width = 30;
      const filled = Math.round((done / total) * width);
      options.writeProgress(`\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} probes`);
      if (done === total) options.writeProgress("\n");
      return;
    }
    const tenth = Math.floor((done / total) * 10);
    if (tenth !== lastTenth || done === total) {
      lastTenth = tenth;
      options.writeProgress(`probes ${done}/${total}\n`);
    }
  };
}

export async function evalTriggers(workspace: Workspace, options: EvalTriggersOptions): Promise<void> {
  const evalFile = path.resolve(options.evals ?? path.join(workspace.workdir, DEFAULT_EVAL_PATH));
  const evals = await loadTriggersFile(evalFile, options.skill ? { skill: options.skill } : {});
  const factory = await probeFactory(options, evals);
  const progress: (progress: TriggerLabProgress) => void = progressPrinter(options);
  const result = await runTriggerLab({
    evals,
    workspace: labWorkspace(workspace),
    createProvider: factory,
    runs: options.runs,
    concurrency: options.concurrency,
    ...(options.ablation ? { ablation: options.ablation } : {}),
    ...(options.withoutSkills ? { withoutSkills: true } : {}),
    ...(options.caps ? { caps: options.caps } : {}),
    ...(options.estimateOnly ? { estimateOnly: true } : {}),
    ...(options.listingBudget ? { listingBudget: options.listingBudget } : {}),
    onStarted: (_info, _total, estimate) =>
      options.writeProgress(`${formatEstimate(estimate, options.caps)}\n`),
    onProgress: options.estimateOnly ? undefined : progress,
  });
  if (options.estimateOnly) {
    if (options.json) options.write(`${JSON.stringify({ estimate: result.estimate }, null, 2)}\n`);
    return;
  }
  if (result.saveError) options.writeProgress(`warning: ${result.saveError}\n`);
  if (result.stopped) options.writeProgress(`stopped: ${result.stopped}\n`);
  options.write(
    options.json ? `${JSON.stringify(labResultJson(result), null, 2)}\n` : `${formatLab(result)}\n`,
  );
}

export interface EvalIo {
  write: (text: string) => void;
  writeProgress: (text: string) => void;
  progressIsTerminal: boolean;
  /** The environment the provider keys and endpoints are read from (the CLI's `io.env`). */
  env: Readonly<Record<string, string | undefined>>;
}

/** `eval triggers` and `eval optimize` (compare needs no workspace: eval-optimize.ts's evalCompare). */
export async function evalCommand(workspace: Workspace, args: CliArguments, io: EvalIo): Promise<void> {
  const { env, ...printing } = io;
  const more = args.evalMore;
  const caps: SpendCaps = {
    ...(more?.maxCalls !== undefined ? { maxCalls: more.maxCalls } : {}),
    ...(more?.maxUsd !== undefined ? { maxUsd: more.maxUsd } : {}),
  };
  const common = {
    ...(args.evals ? { evals: args.evals } : {}),
    provider: args.provider,
    ...(args.model ? { model: args.model } : {}),
    ...(args.baseUrl ? { baseUrl: args.baseUrl } : {}),
    ...(args.scenario ? { scenario: args.scenario } : {}),
    runs: args.runs,
    concurrency: args.concurrency,
    ...(Object.keys(caps).length > 0 ? { caps } : {}),
    providerEnv: env,
    secrets: workspace.secrets.redactor,
    json: args.json,
    ...printing,
  };
  if (more?.subcommand === "optimize") {
    // Loaded only for optimize, so the other commands start no slower.
    const { evalOptimize } = await import("./eval-optimize.ts");
    await evalOptimize(workspace, { ...more, ...common, skill: more.skill! });
    return;
  }
  await evalTriggers(workspace, {
    ...common,
    ...(more?.skill ? { skill: more.skill } : {}),
    ...(more?.withoutSkills ? { withoutSkills: true } : {}),
    ...(more?.estimate ? { estimateOnly: true } : {}),
    ...(args.ablate ? { ablation: args.ablate } : {}),
    ...(args.catalogBudget ? { listingBudget: args.catalogBudget } : {}),
  });
}
