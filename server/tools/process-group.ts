import { readdirSync, readFileSync } from "node:fs";

/**
 * Process-group helpers. Every runProcess child leads its own group (detached: true), so signalling
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
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    // The process ended between readdir and read: it is not a living member.
    return undefined;
  }
  // Format: pid (comm) state ppid pgrp ... ; comm may contain spaces and parentheses, so split after the last ')'.
  const close = text.lastIndexOf(")");
  if (close < 0) return undefined;
  const fields = text.slice(close + 2).split(" ");
  return { state: fields[0] ?? "", pgid: Number(fields[2]) };
}
