// `cli run`: one conversation, one Runner run per --message, every event printed as it happens.
import path from "node:path";
import type { ChatMessage, DisclosureMode, PermissionMode } from "../protocol/model.ts";
import type { FolderTrust } from "../protocol/sandbox.ts";
import type { RunnerEvent } from "../protocol/runner-events.ts";
import type { ListingBudget } from "../prompt/stable-system.ts";
import { grantsSomething } from "../permission/trust.ts";
import { createProvider } from "../providers/index.ts";
import { registerConfiguredSecrets } from "../providers/config.ts";
import { RequestCounter, type RunOutcome } from "../runner/types.ts";
import { runUserMessage } from "../runner/slash.ts";
import type { Workspace } from "../session/workspace.ts";
import { UNTRUSTED_FOLDER } from "../mcp/mcp-servers.ts";
import { sandboxState } from "../tools/sandbox.ts";
import { ScriptedProvider } from "../providers/scripted.ts";
import { cacheDependencies, type CliCacheOptions } from "./cache-options.ts";
import { createCliPermission } from "./cli-permission.ts";
import { cachedSkillAllowRules } from "../session/skill-allows.ts";
import type { SavedRun } from "./saved-run.ts";
import { describeEvent } from "./event-text.ts";
import { describeTrust } from "./trust-text.ts";

export const DEFAULT_RUN_MESSAGE = "Please help me with this project.";

export interface RunCommandOptions {
  provider: string;
  model?: string;
  baseUrl?: string;
  scenario?: string;
  messages: string[];
  yes: boolean;
  json: boolean;
  disclosure: DisclosureMode;
  planMode: boolean;
  refreshTools: boolean;
  /** Permission mode (default `default`). */
  mode?: PermissionMode;
  /** --trust: the workdir's own allow rules apply for this command. */
  trust?: boolean;
  /** Network inside the sandbox for the run's commands (default off). */
  allowNetwork?: boolean;
  /** --honour-allowed-tools: loaded skills' allowed-tools become allow rules while active (default off). */
  honourAllowedTools?: boolean;
  /** --catalog-budget: trim the index as a client profile would (default off). */
  listingBudget?: ListingBudget;
  /** --save: write the session log where the server keeps them, and print its id at the end. */
  save?: boolean;
  /** --cache-model, --cache-breakpoints, --skill-placement. */
  cache?: CliCacheOptions;
  write: (text: string) => void;
}

/** The one line the CLI prints about the sandbox (red when it is off and stderr is a terminal). */
export function sandboxLine(allowNetwork: boolean, colour = process.stderr.isTTY === true): string {
  const state = sandboxState(allowNetwork);
  if (state.enabled) return `sandbox: on (bubblewrap, network ${state.network ? "on" : "off"})\n`;
  const text = `sandbox off: ${state.reason ?? "unavailable"}`;
  return colour ? `\x1b[31m${text}\x1b[0m\n` : `${text}\n`;
}

/**
 * Starts the MCP servers (the workdir's own when trusted, as they were trusted); failures and bad config
 * are warnings on stderr. `network`: --allow-network (an HTTP server on another host needs it).
 */
export async function startMcp(workspace: Workspace, trust: FolderTrust, network = false): Promise<void> {
  await workspace.mcp.setSessionNetwork(network);
  await workspace.startMcp(trust);
  for (const warning of workspace.mcp.warnings) process.stderr.write(`warning: ${warning}\n`);
  for (const server of workspace.mcp.views()) {
    if (server.status === "failed")
      process.stderr.write(`warning: MCP server ${server.name} failed: ${server.error}\n`);
    if (server.status === "withheld")
      process.stderr.write(
        `note: MCP server ${server.name} (${server.configFile}) not started: ${server.error === UNTRUSTED_FOLDER || !server.error ? "the folder is not trusted (--trust)" : server.error}\n`,
      );
  }
}

