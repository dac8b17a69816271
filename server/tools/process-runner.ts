// One module runs every child process (run_command and skill command tools): execa, a process group per
// call, tree kill on timeout / cancel / server shutdown, bounded retained output, stdin given then closed,
// a minimal environment from an allowlist (child-environment.ts), and — when a sandbox policy is given —
// bubblewrap around the program (sandbox.ts): its PID namespace with --die-with-parent ends every
// descendant with the call, on Stop, and with the server even on kill -9. bwrap runs with the launcher's
// fixed environment; the program's own (with the caller's `env`) is set inside the sandbox.
import { PlaygroundError } from "../errors/index.ts";
import { ExitHooks } from "./exit-hooks.ts";
import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import type { Readable } from "node:stream";
import { execa, type ResultPromise } from "execa";
import { BoundedCapture } from "./bounded-capture.ts";
import { childEnvironment, LAUNCHER_ENVIRONMENT } from "./child-environment.ts";
import {
  RUN_MARKER_VARIABLE,
  freezeCall,
  freezeProcesses,
  isGroupAlive,
  isProcessRunning,
  processStartTime,
  processesOfCall,
  signalGroup,
  signalProcesses,
  thawCall,
  waitForGroupExit,
} from "./process-group.ts";
import {
  prepareSandboxedCall,
  releaseSandboxedCall,
  sandboxAftermath,
  sandboxLaunch,
} from "./sandbox-call.ts";
import type { CallWrites } from "./held-writes-record.ts";
import { bwrapArguments, sandboxSummary, type SandboxPolicy, type SandboxSummary } from "./sandbox.ts";

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
  /** The program's own variables (on top of the allowlisted ones); under the sandbox they reach only it. */
  env?: Record<string, string>;
  /** Time between SIGTERM and SIGKILL to the group; default 1 s. */
  killGraceMs?: number;
  /** After a kill (or after the leader exits), how long the pipes may take to close; default 2 s. */
  drainMs?: number;
  /** Called once the child is running, with its pid (= its process group id). */
  onStart?: (pid: number) => void;
  /**
   * The OS sandbox to run the program in (see sandbox.ts). Enabled: the program runs under bwrap, whose
   * pid is the one tracked here; a kill of bwrap ends everything in its PID namespace. Disabled or
   * absent: the program runs directly. Either way it gets the minimal environment.
   */
  sandbox?: SandboxPolicy;
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
  /** Process group id of the call (equal to the child's pid), for diagnostics and tests. */
  pid?: number;
  /** The child exited without reading all of its stdin (EPIPE); not an error on its own. */
  stdinClosedEarly?: boolean;
  /** The leader exited normally but group members were still running (e.g. `cmd &`); they were ended. */
  killedLeftovers?: boolean;
  /** The sandbox policy the process ran under, when one was given (explains a refused write). */
  sandbox?: SandboxSummary;
  /** The process made something the sandbox policy forbids and the sandbox undid it (the call fails). */
  sandboxViolation?: string;
  /** What the call wrote to the workdir, when its writes were held and applied (held-writes-record.ts). */
  writes?: CallWrites;
}

export const DEFAULT_MAX_RETAINED_BYTES = 1024 * 1024;
const DEFAULT_KILL_GRACE_MS = 1000;
const DEFAULT_DRAIN_MS = 2000;

type StopReason = "timeout" | "cancel" | "shutdown" | "leftover";

interface LiveRun {
  pgid: number;
  /** Finds the call's processes that left its group; see RUN_MARKER_VARIABLE. */
  escaped(): number[];
  stop(reason: StopReason): void;
  done: Promise<unknown>;
}

/**
 * Starts and tracks the processes of one owner (the server, a CLI run): the composition root creates it,
 * tools get it through their ToolContext, and shutdown ends every live call through `killAll`.
 */
export class ProcessRunner {
  private readonly live = new Set<LiveRun>();
  /** Where this runner's last-resort hook is registered (the MCP transports of its sessions use it too). */
  readonly exitHooks: ExitHooks;
  private removeExitHook: (() => void) | undefined;

  /** `exitHooks`: the composition root's (one per process); absent: this runner's own. */
  constructor(options: { exitHooks?: ExitHooks } = {}) {
    this.exitHooks = options.exitHooks ?? new ExitHooks();
  }

