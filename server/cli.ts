// Composition root of the command line: `npm run -s cli -- <catalog|prompt|run> ...` (see server/cli/args.ts).
import { PlaygroundError, errorMessage } from "./errors/index.ts";
import { loadFolderPermission } from "./permission/trust.ts";
import { sha256Hex } from "./prompt/hash.ts";
import { createWorkspace } from "./session/workspace.ts";
import { USAGE, parseCliArguments } from "./cli/args.ts";
import { cacheOptions } from "./cli/cache-options.ts";
import { catalogReport, formatCatalog } from "./cli/catalog-command.ts";
import { buildFirstRequest, formatPrompt } from "./cli/prompt-command.ts";
import { runConversation } from "./cli/run-command.ts";

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
  const workspace = await createWorkspace({
    workdir: args.workdir!,
    ...(args.home ? { home: args.home } : {}),
  });
  const disclosure = args.eager ? "eager" : "progressive";

  if (args.command === "catalog") {
    const { trust, problems } = await loadFolderPermission({
      workdir: workspace.workdir,
      home: workspace.home,
      ...(args.trust ? { via: "cli" as const } : {}),
    });
    for (const problem of problems) process.stderr.write(`warning: ${problem}\n`);
    const report = catalogReport(workspace, trust);
    write(args.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatCatalog(report, workspace.home)}\n`);
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
      cache: cacheOptions(args),
    });
    write(
      args.json
        ? `${JSON.stringify(report, null, 2)}\n`
        : `${formatPrompt(report, sha256Hex(report.system.stable), workspace.home)}\n`,
    );
    return 0;
  }
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
    cache: cacheOptions(args),
    write,
  });
  return outcomes.every((outcome) => outcome.reason === "completed") ? 0 : 1;
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
