// INTERFACE STUB — implemented by the tools/process owner (issue 3). Signatures are fixed; keep them.
// One module runs every child process (run_command and skill command tools): execa, a process group per
// call, tree kill on timeout / cancel / server shutdown, bounded retained output, stdin given then closed.

export interface ProcessOptions {
  /** Program and arguments (argv form). Mutually exclusive with `shellCommand`. */
  file?: string;
  args?: string[];
  /** A shell command line run with /bin/sh -c (run_command). */
  shellCommand?: string;
  cwd: string;
  /** Written to stdin, then stdin is closed. Absent: stdin is closed at once. */
  input?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Bytes of stdout/stderr each kept in memory (head and tail); default 1 MiB. */
  maxRetainedBytes?: number;
  env?: Record<string, string>;
}

export interface ProcessOutcome {
  exitCode: number | null;
  /** Signal that ended the process, if any. */
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  canceled: boolean;
  /** Set when the program could not be started (ENOENT, EACCES, ...). */
  spawnError?: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  stdoutBytes: number;
  stderrBytes: number;
  durationMs: number;
}

export async function runProcess(_options: ProcessOptions): Promise<ProcessOutcome> {
  throw new Error("runProcess: not implemented yet");
}

/** Kills every live process group started by runProcess (server shutdown). */
export async function killAllProcesses(): Promise<void> {}
