// Command-line parsing for `npm run -s cli -- <command> [flags]`.
import { parseArgs } from "node:util";
import { PlaygroundError } from "../errors/index.ts";
import type { PermissionMode } from "../protocol/model.ts";
import type { LintProfileName } from "../protocol/catalog.ts";
import type { CacheBreakpoints, SkillPlacement } from "../protocol/runner-events.ts";
import type { SessionConfirmation } from "../protocol/sandbox.ts";
import { LINT_PROFILES, isLintProfile } from "../skills/lint-profile.ts";

const PERMISSION_MODES: readonly PermissionMode[] = ["strict", "default", "acceptEdits", "bypassPermissions"];
/** What `run --confirm` accepts: the confirmations the page asks for (protocol's SessionConfirmation). */
const CONFIRMATIONS: readonly SessionConfirmation[] = ["broad_workdir", "bypass_permissions"];

export const USAGE = `usage: npm run -s cli -- <command> [flags]

commands:
  catalog --workdir DIR [--home DIR] [--trust] [--allow-network] [--lint-profile P] [--json]
      The skill catalog: skills with source and tools, shadowed, removed, warnings, lint, folder trust,
      and every skill found on disk but not offered to the model, with the reason.
  prompt  --workdir DIR [--home DIR] [--load NAME[:ARGS]]... [--eager] [--message TEXT] [--trust] [--json]
          [--cache-model M] [--cache-breakpoints B] [--skill-placement P]
      The first model request exactly as the Runner builds it, after the given load_skill calls.
  run     --workdir DIR [--home DIR] --scenario FILE [--message TEXT]... [--yes] [--json]
          [--mode MODE] [--trust] [--allow-network] [--provider NAME --model M --base-url URL]
          [--eager] [--plan] [--refresh-tools] [--save] [--cache-model M] [--cache-breakpoints B]
          [--skill-placement P] [--confirm broad_workdir] [--honour-allowed-tools] [--lint-profile P]
      Runs the Runner and prints every event (one JSON object per line with --json). Each --message is
      one run in the same conversation; "/skill args" invokes a skill. Calls the permission mode asks
      for are denied unless --yes is given. --save writes the session log where the server keeps them
      (<home>/.PseudoClaude/playground/sessions/) and prints its id; it then opens in the browser.
  export  SESSION_ID [--home DIR] --format html|jsonl|scenario|otlp [--out FILE] [--include-content]
          [--endpoint URL]
      A saved session as one self-contained HTML file, its JSONL log, a scenario YAML the scripted
      model replays offline, or an OpenTelemetry trace (OTLP/JSON, GenAI and OpenInference attributes;
      prompt and completion text only with --include-content) (stdout unless --out; --endpoint posts
      the trace to an OTLP/HTTP collector instead). Keys and the server token are redacted.
  install SOURCE --layer user|project [--home DIR] [--workdir DIR] [--force] [--dry-run] [--json]
      Installs a skill from a .zip, a folder or an https:// URL of a zip (project needs --workdir).
      A plugin bundle (Agent Plugins plugin.json, or a Claude Code .claude-plugin/plugin.json) installs
      as one unit: its skills, and its MCP servers into that layer's settings.json.
      A refused archive prints one line (entry and rule), writes nothing and exits 2.
  install --remove PLUGIN --layer user|project [--home DIR] [--workdir DIR]
      Removes an installed plugin: its folder, its skills and its MCP servers (its data folder is kept).
  eval triggers --workdir DIR [--home DIR] [--evals FILE] [--skill NAME] --provider NAME [--model M]
          [--base-url URL] [--scenario FILE] [--runs K (3)] [--concurrency N] [--ablate SKILL:DESCRIPTION]
          [--without-skills] [--max-calls N] [--max-usd X] [--estimate] [--json]
      The trigger lab: each query of the eval file (default <workdir>/.PseudoClaude/evals/triggers.yaml, or
      skill-creator's JSON list of {query, should_trigger} for --skill NAME) K times as a one-request probe
      (only load_skill runs); per query a trigger rate and a verdict at 0.5; precision, recall and the
      false-positive rate over runs; confusion and confounds; saved next to the eval file. The calls and
      their cost are printed before the first one (--estimate: only that); the caps stop it cleanly with
      the partial results saved. Progress on stderr; exit 0 even when skills miss.
  eval optimize --workdir DIR --skill NAME [--evals FILE] --provider NAME [--model M] [--base-url URL]
          [--improver-provider NAME --improver-model M [--improver-base-url URL]] [--runs K (3)]
          [--iterations N (5)] [--holdout F (0.4)] [--seed S (42)] [--max-calls N] [--max-usd X] [--json]
      The description optimizer: a seeded train/test split; each iteration scores the description on both;
      the improving model sees the SKILL.md, the train failures and train scores only, never a test query;
      the best description is the one with the best test score. Writes nothing: apply it yourself (or in
      the page's optimizer panel). --provider router scores offline.
  eval compare [BEFORE.summary.json AFTER.summary.json] [--evals FILE] [--workdir DIR] [--json]
      Two saved lab results per query: Fixed, Regressed, Still failing (default: the eval file's
      .previous.summary.json against its .summary.json).

flags:
  --home DIR   home folder for the user skill layer, settings and trusted folders (default: your home)
  --mode MODE  permission mode of run: strict, default, acceptEdits or bypassPermissions (default: default)
  --trust      trust the workdir for this command: its own .PseudoClaude/settings.json allow rules apply
               (remembered trust comes from <home>/.PseudoClaude/trusted-folders.json)
  --allow-network  network inside the sandbox for run's commands, and (run, catalog) HTTP MCP servers on
               other hosts: with it off only loopback addresses are contacted (default off)
  --confirm broad_workdir  (run) you mean a workdir that is / or holds your home folder (every key and
               project in reach of the agent's tools); without it such a run is refused, as the page asks
               before such a session (--mode bypassPermissions is its own confirmation)
  --catalog-budget PROFILE[:WINDOW]  trim the skills index as claude-code or codex would for a context
               window of WINDOW tokens (default: the profile's 8,000-character fallback); the stable
               system says which skills were trimmed (prompt, run, eval; default off); with catalog,
               prints which descriptions that client would cut or drop
  --cache-model M  predict each request's prompt cache under model M's rules, whatever the provider
               (default: the provider's model; claude-haiku-4-5 or the configured Anthropic model otherwise)
  --cache-breakpoints B  stable (cache_control on the stable system only) or rolling (also on the
               conversation's last block; the default)
  --skill-placement P  environment (active SOPs in the environment, the default), message (in the
               load_skill result) or system (a mid-conversation system message, on the models
               server/cache/cache-rules.json marks; the result otherwise); experiments
  --lint-profile P  lenient (warn but load; the default), agent-skills or claude-code (refuse a skill
               that breaks that profile's error rules); every lint note names its profile (catalog,
               prompt, run, eval)
  --honour-allowed-tools  (run) a loaded skill's allowed-tools become allow rules while it is active
               (a project skill's only with folder trust); default off: allowed-tools pre-approves nothing
  --json       machine-readable output
  --save       (run) keep the session: written like the server's, listed in the browser
  --format F   (export) html, jsonl, scenario or otlp
  --out FILE   (export) write to FILE instead of stdout
  --include-content  (export --format otlp) put prompts, completions, tool arguments and results in
               the trace (default: figures, names and decisions only)
  --endpoint URL  (export --format otlp) POST the trace to an OTLP/HTTP collector (a base URL gets
               /v1/traces appended; headers from OTEL_EXPORTER_OTLP_HEADERS)`;

