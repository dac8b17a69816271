// Processes that leave the call's process group (`setsid`, a double fork into a new session) are out of
// reach of kill(-pgid). The runner tags every call's environment and ends whatever still carries the tag
// when the call ends, times out or is stopped.
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProcessRunner } from "./process-runner.ts";

/** This file's own process runner (the composition root a test is). */
const processes = new ProcessRunner();

let workdir: string;
const seenPids: number[] = [];

beforeAll(async () => {
  workdir = await mkdtemp(path.join(tmpdir(), "pc-escape-"));
});

afterAll(async () => {
  // Safety net on a shared machine: a failing test must not leave sleeps behind.
  for (const pid of await pidsIn("forked.pids")) seenPids.push(pid);
  for (const pid of seenPids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
    }
  }
  await rm(workdir, { recursive: true, force: true });
});

/** Running (not zombie) according to /proc. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

async function escapedPid(file: string): Promise<number> {
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      const text = (await readFile(path.join(workdir, file), "utf8")).trim();
      if (/^\d+$/.test(text)) {
        seenPids.push(Number(text));
        return Number(text);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    if (Date.now() > deadline) throw new Error(`${file} was never written`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The pids listed in `file` of the workdir, one a line (none when it is not there). */
async function pidsIn(file: string): Promise<number[]> {
  try {
    const text = await readFile(path.join(workdir, file), "utf8");
    return text
      .split("\n")
      .filter((line) => /^\d+$/.test(line))
      .map(Number);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** A call that runs until `stop()` (Stop pressed), which resolves with its outcome. */
function runUntilStopped(shellCommand: string) {
  const controller = new AbortController();
  const running = processes.run({
    shellCommand,
    cwd: workdir,
    timeoutMs: 60_000,
    killGraceMs: 200,
    signal: controller.signal,
  });
  return {
    stop: () => {
      controller.abort();
      return running;
    },
  };
}

describe("processes that escape the process group", () => {
  it("a setsid daemon started by a call that exits at once does not outlive the call", async () => {
    const outcome = await processes.run({
      // The call waits until the daemon wrote its pid, so the test knows which process to look for.
      shellCommand:
        "setsid sh -c 'echo $$ > daemon.pid; exec sleep 600' </dev/null >/dev/null 2>&1 & " +
        "while [ ! -s daemon.pid ]; do sleep 0.05; done; echo started",
      cwd: workdir,
      timeoutMs: 10_000,
    });
    expect(outcome.stdout).toContain("started");
    const pid = await escapedPid("daemon.pid");
    expect(isRunning(pid)).toBe(false);
  });

  it("a setsid daemon does not survive the timeout of its call", async () => {
    const outcome = await processes.run({
      shellCommand:
        "setsid sh -c 'echo $$ > timed.pid; exec sleep 600' </dev/null >/dev/null 2>&1 & sleep 600",
      cwd: workdir,
      timeoutMs: 500,
      killGraceMs: 200,
    });
    expect(outcome.timedOut).toBe(true);
    const pid = await escapedPid("timed.pid");
    expect(isRunning(pid)).toBe(false);
  });

  it("a setsid daemon does not survive Stop (abort)", async () => {
    const call = runUntilStopped(
      "setsid sh -c 'echo $$ > stopped.pid; exec sleep 600' </dev/null >/dev/null 2>&1 & sleep 600",
    );
    const pid = await escapedPid("stopped.pid");
    const outcome = await call.stop();
    expect(outcome.canceled).toBe(true);
    expect(isRunning(pid)).toBe(false);
  });
});

describe("processes that also clear their environment", () => {
  it("an `env -i setsid` child is found through its parent while the call still runs", async () => {
    // Stopped once the child is there (its pid written), not after a time: under load a timeout could
    // end the call before the child exists, and there would be nothing to find.
    const call = runUntilStopped(
      "env -i /usr/bin/setsid /bin/sh -c 'echo $$ > cleared.pid; exec sleep 600' </dev/null >/dev/null 2>&1 & sleep 600",
    );
    const pid = await escapedPid("cleared.pid");
    const outcome = await call.stop();
    expect(outcome.canceled).toBe(true);
    expect(isRunning(pid)).toBe(false);
  });

  it("children that leave the group while the call is being stopped are ended too", async () => {
    // The call keeps making `env -i setsid` children (nothing but their parent ties them to the call)
    // while it is stopped: one made between the stop's look-up and its signal would outlive the call
    // unless the stop first freezes the call (SIGSTOP) so that nothing of it can fork or leave.
    const call = runUntilStopped(
      "i=0; while [ $i -lt 3000 ]; do env -i /usr/bin/setsid /bin/sh -c 'echo $$ >> forked.pids; exec sleep 600' </dev/null >/dev/null 2>&1 & i=$((i+1)); done; sleep 600",
    );
    const deadline = Date.now() + 10_000;
    while ((await pidsIn("forked.pids")).length < 20) {
      if (Date.now() > deadline) throw new Error("the call made no children");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const outcome = await call.stop();
    expect(outcome.canceled).toBe(true);
    const children = await pidsIn("forked.pids");
    expect(children.filter(isRunning)).toEqual([]);
  });
});
