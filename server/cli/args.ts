// Command-line parsing for `npm run -s cli -- <command> [flags]`.
import { parseArgs } from "node:util";
import { PlaygroundError } from "../errors/index.ts";
import type { PermissionMode } from "../protocol/model.ts";
import type { CacheBreakpoints, SkillPlacement } from "../protocol/runner-events.ts";

const PERMISSION_MODES: readonly PermissionMode[] = ["strict", "default", "acceptEdits", "bypassPermissions"];

export const USAGE = `usage: npm run -s cli -- <command> [flags]

commands:
  catalog --workdir DIR [--home DIR] [--trust] [--json]
      The skill catalog: skills with source and tools, shadowed, removed, warnings, lint, folder trust.
  prompt  --workdir DIR [--home DIR] [--load NAME[:ARGS]]... [--eager] [--message TEXT] [--trust] [--json]
          [--cache-model M] [--cache-breakpoints B] [--skill-placement P]
      The first model request exactly as the Runner builds it, after the given load_skill calls.
  run     --workdir DIR [--home DIR] --scenario FILE [--message TEXT]... [--yes] [--json]
          [--mode MODE] [--trust] [--allow-network] [--provider NAME --model M --base-url URL]
          [--eager] [--plan] [--refresh-tools] [--cache-model M] [--cache-breakpoints B] [--skill-placement P]
      Runs the Runner and prints every event (one JSON object per line with --json). Each --message is
      one run in the same conversation; "/skill args" invokes a skill. Calls the permission mode asks
      for are denied unless --yes is given.

flags:
  --home DIR   home folder for the user skill layer, settings and trusted folders (default: your home)
  --mode MODE  permission mode of run: strict, default, acceptEdits or bypassPermissions (default: default)
  --trust      trust the workdir for this command: its own .PseudoClaude/settings.json allow rules apply
               (remembered trust comes from <home>/.PseudoClaude/trusted-folders.json)
  --allow-network  network inside the sandbox for run's commands (default off)
  --cache-model M  predict each request's prompt cache under model M's rules, whatever the provider
               (default: the provider's model; claude-haiku-4-5 or the configured Anthropic model otherwise)
  --cache-breakpoints B  stable (cache_control on the stable system only) or rolling (also on the
               conversation's last block; the default)
  --skill-placement P  environment (active SOPs in the environment, the default) or message (in the
               load_skill result; an experiment)
  --json       machine-readable output`;

export interface CliArguments {
  command: "catalog" | "prompt" | "run" | "help";
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
  /** --cache-model: the model whose caching rules the prediction applies. */
  cacheModel?: string;
  cacheBreakpoints?: CacheBreakpoints;
  skillPlacement?: SkillPlacement;
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
        "cache-model": { type: "string" },
        "cache-breakpoints": { type: "string" },
        "skill-placement": { type: "string" },
        help: { type: "boolean", default: false },
      },
    });
  } catch (error) {
    throw usageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const command = values.help ? "help" : (positionals[0] ?? "help");
  if (!["catalog", "prompt", "run", "help"].includes(command))
    throw usageError(`unknown command "${command}"`);
  if (positionals.length > 1) throw usageError(`unexpected argument "${positionals[1]}"`);
  if (command !== "help" && !values.workdir) throw usageError(`${command} needs --workdir DIR`);
  if (command === "run" && values.provider === "scripted" && !values.scenario) {
    throw usageError("run with the scripted provider needs --scenario FILE (a scenario file or folder)");
  }
  if (values.mode !== undefined && command !== "run") throw usageError("--mode applies to run only");
  if (values["allow-network"] && command !== "run") throw usageError("--allow-network applies to run only");
  const mode = (values.mode ?? "default") as PermissionMode;
  if (!PERMISSION_MODES.includes(mode))
    throw usageError(`--mode must be one of ${PERMISSION_MODES.join(", ")} (got "${values.mode}")`);
  const breakpoints = values["cache-breakpoints"];
  if (breakpoints !== undefined && breakpoints !== "stable" && breakpoints !== "rolling")
    throw usageError(`--cache-breakpoints must be stable or rolling (got "${breakpoints}")`);
  const placement = values["skill-placement"];
  if (placement !== undefined && placement !== "environment" && placement !== "message")
    throw usageError(`--skill-placement must be environment or message (got "${placement}")`);
  return {
    ...(values["cache-model"] ? { cacheModel: values["cache-model"] } : {}),
    ...(breakpoints ? { cacheBreakpoints: breakpoints } : {}),
    ...(placement ? { skillPlacement: placement } : {}),
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
  };
}

/** `review:src/app.ts` → {name: "review", args: "src/app.ts"}; the first colon separates. */
export function parseLoadFlag(value: string): { name: string; args: string } {
  const colon = value.indexOf(":");
  return colon === -1
    ? { name: value, args: "" }
    : { name: value.slice(0, colon), args: value.slice(colon + 1) };
}