export interface CliArguments {
  command: "catalog" | "prompt" | "run" | "install" | "eval" | "export" | "help";
  /** export: the session to export. */
  sessionId?: string;
  /** export: html, jsonl or scenario. */
  format?: string;
  /** export: the file to write (stdout when absent). */
  out?: string;
  /** export --format otlp: prompt and completion text in the trace. */
  includeContent?: boolean;
  /** export --format otlp: the OTLP/HTTP collector to post the trace to. */
  endpoint?: string;
  /** run: save the session log where the server keeps them. */
  save: boolean;
  workdir?: string;
  home?: string;
  json: boolean;
  load: string[];
  eager: boolean;
  messages: string[];
  scenario?: string;
  yes: boolean;
  provider: string;
  model?: string;
  baseUrl?: string;
  plan: boolean;
  refreshTools: boolean;
  /** Trust the workdir for this command (its own allow rules apply). */
  trust: boolean;
  /** Permission mode of `run`. */
  mode: PermissionMode;
  /** Network inside the sandbox for `run`'s commands. */
  allowNetwork: boolean;
  /** `run --confirm`: what the user confirmed (a broad workdir), as the page's session confirmations. */
  confirm: SessionConfirmation[];
  /** `install`: the .zip, folder or https:// URL, the layer, and whether a same-name skill is replaced. */
  install?: { source: string; layer: "user" | "project"; force: boolean; dryRun: boolean; remove?: boolean };
  /** `eval triggers`: the eval file, runs per query, probes in flight, an ablation. */
  evals?: string;
  runs: number;
  concurrency: number;
  ablate?: { skill: string; description: string };
  /** `eval optimize` / `eval compare` and the flags issue 25 added (eval-command.ts reads them). */
  evalMore?: EvalMoreArguments;
  /** --catalog-budget: the listing budget of the playground's own index. */
  catalogBudget?: { profile: "claude-code" | "codex"; contextWindow?: number };
  /** --cache-model: the model whose caching rules the prediction applies. */
  cacheModel?: string;
  cacheBreakpoints?: CacheBreakpoints;
  skillPlacement?: SkillPlacement;
  /** --lint-profile: which lint notes refuse a skill (default lenient). */
  lintProfile?: LintProfileName;
  /** --honour-allowed-tools (run): loaded skills' allowed-tools become allow rules. */
  honourAllowedTools: boolean;
}

