// One conversation's wiring, shared by the CLI and the server: the realpath'd workdir, the Catalog over
// the three layers, a Registry with the protected system tools and load_skill, ActiveSkills, dependency
// validation, and the PromptSources the Runner reads before every request.
import { readFileSync } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PlaygroundError, errorMessage } from "../errors/index.ts";
import { isDemoCopy } from "../shared/demo-copy.ts";
import type { ChatMessage, DisclosureMode, ToolResult } from "../protocol/model.ts";
import type { FolderTrust } from "../protocol/sandbox.ts";
import type { RunnerEvent } from "../protocol/runner-events.ts";
import type { PermissionHook } from "../permission/types.ts";
import type { ListingBudget } from "../prompt/stable-system.ts";
import { TokenCounter } from "../prompt/segments.ts";
import type { Provider } from "../providers/types.ts";
import { SecretRedactor, SecretScope } from "../providers/redact.ts";
import type { SkillPlacement } from "../protocol/runner-events.ts";
import { createPromptSources } from "../runner/prompt-sources.ts";
import { CatalogFigures, createRequestHooks, type RequestCacheOptions } from "./request-hooks.ts";
import type { SlashDependencies } from "../runner/slash.ts";
import { RequestCounter, type PromptSources } from "../runner/types.ts";
import { loadMcpConfig } from "../mcp/config.ts";
import { McpServers } from "../mcp/mcp-servers.ts";
import { ActiveSkills } from "../skills/active-skills.ts";
import { Catalog, defaultLayers } from "../skills/catalog.ts";
import { McpSkillLoader } from "../skills/mcp-skill-loader.ts";
import { createLoadSkillTool, runLoadSkill } from "../skills/load-skill-tool.ts";
import type { CatalogLayers, ReloadDiff, RemovedSkill } from "../skills/types.ts";
import { Registry } from "../tools/registry.ts";
import type { ExitHooks } from "../tools/exit-hooks.ts";
import type { ProcessRunner } from "../tools/process-runner.ts";
import { registerSystemTools } from "../tools/system/index.ts";

function readVersion(): string {
  const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  return (JSON.parse(text) as { version?: string }).version ?? "0.0.0";
}

export const PLAYGROUND_VERSION = readVersion();

export interface WorkspaceOptions {
  workdir: string;
  /** Home folder for the user layer; default the real home. */
  home?: string;
  /** Builtin skills folder; default the repo's `skills/`. */
  builtinDir?: string;
  /** The session's secrets (its workdir's MCP credentials join them); default a scope of its own. */
  secrets?: SecretScope;
  /** The composition root's exit hooks, for the MCP servers' last-resort kill; default their own. */
  exitHooks?: ExitHooks;
  /** The composition root's token counter; default the workspace's own. */
  tokens?: TokenCounter;
  /**
   * A reopen: a workdir that no longer exists is kept as it was (the session's log stays readable; the
   * session refuses to run, server/session/workdir-state.ts) instead of refusing the open.
   */
  missingOk?: boolean;
}

export interface ConversationOptions {
  provider: Provider;
  permission: PermissionHook;
  onEvent: (event: RunnerEvent) => void;
  /** The conversation; a fresh empty one by default. */
  history?: ChatMessage[];
  disclosure?: DisclosureMode;
  maxIterations?: number;
  requestCounter?: RequestCounter;
  /** Network inside the sandbox for this conversation's processes (default off). */
  allowNetwork?: boolean;
  /** Optional listing budget of the skills index (default off). */
  listingBudget?: ListingBudget;
  /** Experiment: where active SOPs go; default "environment" (the design). */
  skillPlacement?: SkillPlacement;
  /** The request hooks' prompt-cache part (prediction, ledger, breakpoints); absent: none. */
  cache?: RequestCacheOptions;
  /** Starts the processes the run's tools start: the composition root's runner. */
  processes: ProcessRunner;
}

export interface Workspace {
  /** Realpath of the working directory. */
  workdir: string;
  /** The token counter its figures come from (the composition root's). */
  tokens: TokenCounter;
  home: string;
  /** The three layer folders the catalog scans. */
  layers: CatalogLayers;
  catalog: Catalog;
  registry: Registry;
  activeSkills: ActiveSkills;
  prompt: PromptSources;
  /** Skills removed by dependency validation at start (also in catalog.removed()). */
  removed: RemovedSkill[];
  /** The MCP servers whose tools join the Registry (none run until `startMcp`). */
  mcp: McpServers;
  /** What this workspace's events and tool results are redacted of: provider keys and its own credentials. */
  secrets: SecretScope;
  /**
   * Reads the MCP config (the workdir's servers only when trusted, and only as they were trusted) and
   * starts the servers; resolves when each is connected or failed. Skills are validated again whenever a
   * server comes up or goes away.
   */
  startMcp(trust: boolean | FolderTrust): Promise<void>;
  /** Everything a Runner (or a slash invocation) needs for this workspace. */
  runnerDependencies(options: ConversationOptions): SlashDependencies;
  /** Calls load_skill as the model would; returns its result. */
  loadSkill(name: string, args?: string): Promise<ToolResult>;
  /** Rescans the layers; skills that disappeared are dropped from ActiveSkills too. */
  reloadCatalog(): Promise<ReloadDiff>;
}

