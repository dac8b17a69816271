// The CLI in-process: `main(argv, io)` with strings for stdout and stderr, the repo as the current folder,
// and a Ctrl-C button. Tests and benchmarks use it instead of a process per command (a process costs
// seconds of tsx start-up); the few tests of the real process (exit codes, signals, npm) spawn one.
import { fileURLToPath } from "node:url";
import type { RunnerEvent } from "../../protocol/runner-events.ts";
import { main } from "../main.ts";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunCliOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  stderrIsTerminal?: boolean;
  /** Called with stdout so far after each write; `interrupt()` is Ctrl-C. */
  onStdout?: (stdout: string, interrupt: () => void) => void;
  /** Called with each stdout write (a benchmark that reads the events as they come). */
  onWrite?: (text: string) => void;
  /** Called with stderr so far after each write. */
  onStderr?: (stderr: string) => void;
}

export async function runCli(argv: readonly string[], options: RunCliOptions = {}): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const listeners = new Set<() => void>();
  const interrupt = () => {
    for (const listener of [...listeners]) listener();
  };
  const code = await main(argv, {
    stdout: (text) => {
      stdout += text;
      options.onWrite?.(text);
      options.onStdout?.(stdout, interrupt);
    },
    stderr: (text) => {
      stderr += text;
      options.onStderr?.(stderr);
    },
    env: options.env ?? process.env,
    cwd: options.cwd ?? REPO_ROOT,
    stderrIsTerminal: options.stderrIsTerminal ?? false,
    onInterrupt: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  });
  return { code, stdout, stderr };
}

/** The JSON lines of `run --json` (Runner events, then `session_saved` with --save). */
export function jsonEvents(stdout: string): RunnerEvent[] {
  return stdout
    .trim()
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as RunnerEvent);
}

/** `run --workdir WORKDIR --home HOME --scenario SCENARIO`, the start of most run command lines. */
export function runFlags(workdir: string, home: string, scenario: string): string[] {
  return ["run", "--workdir", workdir, "--home", home, "--scenario", scenario];
}