  run(options: ProcessOptions): Promise<ProcessOutcome> {
    // Last resort on process exit (crash or plain exit without shutdown): SIGKILL every live group.
    this.removeExitHook ??= this.exitHooks.add(() => {
      for (const run of this.live) {
        signalGroup(run.pgid, "SIGKILL");
        signalProcesses(run.escaped(), "SIGKILL");
      }
    });
    return startProcess(options, this.live);
  }

  /** Calls of this runner whose processes are running. */
  get running(): number {
    return this.live.size;
  }

  /** Kills every live process group this runner started and waits for the calls to end. */
  async killAll(): Promise<void> {
    const runs = [...this.live];
    for (const run of runs) run.stop("shutdown");
    await Promise.allSettled(runs.map((run) => run.done));
  }
}

/**
 * The runner a tool that starts processes uses: its context's (the composition root's). There is no
 * module-level fallback — a process nobody owns would outlive its server's or test's shutdown — so a
 * context made without one (only for calls that start no process) fails here, by name.
 */
export function requireProcesses(context: { processes?: ProcessRunner }, tool: string): ProcessRunner {
  if (context.processes) return context.processes;
  throw new PlaygroundError(
    "internal",
    `${tool} starts a process, but its call was given no process runner (ToolContext.processes): the caller must pass its composition root's`,
  );
}