/** What to do about a missing workdir, when it is one the playground itself made and removed. */
function missingHint(workdir: string): string {
  const demoCopy = path.dirname(workdir) === os.tmpdir() && isDemoCopy(workdir);
  return demoCopy
    ? ". It was the demo copy of an earlier start, removed when that server stopped: open New session… to work on this start's copy"
    : "";
}

async function realDirectory(workdir: string, missingOk = false): Promise<string> {
  let resolved: string;
  try {
    resolved = await realpath(workdir);
  } catch (error) {
    if (missingOk) return path.resolve(workdir);
    throw new PlaygroundError(
      "not_found",
      `working directory ${workdir} does not exist: ${errorMessage(error)}${missingHint(workdir)}`,
    );
  }
  if (!(await stat(resolved)).isDirectory()) {
    if (missingOk) return resolved;
    throw new PlaygroundError("not_found", `working directory ${workdir} is not a folder`);
  }
  return resolved;
}

export async function createWorkspace(options: WorkspaceOptions): Promise<Workspace> {
  const workdir = await realDirectory(options.workdir, options.missingOk === true);
  const home = options.home ?? os.homedir();
  const secrets = options.secrets ?? new SecretScope(new SecretRedactor());
  const layers = defaultLayers(workdir, home);
  if (options.builtinDir) layers.builtin = options.builtinDir;
  const catalog = await Catalog.create(layers);
  const registry = new Registry();
  const activeSkills = new ActiveSkills();
  registerSystemTools(registry, { skillRoots: () => activeSkills.resourceRoots() });
  const mcp = new McpServers({
    registry,
    workdir,
    sandbox: { homes: [home] },
    clientVersion: PLAYGROUND_VERSION,
    ...(options.exitHooks ? { exitHooks: options.exitHooks } : {}),
  });
  // Skills MCP servers serve (SEP-2640): fetched from their own server when loaded, verified, cached.
  const mcpSkills = new McpSkillLoader({
    server: (name) => {
      const connection = mcp.connection(name);
      return connection?.status === "connected"
        ? connection
        : `MCP server ${name} is not connected (${connection?.status ?? "not configured"}${connection?.error ? `: ${connection.error}` : ""})`;
    },
    cacheDir: path.join(home, ".PseudoClaude", "mcp-skills"),
    entryChanged: (server, entry) => {
      mcp.connection(server)?.replaceSkillEntry(entry);
      catalog.setMcpSkills(mcp.skillListings());
    },
  });
  registry.register(createLoadSkillTool({ catalog, activeSkills, registry, mcpSkills }), { protected: true });
  const removed = catalog.validateTools(
    (name) => registry.isKnown(name),
    (name) => mcp.explainMissing(name),
  );
  // A server that comes up (or goes away) changes which skills can be followed: validated again.
  // Its skills join the catalog as `mcp:<server>` (or leave it) at the same moment.
  mcp.onChange((change) => {
    if (change !== "state") return;
    catalog.setMcpSkills(mcp.skillListings());
    catalog.validateTools((name) => registry.isKnown(name));
  });
  const prompt = createPromptSources({ catalog, activeSkills, workdir, version: PLAYGROUND_VERSION });
  // Kept across the runs of this workspace's Runners (runnerDependencies): see request-hooks.ts.
  const tokens = options.tokens ?? new TokenCounter();
  const catalogFigures = new CatalogFigures(tokens);

  return {
    workdir,
    tokens,
    home,
    layers: { ...catalog.layers },
    catalog,
    registry,
    activeSkills,
    prompt,
    removed,
    mcp,
    secrets,
    startMcp: async (trust) => {
      await mcp.start(await loadMcpConfig({ workdir, home, trusted: trust, secrets }));
    },
    runnerDependencies: (conversation) => {
      const sandbox = { network: conversation.allowNetwork === true, homes: [home] };
      return {
        provider: conversation.provider,
        registry,
        permission: conversation.permission,
        prompt,
        workdir,
        history: conversation.history ?? [],
        onEvent: conversation.onEvent,
        skills: catalog,
        ...(conversation.disclosure ? { disclosure: conversation.disclosure } : {}),
        ...(conversation.maxIterations ? { maxIterations: conversation.maxIterations } : {}),
        ...(conversation.requestCounter ? { requestCounter: conversation.requestCounter } : {}),
        sandbox,
        processes: conversation.processes,
        tokens,
        secrets,
        ...(conversation.listingBudget ? { listingBudget: conversation.listingBudget } : {}),
        ...(conversation.skillPlacement ? { skillPlacement: conversation.skillPlacement } : {}),
        skillRoots: () => activeSkills.resourceRoots(),
        hooks: createRequestHooks({
          tokens,
          registry,
          eagerBodies: prompt.eagerBodies,
          figures: catalogFigures,
          sandbox,
          ...(conversation.cache ? { cache: conversation.cache } : {}),
        }),
      };
    },
    loadSkill: async (name, args) => {
      return runLoadSkill(
        registry,
        { name, ...(args ? { arguments: args } : {}) },
        {
          workdir,
          callId: `manual_${name}`,
          signal: new AbortController().signal,
          sandbox: { network: false, homes: [home] },
        },
      );
    },
    reloadCatalog: async () => {
      const diff = await catalog.reload();
      for (const name of diff.removed) activeSkills.deactivate(name);
      return diff;
    },
  };
}
