// `cli run`: a real session (server/session) driven headless over an in-memory transport, as a browser
// tab drives one (headless-session.ts). Each --message is one run in the same conversation; the person
// who would answer approvals is the --yes flag (without it a call that asks is denied, and the model is
// told why). The session writes its own log; --save keeps it where the server keeps its sessions.
import { realpath } from "node:fs/promises";
import os from "node:os";
import { PlaygroundError, errorMessage } from "../errors/index.ts";
import { grantsSomething } from "../permission/trust.ts";
import type { SessionConfirmation } from "../protocol/sandbox.ts";
import type { SessionSettings } from "../protocol/wire.ts";
import { createProvider, ScriptedProvider } from "../providers/index.ts";
import { loadProvidersConfig } from "../providers/config.ts";
import type { Provider } from "../providers/types.ts";
import { confirmationsForCreate } from "../session/session-confirmations.ts";
import { heldWritesLine, sandboxState } from "../tools/sandbox.ts";

import type { CliArguments } from "./args.ts";
import { cacheSettings } from "./cache-options.ts";
import { mcpServerNotes } from "./catalog-command.ts";
import { CLI_DENIAL, cliSessionParts } from "./cli-parts.ts";
import { HeadlessSession } from "./headless-session.ts";
import type { CliIo, CliRoot } from "./io.ts";
import { isRunnerEvent, RunPrinter } from "./run-output.ts";
import { describeTrust } from "./trust-text.ts";

export { CLI_DENIAL } from "./cli-parts.ts";

export const DEFAULT_RUN_MESSAGE = "Please help me with this project.";

/** The one line the CLI prints about the sandbox (red when it is off and stderr is a terminal). */
export function sandboxLine(allowNetwork: boolean, colour: boolean): string {
  const state = sandboxState(allowNetwork);
  if (state.enabled)
    return `sandbox: on (bubblewrap, network ${state.network ? "on" : "off"})\n${heldWritesLine(state)}\n`;
  const text = `sandbox off: ${state.reason ?? "unavailable"}`;
  return colour ? `\x1b[31m${text}\x1b[0m\n` : `${text}\n`;
}

async function checkedWorkdir(workdir: string): Promise<string> {
  try {
    return await realpath(workdir);
  } catch (error) {
    throw new PlaygroundError(
      "not_found",
      `working directory ${workdir} does not exist: ${errorMessage(error)}`,
    );
  }
}

/**
 * `run` on a workdir that is `/` or holds the home folder needs `--confirm broad_workdir`, as the page asks
 * before creating such a session (session-confirmations.ts; the session checks it again); `--mode
 * bypassPermissions` confirms itself. Returns what the session is told was confirmed.
 */
async function runConfirmations(args: CliArguments, workdir: string): Promise<SessionConfirmation[]> {
  const needed = await confirmationsForCreate({
    workdir,
    permissionMode: args.mode,
    homes: args.home ? [args.home] : [],
  });
  const missing = needed.filter(
    (item) => item.confirmation !== "bypass_permissions" && !args.confirm.includes(item.confirmation),
  );
  if (missing.length > 0)
    throw new PlaygroundError(
      "confirmation_required",
      `run needs a confirmation: ${missing.map((item) => item.reason).join("; ")}. ` +
        `Run it again with ${missing.map((item) => `--confirm ${item.confirmation}`).join(" ")} if you mean it.`,
      { confirm: missing.map((item) => item.confirmation) },
    );
  return [...args.confirm, ...(args.mode === "bypassPermissions" ? ["bypass_permissions" as const] : [])];
}

/** The session settings the flags stand for (the log header of a saved run). */
function runSettings(args: CliArguments, workdir: string, provider: Provider): SessionSettings {
  const recording = provider instanceof ScriptedProvider ? provider.currentScenario?.recorded : undefined;
  return {
    workdir,
    provider: args.provider,
    model: provider.model,
    permissionMode: args.mode,
    disclosure: args.eager ? "eager" : "progressive",
    ...(args.scenario ? { scenario: args.scenario } : {}),
    ...(args.refreshTools ? { refreshToolsEachIteration: true } : {}),
    ...(args.allowNetwork ? { allowNetwork: true } : {}),
    ...(args.catalogBudget ? { catalogBudget: args.catalogBudget } : {}),
    ...(args.honourAllowedTools ? { honourAllowedTools: true } : {}),
    ...(args.lintProfile ? { lintProfile: args.lintProfile } : {}),
    // A saved replay opens in the browser as one ("replay of a recorded session" in the header).
    ...(recording ? { replayOf: recording.session ?? "a recorded scenario" } : {}),
    ...cacheSettings(args),
  };
}

