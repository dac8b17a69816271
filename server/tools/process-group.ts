import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/**
 * Process-group helpers. Every ProcessRunner child leads its own group (detached: true), so signalling
 * `-pgid` reaches the whole tree, including grandchildren a shell put in the background.
 */

/** Sends `signal` to every process of the group. Returns false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ESRCH: nobody left. EPERM: the pgid was reused by someone else's group; it is not ours any more.
    if (code === "ESRCH" || code === "EPERM") return false;
    throw error;
  }
}

/**
 * Pids of the group's members that are still running (zombies excluded). `kill(-pgid, 0)` alone is not
 * enough: when the container's PID 1 is slow to reap orphans, killed grandchildren stay zombies for
 * seconds and still count as group members although they can no longer do anything.
 */
export function livingGroupMembers(pgid: number): number[] {
  if (!signalGroup(pgid, 0)) return [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    // No /proc (not Linux): trust kill(-pgid, 0), which said the group exists.
    return [pgid];
  }
  const living: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProcStat(entry);
    if (!stat) continue;
    if (stat.pgid === pgid && stat.state !== "Z" && stat.state !== "X") living.push(Number(entry));
  }
  return living;
}

/** True while the process exists and is not a zombie. */
export function isProcessRunning(pid: number): boolean {
  const state = readProcStatFields(String(pid))?.[0];
  return state !== undefined && state !== "Z" && state !== "X";
}

export function isGroupAlive(pgid: number): boolean {
  return livingGroupMembers(pgid).length > 0;
}

/** Polls until the group has no living member or the deadline passes. Returns true when it is gone. */
export async function waitForGroupExit(pgid: number, timeoutMs: number, pollMs = 25): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!isGroupAlive(pgid)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

function readProcStat(pid: string): { state: string; pgid: number } | undefined {
  const fields = readProcStatFields(pid);
  return fields ? { state: fields[0] ?? "", pgid: Number(fields[2]) } : undefined;
}

/**
 * Every call's environment carries this variable with a value of its own. A process that leaves the call's
 * group (`setsid`, a daemon's double fork) keeps its environment, so it can still be found and ended
 * without cgroups. Only a program that deliberately clears its environment (`env -i`) gets away.
 */
export const RUN_MARKER_VARIABLE = "PSEUDOCLAUDE_RUN_ID";

/** Kernel start time (clock ticks since boot) of a process, or undefined when it is gone. */
export function processStartTime(pid: number): number | undefined {
  const stat = readProcStatFields(String(pid));
  return stat ? Number(stat[19]) : undefined;
}

/**
 * Living processes (other than this one) that belong to a call: those whose environment carries `marker`,
 * members of the call's group `leaderPid`, and every descendant of either by parent pid (which also finds
 * an `env -i setsid` child while its parent lives). Only processes started no earlier than `notBefore`
 * (the leader's start time) can qualify, which spares reading the environment of everything older.
 * Empty where there is no /proc.
 *
 * THE MARKER RULE: the marker is no proof that a process is the call's. The call's own processes read it
 * from their environment and can hand it on (a `.env` or `.envrc` written to the workdir, loaded by the
 * user's shell or dev server), so a process of the user's, of the server's or of another call can carry it.
 * Group and parent links are the kernel's and cannot be forged; the marker only adds processes that left
 * both. So it is matched as a whole environment entry (not inside another variable's value), and for a
 * `sandboxed` call only in the PID namespaces the call's linked processes are in, other than the server's:
 * everything a sandboxed call starts stays inside its namespace, and nothing outside it is the call's.
 */
