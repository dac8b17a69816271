// Error codes shared by every layer. Tool boundaries return failures as data ({ ok: false, errorType });
// inside a module, code throws PlaygroundError with one of these codes.

export type ErrorType =
  | "invalid_arguments"
  | "unknown_tool"
  | "unknown_skill"
  | "permission_denied"
  | "path_refused"
  | "not_found"
  /** A file tool was given a folder where it needs a file. */
  | "is_directory"
  /** A FIFO, device or socket where a regular file is needed. */
  | "not_a_file"
  /** A file where a folder is needed. */
  | "not_a_directory"
  /** The operating system refused the access (EACCES, EPERM); not a permission rule. */
  | "permission_error"
  | "io_error"
  | "binary_file"
  /** search_code: the pattern overran its time budget (catastrophic backtracking). */
  | "search_timeout"
  /** edit_file: `old_string` does not occur in the file. */
  | "edit_no_match"
  /** edit_file: `old_string` occurs more than once and `replace_all` is not set. */
  | "edit_not_unique"
  | "timeout"
  | "command_failed"
  | "spawn_failed"
  /** A sandboxed call planted something the sandbox had to undo (e.g. a `.git/commondir`); it failed. */
  | "sandbox_violation"
  | "canceled"
  /** The session is running a turn; the command may be sent again once it stops. */
  | "run_in_progress"
  | "provider_error"
  | "invalid_scenario"
  /** A trigger-lab eval file (triggers.yaml) is missing, unparsable or has a bad field. */
  | "invalid_eval"
  | "invalid_frame"
  /** A risky session (broad workdir, bypassPermissions) was not confirmed; `details.confirm` lists what. */
  | "confirmation_required"
  /** Session errors (`session_error` events), not tool results. The session log is written again after a write error. */
  | "log_recovered"
  /** The session log had torn or unreadable records; they were skipped. */
  | "log_damaged"
  /** A reopened session could not restore part of its state (a skill, settings). */
  | "restore_failed"
  /** A catalog reload was held because an agent wrote into a skills folder. */
  | "catalog_reload_held"
  /** A permission settings file could not be read or has invalid rules. */
  | "permission_settings"
  /** An MCP server answered a tool call with a protocol error, or is not connected. */
  | "mcp_error"
  | "internal";

/** The ErrorType values a tool result's `errorType` uses when a process ends badly. */
export type ProcessErrorType =
  "spawn_failed" | "timeout" | "canceled" | "command_failed" | "sandbox_violation";

export class PlaygroundError extends Error {
  readonly code: ErrorType;
  readonly details?: Record<string, unknown>;
  constructor(code: ErrorType, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "PlaygroundError";
    this.code = code;
    this.details = details;
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
