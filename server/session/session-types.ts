// What a Session is built from. The hub wires the concrete parts (workspace, permission engine, provider)
// through these small seams so the session logic does not depend on how each is constructed.
import type { ExitHooks } from "../tools/exit-hooks.ts";
import type { TokenCounter } from "../prompt/segments.ts";
import type { PermissionMode } from "../protocol/model.ts";
import type { ScopedAllowRule } from "../permission/scoped-allows.ts";
import type { PermissionCheck, PermissionTrace } from "../permission/types.ts";
import type { AwaitingInputListener, Provider } from "../providers/types.ts";
import type { SecretScope } from "../providers/redact.ts";
import type { PromptSources } from "../runner/types.ts";
import type { ActiveSkills } from "../skills/active-skills.ts";
import type { Catalog } from "../skills/catalog.ts";
import type { CatalogLayers, ReloadDiff } from "../skills/types.ts";
import type { McpServers } from "../mcp/mcp-servers.ts";
import type { Registry } from "../tools/registry.ts";
import type { SandboxState } from "../protocol/sandbox.ts";
import type { SessionSettings } from "../protocol/wire.ts";
import type { FolderTrust, TrustAnswer } from "../protocol/sandbox.ts";

/** One session's skills and tools: its own catalog (the project layer depends on the workdir). */
export interface SessionWorkspace {
  /** Realpath of the working directory. */
  workdir: string;
  layers: CatalogLayers;
  catalog: Catalog;
  registry: Registry;
  activeSkills: ActiveSkills;
  prompt: PromptSources;
  /** Rescans the layers and drops vanished skills from ActiveSkills (falls back to catalog.reload()). */
  reloadCatalog?(): Promise<ReloadDiff>;
  /** MCP servers (absent in workspaces built without them, e.g. some tests). */
  mcp?: McpServers;
  /** Starts the MCP servers; the workdir's own only when trusted, and only as they were trusted. */
  startMcp?(trust: boolean | FolderTrust): Promise<void>;
  /** The secrets its events are redacted of (provider keys and its workdir's credentials). */
  secrets?: SecretScope;
}

/** The permission engine as a session uses it (rules + mode; asking the user is the session's job). */
export interface PermissionEvaluator {
  evaluate(check: PermissionCheck): PermissionTrace | Promise<PermissionTrace>;
  rememberSessionAllow(check: PermissionCheck): void;
  /** Switches mode keeping "allow for this session" rules; without it the evaluator is rebuilt. */
  setMode?(mode: PermissionMode): void;
  /** Problems loading permission settings files, shown to the user. */
  loadProblems?: string[];
  /** Whether the workdir's own allow rules apply, and what they grant (absent: no folder trust here). */
  trust?: FolderTrust;
  /**
   * Trusts the workdir: its allow rules apply from the next call; `remember` writes the trust store.
   * `answer.digest`: what the prompt showed (grants that differ now are not trusted: asked again).
   * `problems`: what the user should know (a corrupt store that was replaced).
   */
  trustFolder?(remember: boolean, answer?: TrustAnswer): Promise<{ trust: FolderTrust; problems: string[] }>;
  /** The sandbox exec calls run in (the engine asks for every exec call when it is off). */
  setSandbox?(sandbox: SandboxState): void;
  /** Allow rules scoped to the session (loaded skills' allowed-tools), read at every call. */
  setScopedAllows?(source: () => readonly ScopedAllowRule[]): void;
}

export interface SessionParts {
  /** `secrets`: the session's, which its workdir's MCP credentials join (SECURITY S21). */
  createWorkspace(options: {
    workdir: string;
    home: string;
    secrets?: SecretScope;
    /** The composition root's exit hooks (its ProcessRunner's), for the MCP servers' last-resort kill. */
    exitHooks?: ExitHooks;
    /** The composition root's token counter. */
    tokens?: TokenCounter;
    /** A reopen: a workdir that no longer exists does not refuse the open (workspace.ts). */
    missingOk?: boolean;
  }): Promise<SessionWorkspace>;
  createPermission(options: {
    mode: PermissionMode;
    workdir: string;
    home: string;
    /** The session's network setting, for the sandbox state the engine reports. */
    allowNetwork?: boolean;
  }): Promise<PermissionEvaluator>;
  /**
   * The "cache as" model applies to real providers too (the CLI's --cache-model does; the page's setting
   * is for the offline providers only). Default false.
   */
  cacheAsForAnyProvider?: boolean;
  createProvider(options: {
    settings: SessionSettings;
    /** A provider that waits for the person (the manual one) reports each waiting turn here. */
    onAwaitingInput: AwaitingInputListener;
  }): Promise<Provider>;
}