export function processesOfCall(
  marker: string,
  notBefore: number,
  leaderPid: number,
  sandboxed = false,
): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const needle = Buffer.from(`${RUN_MARKER_VARIABLE}=${marker}\0`);
  // A pid is not reused while a group carries it as id, but the leader's own pid is once it exited and
  // its group emptied: a process with that pid and another start time is someone else's.
  const leaderFields = readProcStatFields(String(leaderPid));
  const groupIsOurs = !leaderFields || Number(leaderFields[19]) === notBefore;
  const parentOf = new Map<number, number>();
  const found = new Set<number>();
  const marked: number[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!/^\d+$/.test(entry) || pid === process.pid) continue;
    const fields = readProcStatFields(entry);
    if (!fields || fields[0] === "Z" || fields[0] === "X" || Number(fields[19]) < notBefore) continue;
    parentOf.set(pid, Number(fields[1]));
    if (groupIsOurs && (pid === leaderPid || Number(fields[2]) === leaderPid)) {
      found.add(pid);
      continue;
    }
    let environment: Buffer;
    try {
      environment = readFileSync(`/proc/${entry}/environ`);
    } catch {
      // Gone meanwhile, or another user's process (EACCES): not one of ours either way.
      continue;
    }
    if (hasEntry(environment, needle)) marked.push(pid);
  }
  const descendants = (): void => {
    // Descendants, to a fixed point (a chain may be listed in any order).
    for (let grew = true; grew;) {
      grew = false;
      for (const [pid, parent] of parentOf) {
        if (!found.has(pid) && found.has(parent)) {
          found.add(pid);
          grew = true;
        }
      }
    }
  };
  descendants();
  if (sandboxed) {
    // The marker rule: only inside the namespaces of the call's linked processes, never the server's.
    const own = pidNamespace("self");
    const namespaces = new Set([...found].map((pid) => pidNamespace(String(pid))));
    namespaces.delete(own);
    namespaces.delete(undefined);
    for (const pid of marked) if (namespaces.has(pidNamespace(String(pid)))) found.add(pid);
  } else for (const pid of marked) found.add(pid);
  descendants();
  return [...found];
}

/** Whether `environment` (a /proc environ: entries ended by NUL) holds `entry` as one whole entry. */
function hasEntry(environment: Buffer, entry: Buffer): boolean {
  for (let at = environment.indexOf(entry); at >= 0; at = environment.indexOf(entry, at + 1))
    if (at === 0 || environment[at - 1] === 0) return true;
  return false;
}

/** The PID namespace `pid` is in (`pid:[inode]`), or undefined when it cannot be read (gone, not ours). */
function pidNamespace(pid: string): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    return undefined;
  }
}

/** Rounds of freezeCall's look-up at most (each finds the children made before the last SIGSTOP). */
const FREEZE_ROUNDS = 50;

/**
 * THE FREEZE RULE: a call is frozen before it is looked up to be ended. SIGSTOP to its group, then to
 * every process of the call `find` lists, looking again until nothing new appears: a stopped process
 * cannot fork (the kernel restarts a fork with a signal pending) or leave the group, so the list is
 * complete when it returns. Without it a child made between the look-up and the signal that then left
 * the group (setsid) and cleared its environment (env -i) was tied to the call by its parent alone, and
 * once the signal ended the parent, by nothing. Returns the processes found (the group aside); thawCall
 * must follow the ending signal, which a stopped process acts on only once continued.
 */
export function freezeCall(leaderPid: number, find: () => number[]): number[] {
  signalGroup(leaderPid, "SIGSTOP");
  return freezeProcesses(find);
}

/** The look-up half of freezeCall, for a call whose group is gone (its escaped processes only). */
export function freezeProcesses(find: () => number[]): number[] {
  const found = new Set<number>();
  for (let round = 0; round < FREEZE_ROUNDS; round++) {
    const fresh = find().filter((pid) => !found.has(pid));
    if (fresh.length === 0) break;
    signalProcesses(fresh, "SIGSTOP");
    for (const pid of fresh) found.add(pid);
  }
  return [...found];
}

/** SIGCONT to a frozen call (freezeCall; no group: freezeProcesses), after the signal that is to end it. */
export function thawCall(leaderPid: number | undefined, found: number[]): void {
  if (leaderPid !== undefined) signalGroup(leaderPid, "SIGCONT");
  signalProcesses(found, "SIGCONT");
}

/** Sends `signal` to each pid; returns how many still existed. */
export function signalProcesses(pids: number[], signal: NodeJS.Signals): number {
  let reached = 0;
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
      reached++;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ESRCH" && code !== "EPERM") throw error;
    }
  }
  return reached;
}

/** Fields of /proc/<pid>/stat after `(comm)`: [0] state, [1] ppid, [2] pgrp, [19] starttime. */
function readProcStatFields(pid: string): string[] | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    // The process ended between readdir and read: it is not a living process.
    return undefined;
  }
  // comm may contain spaces and parentheses, so split after the last ')'.
  const close = text.lastIndexOf(")");
  return close < 0 ? undefined : text.slice(close + 2).split(" ");
}
