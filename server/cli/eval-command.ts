// `cli eval triggers`: the trigger lab from the command line. Progress on stderr, the result on stdout
// (`--json`: exactly {skills, queries, confusion, confounds}); exit 0 even when skills miss, since the
// numbers are the result.
import path from "node:path";
import { PlaygroundError } from "../errors/index.ts";
import { runTriggerLab } from "../eval/lab.ts";
import { loadTriggersFile, DEFAULT_EVAL_PATH, type TriggerAblation } from "../eval/triggers-file.ts";
import type { ListingBudget } from "../prompt/stable-system.ts";
import type {
  CatalogBudgetReport,
  TriggerLabProgress,
  TriggerLabResult,
  TriggerLabSummary,
} from "../protocol/trigger-lab.ts";
import { describeBudget } from "../prompt/catalog-budget.ts";
import { createProvider, loadScenario, loadScenarioDirectory, ScriptedProvider } from "../providers/index.ts";
import type { Provider } from "../providers/types.ts";
import { stat } from "node:fs/promises";
import type { Workspace } from "../session/workspace.ts";

export interface EvalTriggersOptions {
  evals?: string;
  provider: string;
  model?: string;
  baseUrl?: string;
  scenario?: string;
  runs: number;
  concurrency: number;
  ablation?: TriggerAblation;
  listingBudget?: ListingBudget;
  json: boolean;
  write: (text: string) => void;
  writeProgress: (text: string) => void;
  /** Whether stderr is a terminal (a redrawn bar) or not (a line every tenth). */
  progressIsTerminal: boolean;
}

/** `--json`'s document: exactly the fields the issue names, for one side of the lab. */
export function labJson(summary: TriggerLabSummary) {
  return {
    skills: summary.skills.map(({ name, precision, recall, triggerRate, probes }) => ({
      name,
      precision,
      recall,
      triggerRate,
      probes,
    })),
    queries: summary.queries.map(({ query, expect, kind, passRate, probes }) => ({
      query,
      expect,
      kind,
      passRate,
      probes: probes.map(({ first, loaded, outcome }) => ({ first, loaded, outcome })),
    })),
    confusion: summary.confusion,
    confounds: summary.confounds,
  };
}

async function scriptedFactory(location: string, model?: string): Promise<() => Provider> {
  const isDirectory = (await stat(location).catch(() => null))?.isDirectory() === true;
  const scenarios = isDirectory ? await loadScenarioDirectory(location) : [await loadScenario(location)];
  // A fresh provider per probe: the scripted model keeps per-conversation state.
  return () => new ScriptedProvider(scenarios, model ? { model } : {});
}

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

const percent = (value: number | null) =>
  value === null ? "  —  " : `${(value * 100).toFixed(0).padStart(3)}%`;

export function formatLab(result: TriggerLabResult): string {
  const side = (title: string, summary: TriggerLabSummary) => {
    const lines = [`${title}`, "skill                     precision  recall  trigger  probes"];
    for (const skill of summary.skills) {
      lines.push(
        `${skill.name.padEnd(25)} ${percent(skill.precision).padStart(9)}  ${percent(skill.recall).padStart(6)}  ${percent(skill.triggerRate).padStart(7)}  ${String(skill.probes).padStart(6)}`,
      );
    }
    lines.push("", "pass  expect          kind        query");
    for (const query of summary.queries) {
      lines.push(
        `${percent(query.passRate)} ${query.expect.padEnd(15)} ${query.kind.padEnd(11)} ${query.query}`,
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
    side(result.b ? "A (descriptions as they are)" : "results", result.a),
  ];
  if (result.b && result.info.ablation) {
    parts.push(side(`B (${result.info.ablation.skill}'s description replaced)`, result.b));
  }
  if (result.files) parts.push(`saved: ${result.files.jsonl}\n       ${result.files.summary}`);
  if (result.saveError) parts.push(`not saved: ${result.saveError}`);
  return parts.join("\n\n");
}

function progressPrinter(options: EvalTriggersOptions): (progress: TriggerLabProgress) => void {
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
  const evals = await loadTriggersFile(evalFile);
  let factory: () => Provider | Promise<Provider>;
  if (options.provider === "manual") {
    throw new PlaygroundError(
      "invalid_arguments",
      "eval triggers cannot use the manual provider from the command line: every probe would wait for a person",
    );
  }
  if (options.provider === "scripted") {
    const scenario = options.scenario ? path.resolve(options.scenario) : evals.scenarios;
    if (!scenario) {
      throw new PlaygroundError(
        "invalid_arguments",
        `the scripted provider needs scenarios: add "scenarios: FOLDER" to ${evalFile} or pass --scenario FILE`,
      );
    }
    factory = await scriptedFactory(scenario, options.model);
  } else {
    const provider = await createProvider({
      name: options.provider,
      ...(options.model ? { model: options.model } : {}),
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    });
    factory = () => provider;
  }
  const result = await runTriggerLab({
    evals,
    workspace: {
      catalog: workspace.catalog,
      tools: workspace.registry.definitions(),
      facts: workspace.prompt.environmentFacts(),
      workdir: workspace.workdir,
      home: workspace.home,
    },
    createProvider: factory,
    runs: options.runs,
    concurrency: options.concurrency,
    ...(options.ablation ? { ablation: options.ablation } : {}),
    ...(options.listingBudget ? { listingBudget: options.listingBudget } : {}),
    onProgress: progressPrinter(options),
  });
  if (result.saveError) options.writeProgress(`warning: ${result.saveError}\n`);
  if (options.json) {
    const document = labJson(result.a);
    const ablation =
      result.b && result.info.ablation ? { ablation: { ...result.info.ablation, ...labJson(result.b) } } : {};
    options.write(`${JSON.stringify({ ...document, ...ablation }, null, 2)}\n`);
  } else {
    options.write(`${formatLab(result)}\n`);
  }
}