async function startProcess(options: ProcessOptions, owned: Set<LiveRun>): Promise<ProcessOutcome> {
  const startedAt = performance.now();
  const maxRetained = options.maxRetainedBytes ?? DEFAULT_MAX_RETAINED_BYTES;
  const killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const drainMs = options.drainMs ?? DEFAULT_DRAIN_MS;
  const stdoutCapture = new BoundedCapture(maxRetained);
  const stderrCapture = new BoundedCapture(maxRetained);

  // The policy the result reports: the prepared one once the call has it (it knows if writes were held).
  let reported = options.sandbox;
  const outcome = (fields: Partial<ProcessOutcome>): ProcessOutcome => ({
    exitCode: null,
    signal: null,
    stdout: stdoutCapture.text(),
    stderr: stderrCapture.text(),
    timedOut: false,
    canceled: false,
    stdoutTruncated: stdoutCapture.truncated,
    stderrTruncated: stderrCapture.truncated,
    stdoutBytes: stdoutCapture.totalBytes,
    stderrBytes: stderrCapture.totalBytes,
    durationMs: performance.now() - startedAt,
    ...(reported ? { sandbox: sandboxSummary(reported) } : {}),
    ...fields,
  });

  const requested = resolveProgram(options);
  if ("error" in requested) return outcome({ spawnError: requested.error });
  if (options.signal?.aborted) return outcome({ canceled: true });
  const cwdProblem = checkCwd(options.cwd);
  if (cwdProblem) return outcome({ spawnError: cwdProblem });
  const sandboxed =
    options.sandbox?.enabled === true
      ? await prepareStoppable(options.sandbox, owned, options.signal)
      : undefined;
  if (sandboxed === "stopped") return outcome({ canceled: true });
  if (sandboxed) reported = sandboxed;
  if (sandboxed?.refusal) return outcome({ spawnError: `sandbox: ${sandboxed.refusal}` });
  if (sandboxed && !sandboxed.program) return outcome({ spawnError: "sandbox: no bubblewrap program" });
  const marker = randomBytes(8).toString("hex");
  // The marker goes last so a caller's env cannot replace it; under the sandbox the launcher carries it too.
  const environment = {
    ...childEnvironment(options.env, sandboxed !== undefined),
    [RUN_MARKER_VARIABLE]: marker,
  };
  const program = sandboxed
    ? {
        ...sandboxLaunch(
          sandboxed,
          bwrapArguments(sandboxed, { cwd: options.cwd, ...requested, env: environment }),
        ),
        env: { ...LAUNCHER_ENVIRONMENT, [RUN_MARKER_VARIABLE]: marker },
      }
    : { ...requested, env: environment };

  const subprocess = execa(program.file, program.args, {
    cwd: options.cwd,
    env: program.env,
    extendEnv: false,
    // Its own process group, so one signal to -pid reaches the whole tree.
    detached: true,
    cleanup: false,
    buffer: false,
    reject: false,
    stripFinalNewline: false,
    forceKillAfterDelay: false,
    // bwrap reads its seccomp program on descriptor 3 (SECCOMP_DESCRIPTOR), to its end.
    stdio: [
      options.input === undefined ? "ignore" : "pipe",
      "pipe",
      "pipe",
      ...(sandboxed?.seccomp ? [sandboxed.seccomp] : []),
    ],
  });

  const pid = subprocess.pid;
  if (pid === undefined) {
    const failed = await subprocess;
    return outcome({ spawnError: describeSpawnFailure(failed, program.file) });
  }

  // Descendants start no earlier than the leader; 0 (leader already gone) just widens the search.
  const leaderStart = processStartTime(pid) ?? 0;
  /**
   * The processes the stop found outside the group, by pid and start time: an `env -i setsid` child is
   * found through its parent only while that lives, so once the stop has ended the parent only this list
   * still ties the child to the call — the call's end waits for them (and SIGKILLs them after the grace).
   */
  let stoppedOutsiders: { pid: number; start: number | undefined }[] = [];
  const outsidersStillThere = (): number[] =>
    stoppedOutsiders
      .filter(({ pid: outsider, start }) => start !== undefined && processStartTime(outsider) === start)
      .map(({ pid: outsider }) => outsider)
      .filter(isProcessRunning);
  const escaped = (): number[] => [
    ...new Set([
      ...processesOfCall(marker, leaderStart, pid, sandboxed !== undefined),
      ...outsidersStillThere(),
    ]),
  ];
  let stopReason: StopReason | undefined;
  let stdinClosedEarly = false;
  let killTimer: NodeJS.Timeout | undefined;
  let drainTimer: NodeJS.Timeout | undefined;
  let resolveDrainDeadline: () => void = () => undefined;
  const drainDeadline = new Promise<void>((resolve) => (resolveDrainDeadline = resolve));

  const stop = (reason: StopReason): void => {
    if (stopReason !== undefined) return;
    stopReason = reason;
    // Looked up before the group is signalled: once a parent dies its children are re-parented and the
    // parent-pid link that finds an `env -i setsid` child is gone. Frozen while it is looked up, so that
    // no child is made meanwhile (process-group.ts, the freeze rule); continued to act on SIGTERM.
    const outsiders = freezeCall(pid, escaped);
    stoppedOutsiders = outsiders.map((outsider) => ({ pid: outsider, start: processStartTime(outsider) }));
    signalGroup(pid, "SIGTERM");
    signalProcesses(outsiders, "SIGTERM");
    thawCall(pid, outsiders);
    killTimer = setTimeout(() => {
      if (isGroupAlive(pid)) signalGroup(pid, "SIGKILL");
      // By pid and start time (escaped() reads outsidersStillThere): an outsider that ended on SIGTERM
      // frees its pid during the grace, and a bare pid could be someone else's process by now.
      signalProcesses(escaped(), "SIGKILL");
    }, killGraceMs);
    // A grandchild that escaped the group may still hold the pipes: stop waiting for them after drainMs.
    drainTimer = setTimeout(resolveDrainDeadline, drainMs);
  };

  const stdoutClosed = collect(subprocess.stdout, stdoutCapture);
  const stderrClosed = collect(subprocess.stderr, stderrCapture);
  if (subprocess.stdin) {
    // The child may exit (or close stdin) before reading everything: EPIPE is expected, not a failure.
    subprocess.stdin.on("error", () => {
      stdinClosedEarly = true;
    });
    subprocess.stdin.end(options.input ?? "");
  }

  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    subprocess.once("exit", (code, signal) => resolve({ code, signal }));
  });

  const timeoutTimer = setTimeout(() => stop("timeout"), options.timeoutMs);
  const onAbort = (): void => stop("cancel");
  options.signal?.addEventListener("abort", onAbort, { once: true });

  const live: LiveRun = { pgid: pid, escaped, stop, done: Promise.resolve() };
  owned.add(live);
  options.onStart?.(pid);

  const finish = (async (): Promise<ProcessOutcome> => {
    const exit = await exited;
    // The leader is gone; background children may still hold the pipes. Give them drainMs, then end them.
    const pipesClosed = Promise.all([stdoutClosed, stderrClosed]);
    if (stopReason === undefined) {
      const afterExit = setTimeout(() => {
        stop("leftover");
      }, drainMs);
      await Promise.race([pipesClosed, drainDeadline]);
      clearTimeout(afterExit);
    } else {
      await Promise.race([pipesClosed, drainDeadline]);
    }
    subprocess.stdout?.destroy();
    subprocess.stderr?.destroy();

    // Nothing outlives its call: end any group member still running (a `cmd &` that let go of the pipes).
    if (isGroupAlive(pid)) {
      if (stopReason === undefined) stop("leftover");
      if (!(await waitForGroupExit(pid, killGraceMs))) {
        signalGroup(pid, "SIGKILL");
        await waitForGroupExit(pid, killGraceMs);
      }
    }
    // ...and anything that left the group (setsid, a daemon) but still carries the call's marker. Under the
    // sandbox nothing can leave the PID namespace: once bwrap has exited, the kernel has already sent
    // SIGKILL to all of it. A stopped call (timeout, Stop, shutdown) waits for that teardown, so whoever
    // stopped it sees nothing left; a call that ended by itself does not pay for the wait.
    let endedEscapees = false;
    if (!sandboxed) endedEscapees = await endEscapedProcesses(escaped, killGraceMs);
    else if (stopReason !== undefined) await endEscapedProcesses(escaped, killGraceMs, false);

    clearTimeout(timeoutTimer);
    clearTimeout(killTimer);
    clearTimeout(drainTimer);
    options.signal?.removeEventListener("abort", onAbort);
    // execa's own promise settles once its streams are done; they are destroyed now, so this is prompt.
    await settleExeca(subprocess);
    const sandboxFailure = sandboxed ? sandboxStartFailure(exit.code, stderrCapture.text()) : undefined;
    const { violation: sandboxViolation, writes } = sandboxed ? await sandboxAftermath(sandboxed) : {};
    return outcome({
      exitCode: exit.code,
      signal: exit.signal,
      ...(sandboxFailure ? { spawnError: sandboxFailure } : {}),
      ...(sandboxViolation ? { sandboxViolation } : {}),
      ...(writes ? { writes } : {}),
      timedOut: stopReason === "timeout",
      canceled: stopReason === "cancel" || stopReason === "shutdown",
      pid,
      ...(stdinClosedEarly ? { stdinClosedEarly } : {}),
      ...(stopReason === "leftover" || (stopReason === undefined && endedEscapees)
        ? { killedLeftovers: true }
        : {}),
    });
  })();

  live.done = finish;
  try {
    return await finish;
  } finally {
    owned.delete(live);
  }
}

