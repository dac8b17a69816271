// The command line as a function: `main(argv, io)` parses the arguments, runs one command from the table
// below and returns the exit code (0 done, 1 a run that did not complete, 2 an error, printed on stderr
// as `error (code): message`). server/cli.ts calls it with the real process; tests call it in-process.
import path from "node:path";
import { PlaygroundError, errorMessage } from "../errors/index.ts";
import { loadFolderPermission } from "../permission/trust.ts";
import { catalogBudget } from "../prompt/catalog-budget.ts";
import { sha256Hex } from "../prompt/hash.ts";
import { TokenCounter } from "../prompt/segments.ts";
import { SecretRedactor, SecretScope } from "../providers/redact.ts";
import { createWorkspace, type Workspace } from "../session/workspace.ts";
import { ExitHooks } from "../tools/exit-hooks.ts";
import { ProcessRunner } from "../tools/process-runner.ts";
import { USAGE, parseCliArguments, type CliArguments } from "./args.ts";
import { cacheSettings } from "./cache-options.ts";
import { catalogReport, formatCatalog, startMcp } from "./catalog-command.ts";
import { evalCommand, formatBudget } from "./eval-command.ts";
import { runInstallCommand } from "./install-command.ts";
import type { CliIo, CliRoot } from "./io.ts";
import { buildFirstRequest, formatPrompt } from "./prompt-command.ts";
import { runCommand } from "./run-command.ts";

export type { CliIo } from "./io.ts";

type Command = (args: CliArguments, io: CliIo, root: CliRoot) => Promise<number>;

/** A command that reads the workdir's catalog: the workspace is built first, its MCP servers end with it. */
function withWorkspace(
  command: (args: CliArguments, io: CliIo, workspace: Workspace, root: CliRoot) => Promise<number>,
) {
  return async (args: CliArguments, io: CliIo, root: CliRoot): Promise<number> => {
    const workspace = await createWorkspace({
      workdir: args.workdir!,
      ...(args.home ? { home: args.home } : {}),
      exitHooks: root.processes.exitHooks,
      tokens: root.tokens,
      secrets: new SecretScope(root.secrets),
    });
    if (args.lintProfile) workspace.catalog.setProfile(args.lintProfile);
    try {
      return await command(args, io, workspace, root);
    } finally {
      // No MCP server outlives the command.
      await workspace.mcp.close();
    }
  };
}

/** `eval triggers` and `eval optimize`: eval-command.ts's evalCommand on the workdir's catalog. */
const evalWithWorkspace = withWorkspace(async (args, io, workspace) => {
  await evalCommand(workspace, args, {
    write: io.stdout,
    writeProgress: io.stderr,
    progressIsTerminal: io.stderrIsTerminal,
    env: io.env,
  });
  return 0;
});

/** One entry per command of args.ts; a new command is a line here (and its flags there). */
const COMMANDS: Record<CliArguments["command"], Command> = {
  help: async (_args, io) => {
    io.stdout(`${USAGE}\n`);
    return 0;
  },
  install: runInstallCommand,
  // Loaded only for export, so the other commands start no slower.
  export: async (args, io, root) => (await import("./export-command.ts")).exportCommand(args, io, root),
  run: runCommand,
  catalog: withWorkspace(async (args, io, workspace) => {
    const { trust, problems } = await loadFolderPermission({
      workdir: workspace.workdir,
      home: workspace.home,
      ...(args.trust ? { via: "cli" as const } : {}),
    });
    for (const problem of problems) io.stderr(`warning: ${problem}\n`);
    await startMcp(workspace, trust, args.allowNetwork, io);
    const report = catalogReport(workspace, trust, args.catalogBudget);
    // --catalog-budget: which descriptions that client would cut or drop (a prediction from its rules).
    const budget = args.catalogBudget
      ? catalogBudget({ items: workspace.catalog.promptItems(), ...args.catalogBudget })
      : undefined;
    io.stdout(
      args.json
        ? `${JSON.stringify(budget ? { ...report, budget } : report, null, 2)}\n`
        : `${formatCatalog(report, workspace.home)}\n${budget ? `${formatBudget(budget)}\n` : ""}`,
    );
    return 0;
  }),
  prompt: withWorkspace(async (args, io, workspace, root) => {
    const report = await buildFirstRequest(workspace, {
      processes: root.processes,
      loads: args.load,
      disclosure: args.eager ? "eager" : "progressive",
      provider: args.provider,
      ...(args.model ? { model: args.model } : {}),
      ...(args.messages[0] !== undefined ? { message: args.messages[0] } : {}),
      trust: args.trust,
      ...(args.catalogBudget ? { listingBudget: args.catalogBudget } : {}),
      cache: cacheSettings(args),
      warn: (line) => io.stderr(`${line}\n`),
    });
    io.stdout(
      args.json
        ? `${JSON.stringify(report, null, 2)}\n`
        : `${formatPrompt(report, sha256Hex(report.system.stable), workspace.home)}\n`,
    );
    return 0;
  }),
  eval: async (args, io, root) => {
    // compare reads two saved summaries and needs no workspace; loaded only for it.
    if (args.evalMore?.subcommand === "compare") {
      await (
        await import("./eval-optimize.ts")
      ).evalCompare({
        ...args.evalMore,
        ...args,
        workdir: args.workdir ?? io.cwd,
        write: io.stdout,
      });
      return 0;
    }
    return evalWithWorkspace(args, io, root);
  },
};

/** Paths on the command line are relative to the caller's folder (`io.cwd`), not to this process's. */
function resolvePaths(args: CliArguments, cwd: string): CliArguments {
  const resolve = (value: string | undefined) => (value === undefined ? undefined : path.resolve(cwd, value));
  const resolved = { ...args };
  for (const key of ["workdir", "home", "scenario", "evals", "out"] as const) {
    const value = resolve(args[key]);
    if (value !== undefined) resolved[key] = value;
  }
  // `install --remove PLUGIN` names an installed plugin, not a path.
  if (args.install && !args.install.remove && !/^[a-z][a-z0-9+.-]*:\/\//i.test(args.install.source))
    resolved.install = { ...args.install, source: path.resolve(cwd, args.install.source) };
  if (args.evalMore)
    resolved.evalMore = {
      ...args.evalMore,
      files: args.evalMore.files.map((file) => path.resolve(cwd, file)),
    };
  return resolved;
}

/** Runs one command line; returns its exit code. Errors are printed on `io.stderr`, never thrown. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  // The command's own instances (io.ts CliRoot): nothing outlives it, nothing is shared with another main().
  const root: CliRoot = {
    processes: new ProcessRunner({ exitHooks: new ExitHooks() }),
    tokens: new TokenCounter(),
    secrets: new SecretRedactor(() => io.env),
  };
  try {
    const args = resolvePaths(parseCliArguments(argv), io.cwd);
    return await COMMANDS[args.command](args, io, root);
  } catch (error) {
    const prefix = error instanceof PlaygroundError ? `error (${error.code})` : "error";
    io.stderr(`${prefix}: ${errorMessage(error)}\n`);
    return 2;
  } finally {
    await root.processes.killAll();
    root.processes.exitHooks.dispose();
  }
}
