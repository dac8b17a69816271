// `npm run bench [-- --quick] [-- --only NAME]`: runs every figure, prints the table and writes
// bench/results.json. Each figure module is imported lazily, so a module that cannot load (its server
// code missing or broken) becomes a "not measured: <why>" row instead of stopping the whole run.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { machineFacts, notMeasured, type Figure, type FigureRow } from "./harness.ts";
import { formatMarkdownTable, formatTable } from "./format-table.ts";
import { formatProfile, profileFigure } from "./profile-figure.ts";

interface FigureEntry {
  name: string;
  workload: string;
  target: string;
  load: () => Promise<Figure>;
}

const FIGURES: FigureEntry[] = [
  {
    name: "catalog-load",
    workload: "1,000 SKILL.md over 3 layers, 200 tools.json, 50 shadowed",
    target: "≤ 2.0× bare readFile",
    load: () => importFigure("./catalog-load.ts", "catalogLoadFigure"),
  },
  {
    name: "catalog-reload",
    workload: "one SKILL.md changed in the 1,000-skill catalog",
    target: "report (vs full load)",
    load: () => importFigure("./catalog-reload.ts", "catalogReloadFigure"),
  },
  {
    name: "prompt-economy",
    workload: "stable system tokens (o200k_base) for 10, 100, 1,000 skills",
    target: "index cost/skill ≤ tokens(name)+tokens(description)+8",
    load: () => importFigure("./prompt-economy.ts", "promptEconomyFigure"),
  },
  {
    name: "cache-economy",
    workload:
      "every demo scenario: billed-equivalent input tokens under 8 cache placements (claude-sonnet-4-5)",
    target: "report (stable + rolling vs stable only)",
    load: () => importFigure("./cache-economy.ts", "cacheEconomyFigure"),
  },
  {
    name: "runner-overhead",
    workload: "100 iterations, scripted provider, 1,000 skills, 20 active",
    target: "≤ 0.3 ms per iteration added",
    load: () => importFigure("./runner-overhead.ts", "runnerOverheadFigure"),
  },
  {
    name: "permission-evaluate",
    workload: "PermissionEngine.evaluate of run_command lines: ordinary, and the worst 30 KB line",
    target: "report (µs per evaluate; adversarial vs ordinary)",
    load: () => importFigure("./permission-evaluate.ts", "permissionEvaluateFigure"),
  },
  {
    name: "skill-tool-call",
    workload: "trivial tool via registry + permission + process runner",
    target: "≤ 1.2× bare child_process.spawn",
    load: () => importFigure("./skill-tool-call-figure.ts", "skillToolCallFigure"),
  },
  {
    name: "mcp-call",
    workload: "mcp__everything__echo via registry + permission + MCP client vs the SDK's Client",
    target: "report (median ratio, same run)",
    load: () => importFigure("./mcp-call.ts", "mcpCallFigure"),
  },
  {
    name: "ws-stream",
    workload: "10,000 text deltas server → ws client (loopback)",
    target: "report msgs/s and ratio vs raw socket",
    load: () => importFigure("./ws-stream.ts", "wsStreamFigure"),
  },
  {
    name: "browser-stream",
    workload: "10,000 text deltas rendered in Chromium (real pages)",
    target: "≤ 1 s, no main-thread task > 50 ms",
    load: () => importFigure("./browser-stream.ts", "browserStreamFigure"),
  },
  {
    name: "trigger-lab",
    workload: "20 queries × 4 probes, --concurrency 8, local OpenAI-format server (50 ms answers)",
    target: "report probes/s and overhead per probe",
    load: () => importFigure("./trigger-lab.ts", "triggerLabFigure"),
  },
  {
    name: "description-router",
    workload: "one request against a 1,000-skill index: description router vs scripted model",
    target: "report (ms per request, ratio)",
    load: () => importFigure("./description-router.ts", "descriptionRouterFigure"),
  },
  {
    name: "inspector-select",
    workload: "open a 500-request session from its log, then select requests in it (Chromium, real pages)",
    target: "open ≤ 500 ms; select ≤ 30 ms",
    load: () => importFigure("./inspector-select.ts", "inspectorSelectFigure"),
  },
  {
    name: "page-weight",
    workload: "first-load JS of the workspace page (out/index.html), gzipped",
    target: "≤ 160 KB gz",
    load: () => importFigure("./page-weight.ts", "pageWeightFigure"),
  },
  {
    name: "request-bytes",
    workload: "log and wire bytes per request: the 30-request demo and a 500-request session",
    target: "≥ 15× smaller than full snapshots (30-request demo)",
    load: () => importFigure("./request-bytes.ts", "requestBytesFigure"),
  },
  {
    name: "export-html",
    workload: "HTML export of a 200-request session (40 runs × 5 requests, scripted)",
    target: "report file size",
    load: () => importFigure("./export-html.ts", "exportHtmlFigure"),
  },
  {
    name: "start-time",
    workload:
      "launch → printed URL: npm start (pages built; bundle cached, and bundle rebuilt) and the installed bin",
    target: "npm start ≤ 1.5 s, installed bin ≤ 2 s (median of 5)",
    load: () => importFigure("./start-time.ts", "startTimeFigure"),
  },
  {
    name: "memory",
    workload: "50 sessions × 200 messages held by the server",
    target: "report RSS per session",
    load: () => importFigure("./memory.ts", "memoryFigure"),
  },
];