export async function runConversation(
  workspace: Workspace,
  options: RunCommandOptions,
): Promise<RunOutcome[]> {
  // Seam for every provider: the providers module's factory (scripted, manual, anthropic, openai).
  const provider = await createProvider({
    name: options.provider,
    ...(options.model ? { model: options.model } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    ...(options.scenario ? { scenario: path.resolve(options.scenario) } : {}),
  });
  // Text mode prints the model's words as they stream (a real model can take seconds per answer); the
  // assistant_message that follows is then not printed again.
  let streaming = "";
  let shown = "";
  const permission = await createCliPermission({
    yes: options.yes,
    workdir: workspace.workdir,
    home: workspace.home,
    mode: options.mode ?? "default",
    trust: options.trust === true,
    allowNetwork: options.allowNetwork === true,
  });
  const allowRules = cachedSkillAllowRules();
  permission.setScopedAllows(() =>
    allowRules({
      honour: options.honourAllowedTools === true,
      trusted: permission.trust.trusted,
      active: workspace.activeSkills.list(),
      catalog: workspace.catalog,
    }),
  );
  // No configured key (environment or <home>/.PseudoClaude/providers.json) is ever printed (S11).
  registerConfiguredSecrets({ home: workspace.home });
  const recording = provider instanceof ScriptedProvider ? provider.currentScenario?.recorded : undefined;
  if (recording && !options.json)
    process.stderr.write(
      `replay of a recorded session${recording.session ? ` (${recording.session}, ${recording.provider ?? "?"}/${recording.model ?? "?"})` : ""}\n`,
    );
  const saved: SavedRun | undefined = options.save
    ? await (
        await import("./saved-run.ts")
      ).startSavedRun(workspace.home, workspace, {
        workdir: workspace.workdir,
        provider: options.provider,
        model: provider.model,
        permissionMode: options.mode ?? "default",
        disclosure: options.disclosure,
        ...(options.scenario ? { scenario: path.resolve(options.scenario) } : {}),
        ...(options.refreshTools ? { refreshToolsEachIteration: true } : {}),
        ...(options.allowNetwork ? { allowNetwork: true } : {}),
        ...(options.honourAllowedTools ? { honourAllowedTools: true } : {}),
        ...(workspace.catalog.profile !== "lenient" ? { lintProfile: workspace.catalog.profile } : {}),
        // A saved replay opens in the browser as one ("replay of a recorded session" in the header).
        ...(recording ? { replayOf: recording.session ?? "a recorded scenario" } : {}),
      })
    : undefined;
  const onEvent = (unredacted: RunnerEvent) => {
    // Every run says which sandbox its processes run in (the engine's, when the Runner did not say).
    const raw = workspace.secrets.redact(unredacted);
    const event: RunnerEvent =
      raw.type === "run_started" && raw.sandbox === undefined ? { ...raw, sandbox: permission.sandbox } : raw;
    saved?.record(event);
    if (options.json) return options.write(`${JSON.stringify(event)}\n`);
    if (event.type === "text_delta") {
      options.write(streaming === "" ? `◆ assistant: ${event.text}` : event.text);
      streaming += event.text;
      return;
    }
    if (streaming !== "") {
      options.write("\n");
      shown = streaming;
      streaming = "";
    }
    if (
      event.type === "assistant_message" ||
      (event.type === "history_appended" &&
        event.message.role === "assistant" &&
        event.requestIndex !== undefined)
    ) {
      const repeated = event.message.content === shown;
      shown = "";
      if (repeated) return;
    }
    const text = describeEvent(event);
    if (text !== undefined) options.write(`${text}\n`);
  };
  for (const problem of permission.problems) process.stderr.write(`warning: ${problem}\n`);
  if (!permission.trust.trusted && grantsSomething(permission.trust.grants))
    process.stderr.write(
      `note: ${permission.trust.folder} is ${describeTrust(permission.trust, workspace.home)}\n`,
    );
  if (!options.json) process.stderr.write(sandboxLine(options.allowNetwork === true));
  // MCP servers start with the run and end with the command (server/cli.ts closes them).
  await startMcp(workspace, permission.trust, options.allowNetwork === true);
  const history: ChatMessage[] = [];
  const deps = workspace.runnerDependencies({
    provider,
    permission: permission.hook,
    onEvent,
    history,
    disclosure: options.disclosure,
    ...(options.listingBudget ? { listingBudget: options.listingBudget } : {}),
    requestCounter: new RequestCounter(),
    allowNetwork: options.allowNetwork === true,
    ...cacheDependencies(options.cache, provider, workspace.home, (line) =>
      process.stderr.write(`${line}\n`),
    ),
  });
  // Stop on Ctrl-C like the browser's Stop button: the run ends `canceled` and its processes are killed.
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once("SIGINT", onSigint);
  const outcomes: RunOutcome[] = [];
  try {
    for (const message of options.messages.length > 0 ? options.messages : [DEFAULT_RUN_MESSAGE]) {
      const outcome = await runUserMessage(message, deps, {
        signal: controller.signal,
        planMode: options.planMode,
        refreshToolsEachIteration: options.refreshTools,
      });
      outcomes.push(outcome);
      if (controller.signal.aborted) break;
    }
  } finally {
    process.removeListener("SIGINT", onSigint);
    await saved?.close();
  }
  if (saved)
    options.write(
      options.json
        ? `${JSON.stringify({ type: "session_saved", sessionId: saved.id })}\n`
        : `saved session ${saved.id} (${saved.file})\n`,
    );
  return outcomes;
}