export interface EvalMoreArguments {
  subcommand: "triggers" | "optimize" | "compare";
  skill?: string;
  withoutSkills: boolean;
  maxCalls?: number;
  maxUsd?: number;
  estimate: boolean;
  improverProvider?: string;
  improverModel?: string;
  improverBaseUrl?: string;
  iterations?: number;
  holdout?: number;
  seed?: number;
  /** compare: the two summaries. */
  files: string[];
}

const OPTIMIZE_ONLY_FLAGS = [
  "improver-provider",
  "improver-model",
  "improver-base-url",
  "iterations",
  "holdout",
  "seed",
] as const;
const EVAL_MORE_FLAGS = [
  "skill",
  "without-skills",
  "max-calls",
  "max-usd",
  "estimate",
  ...OPTIMIZE_ONLY_FLAGS,
] as const;

function usageError(message: string): PlaygroundError {
  return new PlaygroundError("invalid_arguments", `${message}\n\n${USAGE}`);
}

export function parseCliArguments(argv: readonly string[]): CliArguments {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        workdir: { type: "string" },
        home: { type: "string" },
        json: { type: "boolean", default: false },
        load: { type: "string", multiple: true, default: [] },
        eager: { type: "boolean", default: false },
        message: { type: "string", multiple: true, default: [] },
        scenario: { type: "string" },
        yes: { type: "boolean", default: false },
        provider: { type: "string", default: "scripted" },
        model: { type: "string" },
        "base-url": { type: "string" },
        plan: { type: "boolean", default: false },
        "refresh-tools": { type: "boolean", default: false },
        trust: { type: "boolean", default: false },
        mode: { type: "string" },
        "allow-network": { type: "boolean", default: false },
        confirm: { type: "string", multiple: true, default: [] },
        evals: { type: "string" },
        runs: { type: "string" },
        concurrency: { type: "string" },
        ablate: { type: "string" },
        "catalog-budget": { type: "string" },
        "cache-model": { type: "string" },
        "cache-breakpoints": { type: "string" },
        "skill-placement": { type: "string" },
        "lint-profile": { type: "string" },
        "honour-allowed-tools": { type: "boolean", default: false },
        help: { type: "boolean", default: false },
        layer: { type: "string" },
        force: { type: "boolean", default: false },
        "dry-run": { type: "boolean", default: false },
        remove: { type: "boolean", default: false },
        save: { type: "boolean", default: false },
        format: { type: "string" },
        out: { type: "string" },
        skill: { type: "string" },
        "without-skills": { type: "boolean" },
        "max-calls": { type: "string" },
        "max-usd": { type: "string" },
        estimate: { type: "boolean" },
        "improver-provider": { type: "string" },
        "improver-model": { type: "string" },
        "improver-base-url": { type: "string" },
        iterations: { type: "string" },
        holdout: { type: "string" },
        seed: { type: "string" },
        "include-content": { type: "boolean", default: false },
        endpoint: { type: "string" },
      },
    });
  } catch (error) {
    throw usageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const command = values.help ? "help" : (positionals[0] ?? "help");
  if (!["catalog", "prompt", "run", "install", "eval", "export", "help"].includes(command))
    throw usageError(`unknown command "${command}"`);
  const install = command === "install" ? installArguments(values, positionals) : undefined;
  if (
    command !== "install" &&
    (values.layer !== undefined || values.force || values["dry-run"] || values.remove)
  )
    throw usageError("--layer, --force, --dry-run and --remove apply to install only");
  const extra =
    command === "eval" && positionals[1] === "compare"
      ? 4
      : command === "eval" || command === "export" || install
        ? 2
        : 1;
  if (command === "eval" && !["triggers", "optimize", "compare"].includes(positionals[1] ?? "")) {
    throw usageError(
      `eval needs a subcommand: eval triggers, eval optimize or eval compare (got "${positionals[1] ?? ""}")`,
    );
  }
  for (const flag of EVAL_MORE_FLAGS) {
    if (values[flag] !== undefined && command !== "eval") throw usageError(`--${flag} applies to eval only`);
  }
  if (positionals.length > extra) throw usageError(`unexpected argument "${positionals[extra]}"`);
  const evalOnly = ["evals", "runs", "concurrency", "ablate"] as const;
  for (const flag of evalOnly) {
    if (values[flag] !== undefined && command !== "eval")
      throw usageError(`--${flag} applies to eval triggers only`);
  }
  const evalMore = command === "eval" ? evalMoreArguments(values, positionals) : undefined;
  if (command === "export") {
    if (positionals[1] === undefined) throw usageError("export needs a SESSION_ID (see `run --save`)");
    if (!values.format || !["html", "jsonl", "scenario", "otlp"].includes(values.format))
      throw usageError(
        `export needs --format html, jsonl, scenario or otlp${values.format ? ` (got "${values.format}")` : ""}`,
      );
    if ((values["include-content"] || values.endpoint !== undefined) && values.format !== "otlp")
      throw usageError("--include-content and --endpoint apply to export --format otlp only");
    if (values.endpoint !== undefined && values.out !== undefined)
      throw usageError("--endpoint posts the trace; --out writes it to a file: give one of them");
  } else if (
    values.format !== undefined ||
    values.out !== undefined ||
    values["include-content"] ||
    values.endpoint !== undefined
  )
    throw usageError("--format, --out, --include-content and --endpoint apply to export only");
  if (values.save && command !== "run") throw usageError("--save applies to run only");
  if (
    command !== "help" &&
    command !== "export" &&
    evalMore?.subcommand !== "compare" &&
    !values.workdir &&
    install?.layer !== "user"
  )
    throw usageError(`${command} needs --workdir DIR`);
  if (command === "run" && values.provider === "scripted" && !values.scenario) {
    throw usageError("run with the scripted provider needs --scenario FILE (a scenario file or folder)");
  }
  if (values.mode !== undefined && command !== "run") throw usageError("--mode applies to run only");
  if (values["allow-network"] && command !== "run" && command !== "catalog")
    throw usageError("--allow-network applies to run and catalog only");
  if (values.confirm.length > 0 && command !== "run") throw usageError("--confirm applies to run only");
  for (const confirmation of values.confirm) {
    if (!(CONFIRMATIONS as readonly string[]).includes(confirmation))
      throw usageError(`--confirm takes ${CONFIRMATIONS.join(" or ")} (got "${confirmation}")`);
  }
  const mode = (values.mode ?? "default") as PermissionMode;
  if (!PERMISSION_MODES.includes(mode))
    throw usageError(`--mode must be one of ${PERMISSION_MODES.join(", ")} (got "${values.mode}")`);
  const breakpoints = values["cache-breakpoints"];
  if (breakpoints !== undefined && breakpoints !== "stable" && breakpoints !== "rolling")
    throw usageError(`--cache-breakpoints must be stable or rolling (got "${breakpoints}")`);
  const lintProfile = values["lint-profile"];
  if (lintProfile !== undefined && !isLintProfile(lintProfile))
    throw usageError(`--lint-profile must be one of ${LINT_PROFILES.join(", ")} (got "${lintProfile}")`);
  if (lintProfile !== undefined && !["catalog", "prompt", "run", "eval"].includes(command))
    throw usageError("--lint-profile applies to catalog, prompt, run and eval");
  if (values["honour-allowed-tools"] && command !== "run")
    throw usageError("--honour-allowed-tools applies to run only");
  const placement = values["skill-placement"];
  if (
    placement !== undefined &&
    placement !== "environment" &&
    placement !== "message" &&
    placement !== "system"
  )
    throw usageError(`--skill-placement must be environment, message or system (got "${placement}")`);
  return {
    ...(values["cache-model"] ? { cacheModel: values["cache-model"] } : {}),
    ...(breakpoints ? { cacheBreakpoints: breakpoints } : {}),
    ...(placement ? { skillPlacement: placement } : {}),
    ...(lintProfile ? { lintProfile } : {}),
    honourAllowedTools: values["honour-allowed-tools"],
    command: command as CliArguments["command"],
    workdir: values.workdir,
    home: values.home,
    json: values.json,
    load: values.load,
    eager: values.eager,
    messages: values.message,
    scenario: values.scenario,
    yes: values.yes,
    provider: values.provider,
    model: values.model,
    baseUrl: values["base-url"],
    plan: values.plan,
    refreshTools: values["refresh-tools"],
    trust: values.trust,
    mode,
    allowNetwork: values["allow-network"],
    confirm: values.confirm as SessionConfirmation[],
    ...(install ? { install } : {}),
    ...(values.evals ? { evals: values.evals } : {}),
    runs: positiveInteger(values.runs, "--runs", 3),
    concurrency: positiveInteger(values.concurrency, "--concurrency", 4),
    ...(values.ablate ? { ablate: parseAblateFlag(values.ablate) } : {}),
    ...(evalMore ? { evalMore } : {}),
    ...(values["catalog-budget"] ? { catalogBudget: parseCatalogBudgetFlag(values["catalog-budget"]) } : {}),
    save: values.save,
    ...(command === "export"
      ? {
          sessionId: positionals[1],
          format: values.format,
          out: values.out,
          ...(values["include-content"] ? { includeContent: true } : {}),
          ...(values.endpoint !== undefined ? { endpoint: values.endpoint } : {}),
        }
      : {}),
  };
}