/** Imports a figure module only when that figure runs, so `--only NAME` loads just the one it measures. */
async function importFigure(specifier: string, exportName: string): Promise<Figure> {
  const loaded = (await import(new URL(specifier, import.meta.url).href)) as Record<string, unknown>;
  const figure = loaded[exportName];
  if (typeof figure !== "object" || figure === null || typeof (figure as Figure).run !== "function") {
    throw new Error(`${specifier} does not export a figure named ${exportName}`);
  }
  return figure as Figure;
}

interface Arguments {
  quick: boolean;
  only: string | null;
  output: string;
  profile: boolean;
}

function parseArguments(argv: string[]): Arguments {
  const parsed: Arguments = { quick: false, only: null, output: "", profile: false };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    if (argument === "--quick") parsed.quick = true;
    else if (argument === "--only") parsed.only = argv[++index] ?? null;
    else if (argument.startsWith("--only=")) parsed.only = argument.slice("--only=".length);
    else if (argument === "--profile") parsed.profile = true;
    else if (argument === "--output") parsed.output = path.resolve(argv[++index] ?? parsed.output);
    else if (argument === "--list") {
      for (const figure of FIGURES) console.log(`${figure.name.padEnd(16)} ${figure.workload}`);
      process.exit(0);
    } else {
      console.error(
        `unknown argument "${argument}"; use --quick, --only NAME, --profile, --output FILE or --list`,
      );
      process.exit(2);
    }
  }
  // Only a full run of every figure replaces the committed bench/results.json; --quick and --only write a
  // scratch file (gitignored) so a quick check never overwrites the real figures.
  if (parsed.output === "") {
    const benchDir = path.dirname(fileURLToPath(import.meta.url));
    parsed.output = path.join(
      benchDir,
      parsed.quick || parsed.only !== null ? "results.tmp.json" : "results.json",
    );
  }
  if (parsed.only !== null && !FIGURES.some((figure) => figure.name === parsed.only)) {
    console.error(
      `unknown figure "${parsed.only}"; known: ${FIGURES.map((figure) => figure.name).join(", ")}`,
    );
    process.exit(2);
  }
  return parsed;
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.message.split("\n")[0];
  return String(error);
}