/**
 * Completes the sandbox policy before the launch (the workdir's repositories are scanned: a moment). Stop
 * or a shutdown (killAll, which waits for this like for a running call) meanwhile ends the call before
 * anything starts.
 */
async function prepareStoppable(
  policy: SandboxPolicy,
  owned: Set<LiveRun>,
  signal: AbortSignal | undefined,
): Promise<SandboxPolicy | "stopped"> {
  let stopped = false;
  let prepared: () => void = () => undefined;
  const pending: LiveRun = {
    pgid: 0,
    escaped: () => [],
    stop: () => {
      stopped = true;
    },
    done: new Promise<void>((resolve) => (prepared = resolve)),
  };
  owned.add(pending);
  try {
    const ready = await prepareSandboxedCall(policy);
    if (!stopped && !signal?.aborted) return ready;
    await releaseSandboxedCall(ready);
    return "stopped";
  } finally {
    owned.delete(pending);
    prepared();
  }
}

/**
 * SIGTERM to the call's escaped processes, SIGKILL to those still there after the grace. True if any.
 * `signalFirst: false` only waits (then SIGKILLs after the grace): a sandbox's PID namespace is already
 * being torn down by the kernel once bwrap exited. Polls fast at first (a teardown takes a few ms).
 */
async function endEscapedProcesses(
  escaped: () => number[],
  graceMs: number,
  signalFirst = true,
): Promise<boolean> {
  // Frozen while looked up (process-group.ts, the freeze rule): a daemon cannot make a child meanwhile.
  // Each is known by pid and start time from here on: one that ends during the grace frees its pid, which
  // a new process (anyone's) may get before the SIGKILL, so a bare pid is never signalled or waited for.
  const found = (pids: number[]): { pid: number; start: number | undefined }[] =>
    pids.map((pid) => ({ pid, start: processStartTime(pid) }));
  const stillThere = (list: { pid: number; start: number | undefined }[]) =>
    list.filter(
      ({ pid, start }) => start !== undefined && processStartTime(pid) === start && isProcessRunning(pid),
    );
  let remaining = found(signalFirst ? freezeProcesses(escaped) : escaped());
  if (remaining.length === 0) return false;
  if (signalFirst) {
    const pids = remaining.map(({ pid }) => pid);
    signalProcesses(pids, "SIGTERM");
    thawCall(undefined, pids);
  }
  const deadline = Date.now() + graceMs;
  let pollMs = 1;
  while (remaining.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    pollMs = Math.min(pollMs * 2, 25);
    remaining = stillThere(remaining);
    // Checked one by one while some remain; a full scan before concluding catches any new child.
    if (remaining.length === 0) remaining = found(escaped());
  }
  signalProcesses(
    stillThere(remaining).map(({ pid }) => pid),
    "SIGKILL",
  );
  // SIGKILL is acted on when the process next runs: the call ends once they have (a process stuck in the
  // kernel may take longer; then the call ends after another grace all the same).
  const killedBy = Date.now() + graceMs;
  pollMs = 1;
  while (remaining.length > 0 && Date.now() < killedBy) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    pollMs = Math.min(pollMs * 2, 25);
    remaining = stillThere(remaining);
  }
  return true;
}

