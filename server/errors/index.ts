// Error codes shared by every layer. Tool boundaries return failures as data ({ ok: false, errorType });
// inside a module, code throws PlaygroundError with one of these codes.

export type ErrorType =
  | "invalid_arguments"
  | "unknown_tool"
  | "unknown_skill"
  | "permission_denied"
  | "path_refused"
  | "not_found"
  | "io_error"
  | "binary_file"
  | "edit_mismatch"
  | "timeout"
  | "command_failed"
  | "spawn_failed"
  | "canceled"
  /** The session is running a turn; the command may be sent again once it stops. */
  | "run_in_progress"
  | "provider_error"
  | "invalid_scenario"
  | "invalid_frame"
  /** A risky session (broad workdir, bypassPermissions) was not confirmed; `details.confirm` lists what. */
  | "confirmation_required"
  | "internal";

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
