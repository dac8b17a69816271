import type { ToolCategory } from "./model.ts";
import type { SandboxState } from "./sandbox.ts";

export type PermissionDecisionKind = "allow" | "ask" | "deny";
export type PermissionSource =
  | "rule"
  | "mode"
  | "list"
  | "session"
  | "user"
  | "hook"
  | "protected_path"
  /** The shell parser could not fully understand the command (substitution, eval, parse error, …). */
  | "parser"
  /** The OS sandbox is off, so every exec call asks. */
  | "sandbox";

/** Why a tool call was allowed, asked or denied. Attached to the tool result and shown in the inspector. */
export interface PermissionTrace {
  decision: PermissionDecisionKind;
  source: PermissionSource;
  /** The rule text that decided, e.g. `deny run_command(rm *)`, or the mode name, or the list entry. */
  rule?: string;
  category: ToolCategory;
  /** The command or path the decision was about. */
  target?: string;
  reason?: string;
  /** Exec calls: the sandbox the process runs in (or why it runs without one). */
  sandbox?: SandboxState;
  /** Set when the path is a file of a loaded skill's folder: `skill resource of <name>`. */
  resource?: string;
  /** Characters in the command or path that are shown escaped (bidi, zero-width, control), e.g. `\\u202E`. */
  hiddenCharacters?: string[];
  /** The loaded skills whose allowed-tools pre-approved the call ("honour allowed-tools" on). */
  preApprovedBy?: string[];
}

/** What the user is shown when a tool call needs approval. */
export interface ApprovalRequest {
  callId: string;
  tool: string;
  category: ToolCategory;
  input: unknown;
  /** The exact shell command or argv (joined) for exec tools. */
  command?: string;
  /** The path (relative to the workdir) for file tools. */
  path?: string;
  cwd: string;
  /** For skill tools: the exact JSON written to stdin. */
  stdin?: string;
  /** The loaded skill whose folder the path (or a script the command runs) belongs to. */
  skill?: string;
  /** For MCP tools: the server, its name for the tool, and its annotations (hints from the server, not guarantees). */
  mcp?: { server: string; tool: string; annotations?: Record<string, unknown> };
  trace: PermissionTrace;
  /**
   * Secrets the call carries (a provider key, a credential of the session's MCP configuration): each
   * reads `[secret: NAME]` in the command, path, stdin and input, and the card names it and warns.
   */
  secrets?: { name: string; source: string }[];
}

export type { ApprovalAnswer } from "./schemas.ts";
