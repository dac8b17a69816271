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
  export  SESSION_ID [--home DIR] --format html|jsonl|scenario [--out FILE]
      A saved session as one self-contained HTML file, its JSONL log, or a scenario YAML the scripted
      model replays offline (stdout unless --out). Keys and the server token are redacted.
  install SOURCE --layer user|project [--home DIR] [--workdir DIR] [--force] [--dry-run] [--json]
      Installs a skill from a .zip, a folder or an https:// URL of a zip (project needs --workdir).
      A refused archive prints one line (entry and rule), writes nothing and exits 2.
  eval triggers --workdir DIR [--home DIR] [--evals FILE] --provider NAME [--model M] [--base-url URL]
          [--scenario FILE] --runs K [--concurrency N] [--ablate SKILL:DESCRIPTION] [--json]
      The trigger lab: each query of the eval file (default <workdir>/.PseudoClaude/evals/triggers.yaml)
      K times as a one-request probe (only load_skill runs); precision, recall, trigger rate, pass rate,
      confusion and confounds; saved next to the eval file. Progress on stderr; exit 0 even when skills miss.

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
  --skill-placement P  environment (active SOPs in the environment, the default) or message (in the
               load_skill result; an experiment)
  --lint-profile P  lenient (warn but load; the default), agent-skills or claude-code (refuse a skill
               that breaks that profile's error rules); every lint note names its profile (catalog,
               prompt, run, eval)
  --honour-allowed-tools  (run) a loaded skill's allowed-tools become allow rules while it is active
               (a project skill's only with folder trust); default off: allowed-tools pre-approves nothing
  --json       machine-readable output
  --save       (run) keep the session: written like the server's, listed in the browser
  --format F   (export) html, jsonl or scenario
  --out FILE   (export) write to FILE instead of stdout`;

export interface CliArguments {
  command: "catalog" | "prompt" | "run" | "install" | "eval" | "export" | "help";
  /** export: the session to export. */
  sessionId?: string;
  /** export: html, jsonl or scenario. */
  format?: string;
  /** export: the file to write (stdout when absent). */
  out?: string;
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
  install?: { source: string; layer: "user" | "project"; force: boolean; dryRun: boolean };
  /** `eval triggers`: the eval file, runs per query, probes in flight, an ablation. */
  evals?: string;
  runs: number;
  concurrency: number;
  ablate?: { skill: string; description: string };
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
        save: { type: "boolean", default: false },
        format: { type: "string" },
        out: { type: "string" },
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
  if (command !== "install" && (values.layer !== undefined || values.force || values["dry-run"]))
    throw usageError("--layer, --force and --dry-run apply to install only");
  const extra = command === "eval" || command === "export" || install ? 2 : 1;
  if (command === "eval" && positionals[1] !== "triggers") {
    throw usageError(`eval needs a subcommand: eval triggers (got "${positionals[1] ?? ""}")`);
  }
  if (positionals.length > extra) throw usageError(`unexpected argument "${positionals[extra]}"`);
  const evalOnly = ["evals", "runs", "concurrency", "ablate"] as const;
  for (const flag of evalOnly) {
    if (values[flag] !== undefined && command !== "eval")
      throw usageError(`--${flag} applies to eval triggers only`);
  }
  if (command === "eval" && values.runs === undefined) throw usageError("eval triggers needs --runs K");
  if (command === "export") {
    if (positionals[1] === undefined) throw usageError("export needs a SESSION_ID (see `run --save`)");
    if (!values.format || !["html", "jsonl", "scenario"].includes(values.format))
      throw usageError(
        `export needs --format html, jsonl or scenario${values.format ? ` (got "${values.format}")` : ""}`,
      );
  } else if (values.format !== undefined || values.out !== undefined)
    throw usageError("--format and --out apply to export only");
  if (values.save && command !== "run") throw usageError("--save applies to run only");
  if (command !== "help" && command !== "export" && !values.workdir && install?.layer !== "user")
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
  if (placement !== undefined && placement !== "environment" && placement !== "message")
    throw usageError(`--skill-placement must be environment or message (got "${placement}")`);
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
    runs: positiveInteger(values.runs, "--runs", 1),
    concurrency: positiveInteger(values.concurrency, "--concurrency", 4),
    ...(values.ablate ? { ablate: parseAblateFlag(values.ablate) } : {}),
    ...(values["catalog-budget"] ? { catalogBudget: parseCatalogBudgetFlag(values["catalog-budget"]) } : {}),
    save: values.save,
    ...(command === "export" ? { sessionId: positionals[1], format: values.format, out: values.out } : {}),
  };
}

function installArguments(
  values: { layer?: string; force: boolean; "dry-run": boolean },
  positionals: string[],
): NonNullable<CliArguments["install"]> {
  const source = positionals[1];
  if (!source) throw usageError("install needs SOURCE (a .zip, a folder or an https:// URL)");
  if (values.layer !== "user" && values.layer !== "project")
    throw usageError(`install needs --layer user or --layer project (got ${values.layer ?? "none"})`);
  return { source, layer: values.layer, force: values.force, dryRun: values["dry-run"] };
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