/**
 * bwrap reports its own failures (a mount it could not make, a program it could not start) on stderr as
 * `bwrap: …` with exit code 1, before the program runs: those are start failures, not the program's.
 */
function sandboxStartFailure(exitCode: number | null, stderr: string): string | undefined {
  // nsenter (entering the call's overlay, held-writes.ts) reports the same way.
  if (exitCode === 1 && stderr.startsWith("nsenter: "))
    return `the sandbox could not enter the call's overlay: ${stderr.split("\n")[0]!.slice("nsenter: ".length)}`;
  if (exitCode !== 1 || !stderr.startsWith("bwrap: ")) return undefined;
  const line = stderr.split("\n")[0]!.slice("bwrap: ".length);
  const missing = /^execvp (.+): No such file or directory$/.exec(line);
  if (missing) return `program not found inside the sandbox: ${missing[1]}`;
  return `the sandbox could not start the program: ${line}`;
}

function resolveProgram(options: ProcessOptions): { file: string; args: string[] } | { error: string } {
  if (options.shellCommand !== undefined && options.file !== undefined) {
    return { error: "give either a shell command or a program, not both" };
  }
  if (options.shellCommand !== undefined) return { file: "/bin/sh", args: ["-c", options.shellCommand] };
  if (options.file !== undefined && options.file.length > 0)
    return { file: options.file, args: options.args ?? [] };
  return { error: "no program or shell command to run" };
}

function checkCwd(cwd: string): string | undefined {
  try {
    if (!statSync(cwd).isDirectory()) return `working directory ${cwd} is not a directory`;
  } catch {
    return `working directory ${cwd} does not exist`;
  }
  return undefined;
}

function collect(stream: Readable | null, capture: BoundedCapture): Promise<void> {
  if (!stream) return Promise.resolve();
  return new Promise<void>((resolve) => {
    stream.on("data", (chunk: Buffer | string) =>
      capture.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk),
    );
    stream.once("close", () => resolve());
    // A read error ends collection; what was captured so far is kept.
    stream.once("error", () => resolve());
  });
}

async function settleExeca(subprocess: ResultPromise): Promise<void> {
  // reject: false makes execa resolve with a failed result instead of throwing; the bounded race guards
  // against an execa-internal wait we do not control.
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    subprocess.then(() => undefined),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, 500))),
  ]);
  clearTimeout(timer);
}

function describeSpawnFailure(
  result: { code?: string; message?: string; shortMessage?: string },
  file: string,
): string {
  const code = result.code ?? "";
  if (code === "ENOENT") return `program not found: ${file}`;
  if (code === "EACCES") return `program is not executable: ${file}`;
  return result.shortMessage ?? result.message ?? `could not start ${file}`;
}
