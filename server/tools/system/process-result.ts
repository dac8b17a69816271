import type { ProcessErrorType } from "../../errors/index.ts";
import { capForModel, capForUi } from "../output-cap.ts";
import type { ProcessOutcome } from "../process-runner.ts";
import { failResult, okResult, type ToolExecution, type ToolResultMetadata } from "../types.ts";

/** Characters of stderr kept in metadata (the model sees it in the content; the UI shows it always). */
const STDERR_METADATA_CAP = 8_000;

/** How one process call is described in its result. */
export interface ProcessCall {
  tool: string;
  /** The command as shown to the user (the shell line, or a skill tool's argv joined). */
  command: string;
  cwd: string;
  timeoutMs: number;
  /**
   * What the model reads: `combined` is stdout, then stderr, then the status (run_command); `stdout` is
   * stdout alone on success, and everything on failure (skill tools: their stdout is the result).
   */
  content: "combined" | "stdout";
  /** Fields of the tool's own (e.g. `skill`). */
  metadata?: ToolResultMetadata;
}

function errorTypeOf(outcome: ProcessOutcome): ProcessErrorType | undefined {
  if (outcome.sandboxViolation !== undefined) return "sandbox_violation";
  if (outcome.spawnError !== undefined) return "spawn_failed";
  if (outcome.timedOut) return "timeout";
  if (outcome.canceled) return "canceled";
  if (outcome.exitCode !== 0) return "command_failed";
  return undefined;
}

function statusLine(errorType: ProcessErrorType, outcome: ProcessOutcome, timeoutMs: number): string {
  switch (errorType) {
    case "sandbox_violation":
      return `[${outcome.sandboxViolation}]`;
    case "spawn_failed":
      return `[could not start: ${outcome.spawnError}]`;
    case "timeout":
      return `[timed out after ${timeoutMs} ms; the process group was killed]`;
    case "canceled":
      return "[canceled; the process group was killed]";
    case "command_failed":
      return outcome.signal ? `[killed by ${outcome.signal}]` : `[exit code ${outcome.exitCode}]`;
  }
}

/**
 * Said when a command whose writes were held (held-writes.ts) reports a cross-device rename: the one thing
 * the overlay changes for a program. Without it the model sees only "Invalid cross-device link" and has no
 * way to know why a plain rename of its own folder failed, nor what works instead.
 */
export const HELD_RENAME_HINT =
  '[this command ran with its writes held until checked (an overlay over the workdir): renaming a folder that existed before the command fails with EXDEV ("Invalid cross-device link"); `mv` works (it copies), or copy the folder and remove the original]';

function heldRenameFailed(outcome: ProcessOutcome): boolean {
  return (
    outcome.sandbox?.writesHeld === true && /EXDEV|cross-device link/i.test(outcome.stdout + outcome.stderr)
  );
}

/**
 * Turns a finished process into a tool result, for run_command and skill tools alike: stdout, then stderr
 * and the exit status when they say something. Failure types: `sandbox_violation` (the call planted
 * something the sandbox had to undo), `timeout`, `canceled`, `spawn_failed`, `command_failed` (non-zero exit). The metadata is the process vocabulary of ToolResultMetadata.
 */
export function processExecution(call: ProcessCall, outcome: ProcessOutcome): ToolExecution {
  const errorType = errorTypeOf(outcome);
  // A skill tool's successful stdout is its result exactly as printed (JSON, often).
  const stdoutOnly = call.content === "stdout" && !errorType;
  const sections: string[] = [];
  if (outcome.stdout.length > 0)
    sections.push(stdoutOnly ? outcome.stdout : outcome.stdout.replace(/\n$/, ""));
  if (outcome.stderr.length > 0 && !stdoutOnly)
    sections.push(`[stderr]\n${outcome.stderr.replace(/\n$/, "")}`);
  if (errorType) sections.push(statusLine(errorType, outcome, call.timeoutMs));
  if (heldRenameFailed(outcome)) sections.push(HELD_RENAME_HINT);
  if (outcome.killedLeftovers)
    sections.push("[background processes still running after the command exited were killed]");
  const full = sections.join("\n");
  const shown = full === "" ? "(no output)" : full;
  const forModel = capForModel(shown);
  const metadata: ToolResultMetadata = {
    ...call.metadata,
    command: call.command,
    cwd: call.cwd,
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    stderr: capForModel(outcome.stderr, STDERR_METADATA_CAP).text,
    durationMs: Math.round(outcome.durationMs),
    timeoutMs: call.timeoutMs,
    stdoutBytes: outcome.stdoutBytes,
    stderrBytes: outcome.stderrBytes,
    stdoutTruncated: outcome.stdoutTruncated,
    stderrTruncated: outcome.stderrTruncated,
    timedOut: outcome.timedOut,
    canceled: outcome.canceled,
    modelTruncated: forModel.truncated,
    omittedChars: forModel.omittedChars,
    ...(outcome.killedLeftovers ? { killedLeftovers: true } : {}),
    ...(outcome.sandbox ? { sandbox: outcome.sandbox } : {}),
    // What it wrote (only known when its writes were held: the card says "not known" otherwise).
    ...(outcome.writes
      ? {
          writes: outcome.writes.writes,
          ...(outcome.writes.omitted > 0 ? { writesOmitted: outcome.writes.omitted } : {}),
          ...(outcome.writes.omittedAtLeast ? { writesOmittedAtLeast: true } : {}),
        }
      : {}),
  };
  const result = errorType
    ? failResult(call.tool, errorType, forModel.text, metadata)
    : okResult(call.tool, forModel.text, metadata);
  return forModel.truncated || outcome.stdoutTruncated
    ? { result, fullOutput: capForUi(shown).text }
    : { result };
}
