// Cache economy: for every demo scenario, the billed-equivalent input tokens of its whole conversation
// (uncached input + 1.25 × cache writes + 0.1 × cache reads, the multipliers of cache-rules.json) under
// {progressive, eager} × {SOPs in the environment, SOPs in the load_skill message} × {stable-only,
// stable + rolling breakpoints}, as the server's cache model predicts them for claude-sonnet-4-5. Each
// scenario runs for real (scripted model, real tools on a temp copy of the demo workdir) once per
// disclosure × placement; its request segments are then replayed through a fresh cache model per
// breakpoint placement (the segments do not depend on it). Deterministic: token counts, not timings.
// The third placement (a mid-conversation system message, and a skill tool added mid-conversation) needs
// a model that accepts it (server/cache/cache-rules.json): its scenarios run as SYSTEM_MODEL, whose
// minimum cacheable prefix (1,024 tokens, the claude-opus-4 row) is MODEL's, and are predicted under
// MODEL's rules like the others. Eager disclosure has every SOP in the stable system already: no rows.
import { cp, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CacheModel } from "../server/cache/cache-model.ts";
import { loadCacheConfig } from "../server/cache/rules-file.ts";
import { jsonEvents, runCli } from "../server/cli/testing/run-cli.ts";
import type { DisclosureMode } from "../server/protocol/model.ts";
import type {
  CacheBreakpoints,
  RequestSnapshot,
  RunnerEvent,
  SkillPlacement,
} from "../server/protocol/runner-events.ts";
import { round, type Figure, type FigureRow } from "./harness.ts";
import { renderCachePlot } from "./cache-plot.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SCENARIOS = path.join(ROOT, "scenarios");
const DEMO = path.join(ROOT, "examples", "demo-workdir");
const BASE = path.join(ROOT, "bench", "cache-economy");
const MODEL = "claude-sonnet-4-5";
/** A model cache-rules.json marks as accepting mid-conversation system messages and tool changes. */
const SYSTEM_MODEL = "claude-opus-4-8";
/** slow-tool waits to be stopped; csv-profile-next-run spans two messages (as in scenarios.test.ts). */
const SKIPPED = new Set(["slow-tool.yaml"]);
const MESSAGES: Record<string, string[]> = {
  "csv-profile-next-run.yaml": ["load the csv skill", "now profile data/sales.csv"],
};

export interface Variant {
  disclosure: DisclosureMode;
  placement: SkillPlacement;
  breakpoints: CacheBreakpoints;
}
export const VARIANTS: Variant[] = [
  ...(["progressive", "eager"] as const).flatMap((disclosure) =>
    (["environment", "message"] as const).flatMap((placement) =>
      (["stable", "rolling"] as const).map((breakpoints) => ({ disclosure, placement, breakpoints })),
    ),
  ),
  ...(["stable", "rolling"] as const).map((breakpoints) => ({
    disclosure: "progressive" as const,
    placement: "system" as const,
    breakpoints,
  })),
];
const placementLabel = { environment: "env", message: "msg", system: "sys" } as const;
export const variantName = (variant: Variant) =>
  `${variant.disclosure}·${placementLabel[variant.placement]}·${variant.breakpoints}`;

export interface ScenarioEconomy {
  scenario: string;
  requests: number;
  /** Billed-equivalent input tokens per variant name. */
  billed: Record<string, number>;
}