function installArguments(
  values: { layer?: string; force: boolean; "dry-run": boolean; remove: boolean },
  positionals: string[],
): NonNullable<CliArguments["install"]> {
  const source = positionals[1];
  if (!source) throw usageError("install needs SOURCE (a .zip, a folder or an https:// URL)");
  if (values.layer !== "user" && values.layer !== "project")
    throw usageError(`install needs --layer user or --layer project (got ${values.layer ?? "none"})`);
  return {
    source,
    layer: values.layer,
    force: values.force,
    dryRun: values["dry-run"],
    ...(values.remove ? { remove: true } : {}),
  };
}

function evalMoreArguments(
  values: Record<string, string | boolean | string[] | undefined>,
  positionals: string[],
): EvalMoreArguments {
  const subcommand = positionals[1] as EvalMoreArguments["subcommand"];
  const text = (flag: string) => values[flag] as string | undefined;
  if (subcommand === "optimize" && !text("skill")) throw usageError("eval optimize needs --skill NAME");
  if (text("improver-model") !== undefined && text("improver-provider") === undefined)
    throw usageError("--improver-model needs --improver-provider NAME");
  for (const flag of OPTIMIZE_ONLY_FLAGS) {
    if (values[flag] !== undefined && subcommand !== "optimize")
      throw usageError(`--${flag} applies to eval optimize only`);
  }
  const maxUsd = text("max-usd");
  if (maxUsd !== undefined && !(Number(maxUsd) >= 0 && /^[0-9]*\.?[0-9]+$/.test(maxUsd)))
    throw usageError(`--max-usd must be an amount in USD ≥ 0, e.g. 0.50 (got "${maxUsd}")`);
  const holdout = text("holdout");
  if (holdout !== undefined && !(/^0?\.[0-9]+$|^0$/.test(holdout) && Number(holdout) <= 0.9))
    throw usageError(`--holdout must be a fraction from 0 to 0.9 (got "${holdout}")`);
  const seed = text("seed");
  if (seed !== undefined && !/^[0-9]+$/.test(seed))
    throw usageError(`--seed must be a whole number ≥ 0 (got "${seed}")`);
  return {
    subcommand,
    ...(text("skill") ? { skill: text("skill") } : {}),
    withoutSkills: values["without-skills"] === true,
    ...(text("max-calls") !== undefined
      ? { maxCalls: positiveInteger(text("max-calls"), "--max-calls", 1) }
      : {}),
    ...(maxUsd !== undefined ? { maxUsd: Number(maxUsd) } : {}),
    estimate: values.estimate === true,
    ...(text("improver-provider") ? { improverProvider: text("improver-provider") } : {}),
    ...(text("improver-model") ? { improverModel: text("improver-model") } : {}),
    ...(text("improver-base-url") ? { improverBaseUrl: text("improver-base-url") } : {}),
    ...(text("iterations") !== undefined
      ? { iterations: positiveInteger(text("iterations"), "--iterations", 5) }
      : {}),
    ...(holdout !== undefined ? { holdout: Number(holdout) } : {}),
    ...(seed !== undefined ? { seed: Number(seed) } : {}),
    files: subcommand === "compare" ? positionals.slice(2) : [],
  };
}

