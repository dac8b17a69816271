import type { ToolDefinition, ToolResult } from "../protocol/model.ts";
import type { ProcessRunner } from "./process-runner.ts";
import type { SandboxSettings } from "./sandbox.ts";

export type { ToolDefinition, ToolResult };

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
  /** Starts the call's processes (the server's runner, which ends them at shutdown); absent: the default. */
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
}

export interface ToolExecution {
  result: ToolResult;
  /** Full output for the UI, up to 1 MiB, when the model's copy was capped. */
  fullOutput?: string;
}

export interface Tool {
  definition: ToolDefinition;
  /** Describe the side effect of a call (command, path, stdin) for permission rules and approvals. */
  describe(input: unknown, context: { workdir: string }): ToolTarget;
  /** Input has already been validated against definition.inputSchema. Never throws: failures are data. */
  execute(input: unknown, context: ToolContext): Promise<ToolExecution>;
}

export function okResult(tool: string, content: string, metadata?: Record<string, unknown>): ToolResult {
  return { ok: true, tool, content, ...(metadata ? { metadata } : {}) };
}

export function failResult(
  tool: string,
  errorType: string,
  error: string,
  metadata?: Record<string, unknown>,
): ToolResult {
  return { ok: false, tool, content: error, errorType, error, ...(metadata ? { metadata } : {}) };
}