async function snapshots(file: string, disclosure: DisclosureMode, placement: SkillPlacement) {
  const scratch = await mkdtemp(path.join(os.tmpdir(), "cache-economy-"));
  try {
    const workdir = path.join(scratch, "workdir");
    await cp(DEMO, workdir, { recursive: true });
    const result = await runCli([
      "run",
      "--workdir",
      workdir,
      "--home",
      path.join(scratch, "home"),
      "--scenario",
      path.join(SCENARIOS, file),
      ...(MESSAGES[file] ?? []).flatMap((message) => ["--message", message]),
      "--yes",
      // The demo copy is trusted, as the page trusts its own copy: mcp-tickets needs the project's server.
      "--trust",
      "--json",
      ...(disclosure === "eager" ? ["--eager"] : []),
      "--cache-model",
      placement === "system" ? SYSTEM_MODEL : MODEL,
      "--cache-breakpoints",
      "stable",
      "--skill-placement",
      placement,
    ]);
    if (result.code !== 0) throw new Error(`cli run ${file} failed (${result.code}): ${result.stderr}`);
    return jsonEvents(result.stdout).flatMap((event) => (event.type === "request" ? [event.snapshot] : []));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

export async function cacheEconomy(): Promise<ScenarioEconomy[]> {
  const config = loadCacheConfig({ env: {} });
  const write = config.rules.anthropic.writeMultiplier.value["5m"];
  const read = config.rules.anthropic.readMultiplier.value;
  const files = (await readdir(SCENARIOS))
    .filter((file) => file.endsWith(".yaml") && !SKIPPED.has(file))
    .sort();
  const results: ScenarioEconomy[] = [];
  for (const file of files) {
    const billed: Record<string, number> = {};
    let requests = 0;
    const runs = new Set(VARIANTS.map((variant) => `${variant.disclosure}:${variant.placement}`));
    for (const run of runs) {
      const [disclosure, placement] = run.split(":") as [DisclosureMode, SkillPlacement];
      const snaps = await snapshots(file, disclosure, placement);
      requests = snaps.length;
      for (const breakpoints of ["stable", "rolling"] as const) {
        const model = new CacheModel(config.rules, config.prices);
        let total = 0;
        for (const snapshot of snaps) {
          const { predicted } = model.predict({
            requestIndex: snapshot.requestIndex,
            runId: snapshot.runId,
            at: snapshot.at,
            segments: snapshot.segments ?? [],
            model: MODEL,
            breakpoints,
            registeredNotVisible: snapshot.registeredNotVisible,
          });
          total +=
            predicted.inputTokens +
            write * predicted.cacheCreationInputTokens +
            read * predicted.cacheReadInputTokens;
        }
        billed[variantName({ disclosure, placement, breakpoints })] = Math.round(total);
      }
    }
    results.push({ scenario: file.replace(/\.yaml$/, ""), requests, billed });
  }
  return results;
}

export function economyMarkdown(results: readonly ScenarioEconomy[]): string {
  const names = VARIANTS.map(variantName);
  const totals = names.map((name) => results.reduce((sum, result) => sum + result.billed[name], 0));
  const lines = [
    `Billed-equivalent input tokens (input + 1.25 × cache write + 0.1 × cache read), predicted by the cache model for ${MODEL} (o200k_base counts, server/cache/cache-rules.json). Columns: disclosure · SOP placement (env: the environment; msg: the load_skill result; sys: a mid-conversation system message, with skill tools added mid-conversation, run as ${SYSTEM_MODEL}, which accepts both) · breakpoints.`,
    "",
    `| scenario | requests | ${names.join(" | ")} |`,
    `|---|---|${names.map(() => "---").join("|")}|`,
    ...results.map(
      (result) =>
        `| ${result.scenario} | ${result.requests} | ${names.map((name) => result.billed[name].toLocaleString("en-US")).join(" | ")} |`,
    ),
    `| **all** | ${results.reduce((sum, result) => sum + result.requests, 0)} | ${totals.map((total) => `**${total.toLocaleString("en-US")}**`).join(" | ")} |`,
  ];
  return `${lines.join("\n")}\n`;
}

export const cacheEconomyFigure: Figure = {
  name: "cache-economy",
  workload: "every demo scenario, billed-equivalent input tokens, 10 cache placements, claude-sonnet-4-5",
  target: "report (stable + rolling vs stable only)",
  async run({ quick }): Promise<FigureRow[]> {
    const results = await cacheEconomy();
    await writeFile(`${BASE}.md`, economyMarkdown(results));
    let plotNote = "";
    if (!quick) {
      const plot = await renderCachePlot(results, BASE);
      plotNote = `; plot: ${path.relative(process.cwd(), plot.png)}`;
    }
    const subject = "progressive·env·rolling";
    const baseline = "progressive·env·stable";
    const sum = (name: string) => results.reduce((total, result) => total + result.billed[name], 0);
    const best = VARIANTS.map(variantName).sort((a, b) => sum(a) - sum(b))[0];
    return [
      {
        figure: "cache-economy",
        workload: `${results.length} demo scenarios, progressive · SOPs in environment: stable + rolling vs stable only`,
        unit: "billed tokens",
        median: sum(subject),
        baselineMedian: sum(baseline),
        ratio: round(sum(subject) / sum(baseline), 3),
        target: "report",
        status: "report",
        note: `cheapest of the ${VARIANTS.length} placements: ${best} (${sum(best).toLocaleString("en-US")}); table: bench/cache-economy.md${plotNote}`,
        details: {
          model: MODEL,
          totals: Object.fromEntries(VARIANTS.map(variantName).map((name) => [name, sum(name)])),
          scenarios: results,
        },
      },
    ];
  },
};