function positiveInteger(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^[1-9][0-9]*$/.test(value)) throw usageError(`${flag} must be a whole number ≥ 1 (got "${value}")`);
  return Number(value);
}

/** `csv-report:Summarise spreadsheets.` → the skill and its replacement description. */
export function parseAblateFlag(value: string): { skill: string; description: string } {
  const { name, args } = parseLoadFlag(value);
  if (name === "" || args.trim() === "") {
    throw usageError(`--ablate needs SKILL:DESCRIPTION (got "${value}")`);
  }
  return { skill: name, description: args };
}

/** `claude-code`, `codex:400000` → a client profile and an optional context window in tokens. */
export function parseCatalogBudgetFlag(value: string): {
  profile: "claude-code" | "codex";
  contextWindow?: number;
} {
  const { name, args } = parseLoadFlag(value);
  if (name !== "claude-code" && name !== "codex") {
    throw usageError(`--catalog-budget takes claude-code or codex, optionally :WINDOW (got "${value}")`);
  }
  if (args === "") return { profile: name };
  if (!/^[1-9][0-9]*$/.test(args))
    throw usageError(`--catalog-budget window must be a token count (got "${args}")`);
  return { profile: name, contextWindow: Number(args) };
}

/** `review:src/app.ts` → {name: "review", args: "src/app.ts"}; the first colon separates. */
export function parseLoadFlag(value: string): { name: string; args: string } {
  const colon = value.indexOf(":");
  return colon === -1
    ? { name: value, args: "" }
    : { name: value.slice(0, colon), args: value.slice(colon + 1) };
}
