// The README's figures (and docs/*.md's), from the CLI's own output. Each figure quoted sits between
// `<!-- fig:NAME -->` and `<!-- /fig -->`; this script runs the CLI (`prompt --json`, `prompt`, `run --json`)
// on examples/demo-workdir and computes every named figure. `--write` rewrites the marked spans
// (`npm run readme:figures`); without it, it prints what differs and exits 1. scripts/readme-figures.test.ts
// fails whenever a span and the CLI disagree, so a change to the prompt, a skill or the demo tells you to
// run the one command.
//
// A loaded skill's SOP names its base directory, and the environment the working directory, so some
// figures depend on where the repository is checked out. The CLI therefore runs in a mount namespace
// (bubblewrap, which the sandbox needs anyway) where the repository is at /opt/pseudoclaude-playground:
// the figures are the same in every checkout. Figures that still name a path say "about".
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { PromptReport } from "../server/cli/prompt-command.ts";
import type { RunnerEvent } from "../server/protocol/runner-events.ts";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("..", import.meta.url));
/** The pages whose figures are marked: the README and docs/*.md. */
export async function figurePages(): Promise<string[]> {
  const docs = (await readdir(path.join(repoRoot, "docs"))).filter((name) => name.endsWith(".md")).sort();
  return [path.join(repoRoot, "README.md"), ...docs.map((name) => path.join(repoRoot, "docs", name))];
}
/** Where the repository is mounted while the CLI runs (see above). */
export const CANONICAL_ROOT = "/opt/pseudoclaude-playground";
const DEMO = "examples/demo-workdir";

/** `1651` → `1,651`, as the README writes numbers. */
const grouped = (value: number) => value.toLocaleString("en-US");
/** For figures that name an install path: to the nearest ten, after "about". */
const aboutTens = (value: number) => grouped(Math.round(value / 10) * 10);

async function cli(home: string, args: string[]): Promise<string> {
  const bwrap = process.env.PSEUDOCLAUDE_BWRAP || "bwrap";
  const { stdout } = await run(
    bwrap,
    [
      ...["--dev-bind", "/", "/", "--tmpfs", path.dirname(CANONICAL_ROOT)],
      ...["--bind", repoRoot, CANONICAL_ROOT, "--chdir", CANONICAL_ROOT],
      ...[process.execPath, "--import", "tsx", "server/cli.ts", ...args, "--home", home],
    ],
    { maxBuffer: 64 << 20, env: { ...process.env, NO_COLOR: "1" } },
  ).catch((error: unknown) => {
    throw new Error(
      `readme-figures runs the CLI under bubblewrap (${bwrap}) so its figures do not depend on the checkout's path: ${String(error)}`,
    );
  });
  return stdout;
}

/** Cuts a long line at a word boundary, as an excerpt shows it. */
function cut(line: string, width = 140): string {
  if (line.length <= width + 10) return line;
  return `${line.slice(0, line.lastIndexOf(" ", width))} …`;
}

/** Lines of `cli prompt` the README's excerpt shows, in order; a gap between them becomes "…". */
const EXCERPT_LINES: RegExp[] = [
  /^===== system\.stable/,
  /^You are PseudoClaude/,
  /^# Skills$/,
  /^Skills are standard operating procedures/,
  /^Available skills:$/,
  /^- (add-report|csv-report|review): /,
  /^How to use a skill:$/,
  /^1\. When a skill fits/,
  /^2\. Its SOP then appears/,
  /^===== system\.environment/,
  /^# Environment$/,
  /^- (PseudoClaude Playground version|Provider|Model|Working directory|Platform): /,
  /^## Active Skills$/,
  // An active skill is one delimited block (server/prompt): its opening tag, its body, its closing tag.
  /^<skill name="csv-report" /,
  /^# CSV report$/,
  /^Target file: /,
  /^Write a report a busy reader can trust/,
  /^rows you actually read/,
  /^Skill base directory: /,
  /^Files in this skill/,
  /^- [\w./-]+ \([\d.]+ [KM]?i?B\)$/,
  /^<\/skill>$/,
];

function excerpt(text: string): string {
  const lines = text.split("\n");
  const out: string[] = [];
  let skipped = false;
  for (const [index, line] of lines.entries()) {
    const kept = EXCERPT_LINES.some((pattern) => pattern.test(line));
    const blankBetween =
      line === "" && out.length > 0 && out.at(-1) !== "" && !skipped && index + 1 < lines.length;
    if (kept) {
      if (skipped && out.at(-1) !== "…") out.push("…");
      skipped = false;
      out.push(cut(line));
    } else if (blankBetween && EXCERPT_LINES.some((pattern) => pattern.test(lines[index + 1] ?? ""))) {
      out.push("");
    } else if (line !== "" && out.length > 0) skipped = true;
  }
  if (skipped) out.push("…");
  return ["```", ...out.filter((line, index) => !(line === "" && out[index - 1] === "…")), "```"].join("\n");
}