/** Runs the conversation; exit code 0 when every run completed, 1 otherwise. */
export async function runCommand(args: CliArguments, io: CliIo, root: CliRoot): Promise<number> {
  const home = args.home ?? os.homedir();
  const workdir = await checkedWorkdir(args.workdir!);
  const confirm = await runConfirmations(args, workdir);
  // Seam for every provider: the providers module's factory. Built before the session, so a bad scenario
  // or a missing key is an error (exit 2) before anything starts.
  const provider = await createProvider({
    name: args.provider,
    ...(args.model ? { model: args.model } : {}),
    ...(args.baseUrl ? { baseUrl: args.baseUrl } : {}),
    ...(args.scenario ? { scenario: args.scenario } : {}),
    config: loadProvidersConfig({ home, env: io.env, secrets: root.secrets }),
    secrets: root.secrets,
  });
  const recording = provider instanceof ScriptedProvider ? provider.currentScenario?.recorded : undefined;
  if (recording && !args.json)
    io.stderr(
      `replay of a recorded session${recording.session ? ` (${recording.session}, ${recording.provider ?? "?"}/${recording.model ?? "?"})` : ""}\n`,
    );
  const printer = new RunPrinter(args.json, io.stdout);
  let session: HeadlessSession | undefined;
  const { session: opened, summary } = await HeadlessSession.open({
    home,
    settings: runSettings(args, workdir, provider),
    confirm,
    parts: await cliSessionParts({ home, workdir, trust: args.trust, provider, secrets: root.secrets }),
    provider: {
      name: args.provider,
      configured: true,
      defaultModel: provider.model,
      offline: provider instanceof ScriptedProvider,
    },
    save: args.save,
    processes: root.processes,
    tokens: root.tokens,
    secrets: root.secrets,
    onEvent: (event) => {
      if (isRunnerEvent(event)) {
        printer.print(event);
        // The person who answers is the --yes flag.
        if (event.type === "permission_request")
          session?.answerApproval(
            event.request.callId,
            args.yes ? { kind: "allow_once" } : { kind: "deny", reason: CLI_DENIAL },
          );
      } else if (event.type === "session_error") io.stderr(`warning: ${event.message}\n`);
    },
    onRefused: (_code, message) => io.stderr(`warning: ${message}\n`),
  });
  session = opened;
  const outcomes: string[] = [];
  try {
    const trust = summary.trust;
    if (trust && !trust.trusted && grantsSomething(trust.grants))
      io.stderr(`note: ${trust.folder} is ${describeTrust(trust, home)}\n`);
    if (!args.json) io.stderr(sandboxLine(args.allowNetwork, io.stderrIsTerminal));
    // The MCP servers start with the session; the first request waits for them, as the CLI always has.
    await session.mcpStarted();
    for (const line of mcpServerNotes(session.mcpServers())) io.stderr(`${line}\n`);
    // Ctrl-C stops the run like the browser's Stop button: it ends `canceled` and its processes are killed.
    let interrupted = false;
    const stopListening = io.onInterrupt(() => {
      interrupted = true;
      session?.cancel();
    });
    try {
      for (const message of args.messages.length > 0 ? args.messages : [DEFAULT_RUN_MESSAGE]) {
        const stop = await session.sendMessage(message, args.plan ? { planMode: true } : {});
        outcomes.push(stop.reason);
        if (interrupted) break;
      }
    } finally {
      stopListening();
    }
  } finally {
    await session.close();
  }
  if (args.save)
    io.stdout(
      args.json
        ? `${JSON.stringify({ type: "session_saved", sessionId: session.id })}\n`
        : `saved session ${session.id} (${session.logFile})\n`,
    );
  return outcomes.every((reason) => reason === "completed") ? 0 : 1;
}