async function runFigure(
  entry: FigureEntry,
  quick: boolean,
): Promise<{ rows: FigureRow[]; figure?: Figure }> {
  let figure: Figure;
  try {
    figure = await entry.load();
  } catch (error) {
    return { rows: [notMeasured(entry, `module did not load (${describeError(error)})`)] };
  }
  try {
    return { rows: await figure.run({ quick }), figure };
  } catch (error) {
    if (process.env.BENCH_DEBUG) console.error(error);
    return { rows: [notMeasured(entry, `run failed (${describeError(error)})`)] };
  }
}

async function main(): Promise<void> {
  const options = parseArguments(process.argv.slice(2));
  const machine = machineFacts();
  console.log(
    `machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, node ${machine.node}, load ${machine.loadAverage.join(" ")}`,
  );
  if (options.quick)
    console.log(
      "--quick: fewer repetitions and smaller workloads than the issue asks; figures are indicative only.",
    );
  const started = performance.now();
  const rows: FigureRow[] = [];
  const timings: Record<string, number> = {};
  const missed: { figure: Figure; rows: FigureRow[] }[] = [];
  for (const entry of FIGURES) {
    if (options.only !== null && entry.name !== options.only) continue;
    const figureStarted = performance.now();
    process.stdout.write(`running ${entry.name}… `);
    const outcome = await runFigure(entry, options.quick);
    timings[entry.name] = Math.round(performance.now() - figureStarted);
    console.log(`${(timings[entry.name] / 1000).toFixed(1)} s`);
    rows.push(...outcome.rows);
    if (outcome.figure && outcome.rows.some((row) => row.status === "miss"))
      missed.push({ figure: outcome.figure, rows: outcome.rows });
  }
  const profiles: string[] = [];
  if (options.profile) {
    // Profiled with the --quick workload: the shape of the profile is what matters, and it keeps the
    // extra run short. The table keeps the unprofiled numbers.
    for (const { figure, rows: figureRows } of missed) {
      process.stdout.write(`profiling ${figure.name} (missed its target; --quick workload)… `);
      const profile = await profileFigure(figure, true);
      console.log("done");
      profiles.push(formatProfile(figure.name, profile));
      figureRows[0].details = { ...figureRows[0].details, profile };
    }
  }
  const totalSeconds = (performance.now() - started) / 1000;
  console.log("");
  console.log(formatTable(rows));
  for (const profile of profiles) console.log(`\n${profile}`);
  if (!options.profile && missed.length > 0)
    console.log("\n(run with --profile to see where the missed figures spend their time)");
  console.log(`\ntotal ${totalSeconds.toFixed(1)} s${options.quick ? " (--quick)" : ""}`);

  const results = {
    takenAt: new Date().toISOString(),
    quick: options.quick,
    only: options.only,
    machine,
    loadAverageAtEnd: machineFacts().loadAverage,
    totalSeconds: Math.round(totalSeconds * 10) / 10,
    figureSeconds: timings,
    rows,
  };
  await writeFile(options.output, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), options.output) || options.output}`);
  if (!options.quick && options.only === null) {
    // The same figures as Markdown, ready for the README's Performance section.
    const markdownPath = options.output.replace(/\.json$/, ".md");
    const notes = rows.filter((row) => row.note).map((row) => `- **${row.figure}**: ${row.note}`);
    const markdown = [
      `Taken ${results.takenAt} on ${machine.cpuModel} (${machine.cores} cores, ${machine.memoryGiB} GiB), node ${machine.node}, load average ${machine.loadAverage.join(" ")} at start.`,
      "",
      formatMarkdownTable(rows),
      "",
      ...notes,
      "",
      ...(profiles.length > 0
        ? [
            "Where the missed figures spend their time (`--profile`, --quick workload):",
            "",
            "```text",
            ...profiles,
            "```",
            "",
          ]
        : []),
    ].join("\n");
    await writeFile(markdownPath, markdown);
    console.log(`wrote ${path.relative(process.cwd(), markdownPath) || markdownPath}`);
  }
}

await main();
