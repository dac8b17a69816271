import { capForModel, capForUi } from "../output-cap.ts";
import type { ProcessOutcome } from "../process-runner.ts";
import { failResult, okResult, type ToolExecution } from "../types.ts";

/**
 * Turns a finished process into a tool result: stdout, then stderr and the exit status when they say
 * something. Failure types: `sandbox_violation`, `timeout`, `canceled`, `spawn_failed`, `command_failed`
 * (non-zero exit).
 */
export function processExecution(tool: string, outcome: ProcessOutcome, timeoutMs: number): ToolExecution {
  const sections: string[] = [];
  if (outcome.stdout.length > 0) sections.push(outcome.stdout.replace(/\n$/, ""));
  if (outcome.stderr.length > 0) sections.push(`[stderr]\n${outcome.stderr.replace(/\n$/, "")}`);
  const metadata: Record<string, unknown> = {
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    durationMs: Math.round(outcome.durationMs),
    stdoutBytes: outcome.stdoutBytes,
    stderrBytes: outcome.stderrBytes,
    stdoutTruncated: outcome.stdoutTruncated,
    stderrTruncated: outcome.stderrTruncated,
    timedOut: outcome.timedOut,
    canceled: outcome.canceled,
    ...(outcome.killedLeftovers ? { killedLeftovers: true } : {}),
    ...(outcome.sandbox ? { sandbox: outcome.sandbox } : {}),
  };

  let errorType: string | undefined;
  if (outcome.sandboxViolation !== undefined) {
    errorType = "sandbox_violation";
    sections.push(`[${outcome.sandboxViolation}]`);
  } else if (outcome.spawnError !== undefined) {
    errorType = "spawn_failed";
    sections.push(`[could not start: ${outcome.spawnError}]`);
  } else if (outcome.timedOut) {
    errorType = "timeout";
    sections.push(`[timed out after ${timeoutMs} ms; the process group was killed]`);
  } else if (outcome.canceled) {
    errorType = "canceled";
    sections.push("[canceled; the process group was killed]");
  } else if (outcome.exitCode !== 0) {
    errorType = "command_failed";
    sections.push(outcome.signal ? `[killed by ${outcome.signal}]` : `[exit code ${outcome.exitCode}]`);
  }
  if (outcome.killedLeftovers)
    sections.push("[background processes still running after the command exited were killed]");

  const full = sections.length > 0 ? sections.join("\n") : "(no output)";
  const forModel = capForModel(full);
  const result = errorType
    ? failResult(tool, errorType, forModel.text, metadata)
    : okResult(tool, forModel.text, metadata);
  return forModel.truncated ? { result, fullOutput: capForUi(full).text } : { result };
}
