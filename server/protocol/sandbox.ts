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
  /**
   * Sandbox on: whether a call's writes are held apart (an overlay) until the call has ended and they are
   * checked, so a host program never sees them before; false: each call is checked after it ends.
   */
  writesHeld?: boolean;
  /** Why writes are not held (e.g. "unshare --user refused"). */
  writesHeldReason?: string;
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
  /** MCP servers of the folder the user allowed network for when trusting it (the prompt's per-server tick). */
  networkServers?: string[];
  /**
   * Why a folder trusted before asks again: trust covers the content that was shown, so a configuration
   * that grants something new or different since (`changes`, one line each), or a trust recorded before
   * content was (an old trusted-folders.json entry), is not trusted until the user answers again.
   */
  renewal?: TrustRenewal;
}

export interface TrustRenewal {
  reason: string;
  /** What differs from what was trusted, one line each (empty for an entry that recorded no content). */
  changes: string[];
  /** When it was trusted before. */
  trustedAt?: string;
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
  /** Each MCP server the folder configures, as the trust prompt shows it (never an env or header value). */
  servers?: McpServerGrant[];
  /**
   * sha256 over everything granted, values included. The trust prompt answers with it, so trust covers
   * exactly what was shown: a configuration changed meanwhile asks again.
   */
  digest?: string;
}

/** One MCP server a folder would start once trusted: what it runs and what it may reach. */
export interface McpServerGrant {
  name: string;
  /** The file that configures it. */
  configFile: string;
  transport: "stdio" | "http";
  /** stdio: the program, its arguments, its working directory (absolute). */
  command?: string;
  args?: string[];
  cwd?: string;
  /** stdio: the names of the variables its `env` sets (values are never shown or stored). */
  envNames?: string[];
  /** http: the URL, and the names of the headers sent with it. */
  url?: string;
  headerNames?: string[];
  /** stdio: its own `"network"` setting (network inside its sandbox). */
  network: boolean;
  /** Why it needs the network to start (`npx -y` downloads, a URL on another machine), when it does. */
  needsNetwork?: string;
  /** sha256 of its whole configuration, values included: what trust is bound to. */
  fingerprint: string;
}

/** The user's answer to the trust prompt, besides "remember". */
export interface TrustAnswer {
  /** The grants' digest the prompt showed: a folder whose grants differ now is not trusted (asked again). */
  digest?: string;
  /** MCP servers of the folder to run with network (the prompt's per-server tick). */
  networkServers?: string[];
}

/** Confirmations a risky session needs from the user before it is created (or switched). */
export type SessionConfirmation =
  /** The workdir is `/` or contains the user's home folder. */
  | "broad_workdir"
  /** bypassPermissions: every tool call runs without asking (the dangerous list still applies). */
  | "bypass_permissions";
