import type {
  ToolDefinition,
  ToolDenial,
  ToolEffect,
  ToolFailure,
  ToolResult,
  ToolResultMetadata,
  ToolSuccess,
} from "../protocol/model.ts";
import type { PermissionTrace } from "../protocol/permission.ts";
import type { ProcessRunner } from "./process-runner.ts";
import type { SandboxSettings } from "./sandbox.ts";

export type {
  ToolDefinition,
  ToolDenial,
  ToolEffect,
  ToolFailure,
  ToolResult,
  ToolResultMetadata,
  ToolSuccess,
};

/** What a tool gets for one call. */
export interface ToolContext {
  /** Realpath of the session's working directory. */
  workdir: string;
  callId: string;
  signal: AbortSignal;
  /**
   * The OS sandbox for processes this call starts: the session's network setting and the home folders
   * whose secrets are hidden. Absent: sandboxed with network off, hiding the real home's secrets.
   */
  sandbox?: SandboxSettings;
  /**
   * Starts the call's processes: the composition root's runner (the server's, a CLI command's, a test's),
   * which ends them at shutdown. The Runner always gives one; a context made for a call that starts no
   * process (load_skill from a slash command, a restore) may leave it out, and a tool that needs it then
   * fails saying so (`requireProcesses`).
   */
  processes?: ProcessRunner;
}

/** What a permission check and an approval card need to know about a call, computed before it runs. */
export interface ToolTarget {
  command?: string;
  path?: string;
  cwd: string;
  stdin?: string;
  /** Set by file tools when the path lies in `.git/` or `.PseudoClaude/`: writes there always ask. */
  protectedArea?: string;
  /** Set when the path is refused by workdir confinement; the permission engine denies such calls. */
  refusal?: string;
  /** The loaded skill whose folder the path (or a script the command runs) belongs to. */
  skillResource?: string;
  /** For MCP tools: the server, its name for the tool, and its annotations (hints shown on the approval card). */
  mcp?: { server: string; tool: string; annotations?: Record<string, unknown> };
  /**
   * A call that needs the person's consent by its nature, in every mode: loading a skill an MCP server
   * serves (SEP-2640). `key` is what the consent is bound to (the server, the skill's URI and its file
   * set); an approval of that key holds for the session, and any other key asks again.
   */
  consent?: {
    key: string;
    reason: string;
    /** "Allow once" holds for the session too (what is approved is content, not one call). */
    anyAllowHolds?: boolean;
  };
}

export interface ToolExecution {
  result: ToolResult;
  /** Full output for the UI, up to 1 MiB, when the model's copy was capped. */
  fullOutput?: string;
}

/**
 * A tool as the Registry holds it. `Input` is what its schema admits: the Registry validates a call's
 * input once against `definition.inputSchema` and only then hands it to `describe` and `execute`
 * (see `Registry.prepare`), so a tool never re-reads its input as `unknown`.
 */
export interface Tool<Input = never> {
  definition: ToolDefinition;
  /**
   * How the Registry checks a call's input: against `definition.inputSchema` (the default), or, for a tool
   * whose schema comes from elsewhere and cannot be compiled here (an MCP server's), only that it is an
   * object — registered with that check off rather than dropped.
   */
  inputCheck?: "schema" | "object";
  /** Describe the side effect of a call (command, path, stdin) for permission rules and approvals. */
  describe(input: Input, context: { workdir: string }): ToolTarget;
  /** Never throws: failures are data. */
  execute(input: Input, context: ToolContext): Promise<ToolExecution>;
}

/**
 * Declares a tool whose input has the type `Input`; its `inputSchema` must admit only such values (the
 * Registry checks every call against it before `describe` or `execute` sees the input).
 */
export function defineTool<Input>(tool: Tool<Input>): Tool<Input> {
  return tool;
}

export function okResult(
  tool: string,
  content: string,
  metadata?: ToolResultMetadata,
  effects?: ToolEffect[],
): ToolSuccess {
  return {
    ok: true,
    tool,
    content,
    ...(metadata ? { metadata } : {}),
    ...(effects && effects.length > 0 ? { effects } : {}),
  };
}

/** A failure the model reads: `content` and `error` are the same message. */
export function failResult(
  tool: string,
  errorType: ToolFailure["errorType"],
  error: string,
  metadata?: ToolResultMetadata,
): ToolFailure {
  return { ok: false, tool, content: error, errorType, error, ...(metadata ? { metadata } : {}) };
}

/** A call refused by a permission rule, a mode or the sandbox policy; the trace says which. */
export function deniedResult(tool: string, message: string, permission: PermissionTrace): ToolDenial {
  return {
    ok: false,
    tool,
    content: message,
    errorType: "permission_denied",
    error: message,
    metadata: { permission },
  };
}
