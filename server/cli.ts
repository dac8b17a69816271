// Composition root of the command line: `npm run -s cli -- <catalog|prompt|run|install|eval> ...` (see server/cli/args.ts).
import { PlaygroundError, errorMessage } from "./errors/index.ts";
import { loadFolderPermission } from "./permission/trust.ts";
import { sha256Hex } from "./prompt/hash.ts";
import { createWorkspace } from "./session/workspace.ts";
import { USAGE, parseCliArguments } from "./cli/args.ts";
import { cacheOptions } from "./cli/cache-options.ts";
import { catalogReport, formatCatalog } from "./cli/catalog-command.ts";
import { buildFirstRequest, formatPrompt } from "./cli/prompt-command.ts";
import { runConversation, startMcp } from "./cli/run-command.ts";
import { runInstallCommand } from "./cli/install-command.ts";
import { evalCommand, formatBudget } from "./cli/eval-command.ts";
import { catalogBudget } from "./prompt/catalog-budget.ts";
import { confirmationsForCreate } from "./session/session-confirmations.ts";

function write(text: string): void {
  process.stdout.write(text);
}

// `cli run | head` closes the pipe early: that is the reader saying "enough", not a failure.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

async function main(argv: string[]): Promise<number> {
  const args = parseCliArguments(argv);
  if (args.command === "help") {
    write(`${USAGE}\n`);
    return 0;
  }
  if (args.command === "install") return runInstallCommand(args, write);
  // Loaded only for export, so the other commands start no slower.
  if (args.command === "export") return (await import("./cli/export-command.ts")).exportCommand(args, write);
  if (args.evalMore?.subcommand === "compare") {
    await (await import("./cli/eval-optimize.ts")).evalCompare({ ...args.evalMore, ...args, write });
    return 0;
  }
  const workspace = await createWorkspace({
    workdir: args.workdir!,
    ...(args.home ? { home: args.home } : {}),
  });
  if (args.lintProfile) workspace.catalog.setProfile(args.lintProfile);
  const disclosure = args.eager ? "eager" : "progressive";
  try {
    return await runCommand(args, workspace, disclosure);
  } finally {
    // No MCP server outlives the command.
    await workspace.mcp.close();
  }
}

async function runCommand(
  args: ReturnType<typeof parseCliArguments>,
  workspace: Awaited<ReturnType<typeof createWorkspace>>,
  disclosure: "eager" | "progressive",
): Promise<number> {
  if (args.command === "catalog") {
    const { trust, problems } = await loadFolderPermission({
      workdir: workspace.workdir,
      home: workspace.home,
      ...(args.trust ? { via: "cli" as const } : {}),
    });
    for (const problem of problems) process.stderr.write(`warning: ${problem}\n`);
    await startMcp(workspace, trust, args.allowNetwork);
    const report = catalogReport(workspace, trust, args.catalogBudget);
    // --catalog-budget: which descriptions that client would cut or drop (a prediction from its rules).
    const budget = args.catalogBudget
      ? catalogBudget({ items: workspace.catalog.promptItems(), ...args.catalogBudget })
      : undefined;
    write(
      args.json
        ? `${JSON.stringify(budget ? { ...report, budget } : report, null, 2)}\n`
        : `${formatCatalog(report, workspace.home)}\n${budget ? `${formatBudget(budget)}\n` : ""}`,
    );
    return 0;
  }
  if (args.command === "prompt") {
    const report = await buildFirstRequest(workspace, {
      loads: args.load,
      disclosure,
      provider: args.provider,
      ...(args.model ? { model: args.model } : {}),
      ...(args.messages[0] !== undefined ? { message: args.messages[0] } : {}),
      trust: args.trust,
      ...(args.catalogBudget ? { listingBudget: args.catalogBudget } : {}),
      cache: cacheOptions(args),
    });
    write(
      args.json
        ? `${JSON.stringify(report, null, 2)}\n`
        : `${formatPrompt(report, sha256Hex(report.system.stable), workspace.home)}\n`,
    );
    return 0;
  }
  if (args.command === "eval") {
    await evalCommand(workspace, args, {
      write,
      writeProgress: (text) => process.stderr.write(text),
      progressIsTerminal: process.stderr.isTTY === true,
    });
    return 0;
  }
  await requireRunConfirmations(args, workspace.workdir);
  const outcomes = await runConversation(workspace, {
    provider: args.provider,
    model: args.model,
    baseUrl: args.baseUrl,
    scenario: args.scenario,
    messages: args.messages,
    yes: args.yes,
    json: args.json,
    disclosure,
    planMode: args.plan,
    refreshTools: args.refreshTools,
    mode: args.mode,
    trust: args.trust,
    allowNetwork: args.allowNetwork,
    honourAllowedTools: args.honourAllowedTools,
    ...(args.catalogBudget ? { listingBudget: args.catalogBudget } : {}),
    save: args.save,
    cache: cacheOptions(args),
    write,
  });
  return outcomes.every((outcome) => outcome.reason === "completed") ? 0 : 1;
}

/**
 * `run` on a workdir that is `/` or holds the home folder needs `--confirm broad_workdir`, as the page asks
 * before creating such a session (session-confirmations.ts); `--mode bypassPermissions` confirms itself.
 */
async function requireRunConfirmations(
  args: ReturnType<typeof parseCliArguments>,
  workdir: string,
): Promise<void> {
  const needed = await confirmationsForCreate({
    workdir,
    permissionMode: args.mode,
    homes: args.home ? [args.home] : [],
  });
  const missing = needed.filter(
    (item) => item.confirmation !== "bypass_permissions" && !args.confirm.includes(item.confirmation),
  );
  if (missing.length === 0) return;
  throw new PlaygroundError(
    "confirmation_required",
    `run needs a confirmation: ${missing.map((item) => item.reason).join("; ")}. ` +
      `Run it again with ${missing.map((item) => `--confirm ${item.confirmation}`).join(" ")} if you mean it.`,
    { confirm: missing.map((item) => item.confirmation) },
  );
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const prefix = error instanceof PlaygroundError ? `error (${error.code})` : "error";
    process.stderr.write(`${prefix}: ${errorMessage(error)}\n`);
    process.exitCode = 2;
  },
);