function requests(jsonLines: string): Extract<RunnerEvent, { type: "request" }>["snapshot"][] {
  return jsonLines
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as RunnerEvent)
    .flatMap((event) => (event.type === "request" ? [event.snapshot] : []));
}

/** Every figure the README may quote, by name, as the README writes it. */
export async function computeFigures(): Promise<Map<string, string>> {
  const home = await mkdtemp(path.join(os.tmpdir(), "readme-figures-home-"));
  try {
    const bare = JSON.parse(await cli(home, ["prompt", "--workdir", DEMO, "--json"])) as PromptReport;
    const loaded = JSON.parse(
      await cli(home, ["prompt", "--workdir", DEMO, "--load", "csv-report", "--json"]),
    ) as PromptReport;
    const text = await cli(home, ["prompt", "--workdir", DEMO, "--load", "csv-report:data/sales.csv"]);
    const nextRun = requests(
      await cli(home, [
        "run",
        "--workdir",
        DEMO,
        "--scenario",
        "scenarios/csv-profile-next-run.yaml",
        "--message",
        "load the csv skill",
        "--message",
        "now profile data/sales.csv",
        "--yes",
        "--cache-model",
        "claude-sonnet-4-5",
        "--json",
      ]),
    );
    // As `npm start` runs the demo: a trusted copy, so its MCP server's tools are in the request too.
    const [walkthrough] = requests(
      await cli(home, [
        "run",
        "--workdir",
        DEMO,
        "--trust",
        "--scenario",
        "scenarios/review.yaml",
        "--message",
        "review src/orders.js",
        "--yes",
        "--json",
      ]),
    );
    const stable = (bare.segments ?? []).find((segment) => segment.kind === "system")!;
    const prefix = (walkthrough.segments ?? [])
      .filter((segment) => segment.kind === "tool" || segment.kind === "system")
      .reduce((sum, segment) => sum + segment.tokens, 0);
    const sop = loaded.segments?.find(
      (segment) => segment.kind === "environment" && segment.name === "csv-report",
    );
    const cache = nextRun.map((snapshot) => snapshot.cache!.predicted);
    return new Map([
      ["listing-csv-report", grouped(bare.indexLineTokens!["csv-report"])],
      ["load-csv-report", aboutTens(sop!.tokens)],
      ["stable-chars", grouped(bare.system.stable.length)],
      ["stable-tokens", grouped(stable.tokens)],
      // Every body inlined names each skill's folder: "about".
      ["eager-stable-chars", aboutTens(bare.eager!.stableChars)],
      ["eager-stable-tokens", aboutTens(bare.eager!.stableTokens)],
      ["prefix-tokens", grouped(prefix)],
      ["next-run-1-written", grouped(cache[0].cacheCreationInputTokens)],
      ["next-run-2-read", grouped(cache[1].cacheReadInputTokens)],
      ["next-run-3-written", grouped(cache[2].cacheCreationInputTokens)],
      ["prompt-excerpt", excerpt(text)],
    ]);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

const SPAN = /<!-- fig:([a-z0-9-]+) -->([\s\S]*?)<!-- \/fig -->/g;

/** The marked spans of a README text, in order. */
export function readmeSpans(text: string): { name: string; value: string }[] {
  return [...text.matchAll(SPAN)].map((match) => ({ name: match[1], value: trimBlock(match[2]) }));
}

/** A block figure sits on its own lines between the markers. */
function trimBlock(value: string): string {
  return value.startsWith("\n") ? value.slice(1, value.endsWith("\n") ? -1 : undefined) : value;
}

/** The README with every marked span set to its figure (unknown names are left as they are). */
export function rewrite(text: string, figures: Map<string, string>): string {
  return text.replace(SPAN, (whole, name: string, value: string) => {
    const figure = figures.get(name);
    if (figure === undefined) return whole;
    return value.startsWith("\n")
      ? `<!-- fig:${name} -->\n${figure}\n<!-- /fig -->`
      : `<!-- fig:${name} -->${figure}<!-- /fig -->`;
  });
}

async function main(): Promise<void> {
  const figures = await computeFigures();
  const write = process.argv.includes("--write");
  let problems = 0;
  for (const page of await figurePages()) {
    const name = path.relative(repoRoot, page);
    const text = await readFile(page, "utf8");
    for (const span of readmeSpans(text)) {
      const figure = figures.get(span.name);
      if (figure === undefined) {
        console.error(`${name}: unknown figure "${span.name}"`);
        problems += 1;
      } else if (figure !== span.value && !write) {
        console.error(`${name}: ${span.name} is ${span.value}, the CLI says ${figure}`);
        problems += 1;
      }
    }
    const next = rewrite(text, figures);
    if (write && next !== text) {
      await writeFile(page, next);
      console.log(`${name}: figures rewritten from the CLI`);
    }
  }
  if (problems > 0 && !write) console.error("Run `npm run readme:figures` to rewrite them.");
  else if (problems === 0)
    console.log(write ? "Figures written." : "Every marked figure agrees with the CLI.");
  process.exit(problems > 0 ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
