// What a CLI command may touch of the process it runs in, passed in by the caller: server/cli.ts gives the
// real process's streams, environment, folder and Ctrl-C; tests give strings, a folder and a button. No
// command reads process.stdout, process.env, process.cwd() or installs a signal handler itself.
import type { TokenCounter } from "../prompt/segments.ts";
import type { SecretRedactor } from "../providers/redact.ts";
import type { ProcessRunner } from "../tools/process-runner.ts";

export interface CliIo {
  /** Standard output: the command's result (text, or JSON with --json). */
  stdout(text: string): void;
  /** Standard error: progress, warnings, notes and errors. */
  stderr(text: string): void;
  /** The environment (provider keys and endpoints). */
  env: Readonly<Record<string, string | undefined>>;
  /** The folder relative paths on the command line are resolved against. */
  cwd: string;
  /** Whether stderr is a terminal: a red "sandbox off", a redrawn progress bar. */
  stderrIsTerminal: boolean;
  /**
   * Ctrl-C while a command that can stop cleanly runs: `listener` is called on the first one (a run ends
   * `canceled`, its processes killed). Returns the function that stops listening; outside a listener's
   * lifetime Ctrl-C ends the process as usual.
   */
  onInterrupt(listener: () => void): () => void;
}

/**
 * What one command line owns for its life, made by `main` (the CLI's composition root) and ended when the
 * command returns: no module of the command keeps state of its own, so commands run in one process (tests)
 * never share it.
 */
export interface CliRoot {
  /** Starts the processes of the command's tools; its exit hooks are the MCP servers' last-resort kill too. */
  processes: ProcessRunner;
  /** The token counter of every figure the command shows. */
  tokens: TokenCounter;
  /** The provider keys the command redacts (the environment's, from `io.env`, and the configured ones). */
  secrets: SecretRedactor;
}
