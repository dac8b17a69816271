// Command-line parsing for `npm run -s cli -- <command> [flags]`.
import { parseArgs } from "node:util";
import { PlaygroundError } from "../errors/index.ts";
import type { PermissionMode } from "../protocol/model.ts";

const PERMISSION_MODES: readonly PermissionMode[] = ["strict", "default", "acceptEdits", "bypassPermissions"];

export const USAGE = `usage: npm run -s cli -- <command> [flags]

commands:
  catalog --workdir DIR [--home DIR] [--trust] [--json]
      The skill catalog: skills with source and tools, shadowed, removed, warnings, lint, folder trust.
  prompt  --workdir DIR [--home DIR] [--load NAME[:ARGS]]... [--eager] [--message TEXT] [--trust] [--json]
      The first model request exactly as the Runner builds it, after the given load_skill calls.
  run     --workdir DIR [--home DIR] --scenario FILE [--message TEXT]... [--yes] [--json]
          [--mode MODE] [--trust] [--allow-network] [--provider NAME --model M --base-url URL]
          [--eager] [--plan] [--refresh-tools] [--save]
      Runs the Runner and prints every event (one JSON object per line with --json). Each --message is
      one run in the same conversation; "/skill args" invokes a skill. Calls the permission mode asks
      for are denied unless --yes is given. --save writes the session log where the server keeps them
      (<home>/.PseudoClaude/playground/sessions/) and prints its id; it then opens in the browser.
  export  SESSION_ID [--home DIR] --format html|jsonl|scenario [--out FILE]
      A saved session as one self-contained HTML file, its JSONL log, or a scenario YAML the scripted
      model replays offline (stdout unless --out). Keys and the server token are redacted.

flags:
  --home DIR   home folder for the user skill layer, settings and trusted folders (default: your home)
  --mode MODE  permission mode of run: strict, default, acceptEdits or bypassPermissions (default: default)
  --trust      trust the workdir for this command: its own .PseudoClaude/settings.json allow rules apply
               (remembered trust comes from <home>/.PseudoClaude/trusted-folders.json)
  --allow-network  network inside the sandbox for run's commands (default off)
  --json       machine-readable output
  --save       (run) keep the session: written like the server's, listed in the browser
  --format F   (export) html, jsonl or scenario
  --out FILE   (export) write to FILE instead of stdout`;

export interface CliArguments {
  command: "catalog" | "prompt" | "run" | "export" | "help";
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
        help: { type: "boolean", default: false },
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
  if (!["catalog", "prompt", "run", "export", "help"].includes(command))
    throw usageError(`unknown command "${command}"`);
  const allowedPositionals = command === "export" ? 2 : 1;
  if (positionals.length > allowedPositionals)
    throw usageError(`unexpected argument "${positionals[allowedPositionals]}"`);
  if (command === "export") {
    if (positionals[1] === undefined) throw usageError("export needs a SESSION_ID (see `run --save`)");
    if (!values.format || !["html", "jsonl", "scenario"].includes(values.format))
      throw usageError(
        `export needs --format html, jsonl or scenario${values.format ? ` (got "${values.format}")` : ""}`,
      );
  } else if (values.format !== undefined || values.out !== undefined)
    throw usageError("--format and --out apply to export only");
  if (values.save && command !== "run") throw usageError("--save applies to run only");
  if (command !== "help" && command !== "export" && !values.workdir)
    throw usageError(`${command} needs --workdir DIR`);
  if (command === "run" && values.provider === "scripted" && !values.scenario) {
    throw usageError("run with the scripted provider needs --scenario FILE (a scenario file or folder)");
  }
  if (values.mode !== undefined && command !== "run") throw usageError("--mode applies to run only");
  if (values["allow-network"] && command !== "run") throw usageError("--allow-network applies to run only");
  const mode = (values.mode ?? "default") as PermissionMode;
  if (!PERMISSION_MODES.includes(mode))
    throw usageError(`--mode must be one of ${PERMISSION_MODES.join(", ")} (got "${values.mode}")`);
  return {
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
    save: values.save,
    ...(command === "export" ? { sessionId: positionals[1], format: values.format, out: values.out } : {}),
  };
}

/** `review:src/app.ts` → {name: "review", args: "src/app.ts"}; the first colon separates. */
export function parseLoadFlag(value: string): { name: string; args: string } {
  const colon = value.indexOf(":");
  return colon === -1
    ? { name: value, args: "" }
    : { name: value.slice(0, colon), args: value.slice(colon + 1) };
}
