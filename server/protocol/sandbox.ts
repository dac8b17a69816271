// The operating-system sandbox and folder trust, as the pages, the CLI and the logs see them.

/** Whether the processes the agent starts (run_command, skill tools) run under the OS sandbox, and how. */
export interface SandboxState {
  /** True when every process the agent starts runs under bubblewrap. */
  enabled: boolean;
  mechanism: "bubblewrap" | "none";
  /** Network access inside the sandbox: a per-session setting, off by default. */
  network: boolean;
  /** Why the sandbox is off, e.g. "bwrap not found on PATH" or "user namespaces refused: …". */
  reason?: string;
}

/** Whether a workdir's own `.PseudoClaude/settings.json` allow rules (and MCP servers) take effect. */
export interface FolderTrust {
  /** Realpath of the working directory. */
  folder: string;
  trusted: boolean;
  /**
   * Why it is trusted: remembered in `~/.PseudoClaude/trusted-folders.json`, the server's own demo copy,
   * `--trust` on the CLI, or the user's answer in this session (not remembered).
   */
  via?: "remembered" | "demo" | "cli" | "session";
  /** What the folder's own settings grant once trusted (shown in the trust prompt). */
  grants: FolderGrants;
}

export interface FolderGrants {
  /** The settings file the grants come from (absolute path), if any. */
  settingsFile?: string;
  /** Allow rules as written, e.g. `run_command(*)`. Deny and ask rules always apply and are not listed. */
  allow: string[];
  /** Names of MCP servers the folder configures (starting one runs code). */
  mcpServers: string[];
  /** A `permissions.defaultMode` the folder asks for, if any (ignored until trusted). */
  defaultMode?: string;
}

/** Confirmations a risky session needs from the user before it is created (or switched). */
export type SessionConfirmation =
  /** The workdir is `/` or contains the user's home folder. */
  | "broad_workdir"
  /** bypassPermissions: every tool call runs without asking (the dangerous list still applies). */
  | "bypass_permissions";
