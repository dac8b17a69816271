import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { livingGroupMembers, signalGroup, waitForGroupExit } from "./process-group.ts";
import { ProcessRunner } from "./process-runner.ts";

/** This file's own process runner (the composition root a test is). */
const processes = new ProcessRunner();

// Rows X1–X4 and X6–X9 of SECURITY.md, against real processes. Survivors are looked for by process group.

let workdir: string;
const startedGroups: number[] = [];

beforeAll(async () => {
  workdir = await mkdtemp(path.join(tmpdir(), "pc-proc-"));
});

afterAll(async () => {
  // Safety net so a failing test never leaves sleeps behind on a shared machine.
  for (const pgid of startedGroups) signalGroup(pgid, "SIGKILL");
  await rm(workdir, { recursive: true, force: true });
});

function track(pid: number): void {
  startedGroups.push(pid);
}

async function expectGroupGone(pgid: number | undefined): Promise<void> {
  expect(pgid).toBeTypeOf("number");
  // The runner already waited; a short poll only absorbs the kernel finishing the last exit.
  const gone = await waitForGroupExit(pgid!, 500);
  expect(livingGroupMembers(pgid!)).toEqual([]);
  expect(gone).toBe(true);
}

describe("ProcessRunner.run basics", () => {
  it("captures stdout, stderr and the exit code", async () => {
    const outcome = await processes.run({
      shellCommand: "echo out; echo err >&2; exit 3",
      cwd: workdir,
      timeoutMs: 10_000,
    });
    expect(outcome).toMatchObject({
      exitCode: 3,
      stdout: "out\n",
      stderr: "err\n",
      timedOut: false,
      canceled: false,
    });
  });

  it("runs in the given cwd with the given env", async () => {
    const outcome = await processes.run({
      file: "/bin/sh",
      args: ["-c", 'pwd; echo "$PC_TEST_VALUE"'],
      cwd: workdir,
      timeoutMs: 10_000,
      env: { PC_TEST_VALUE: "hello" },
    });
    expect(outcome.stdout).toContain("hello");
    expect(outcome.stdout.split("\n")[0]).toContain(path.basename(workdir));
  });

  it("does not pass provider API keys to children", async () => {
    process.env.ANTHROPIC_API_KEY = "sk-ant-test-key-that-must-not-leak";
    try {
      const outcome = await processes.run({
        shellCommand: 'echo "key=${ANTHROPIC_API_KEY:-none} home=${HOME:+set}"',
        cwd: workdir,
        timeoutMs: 10_000,
      });
      expect(outcome.stdout).toBe("key=none home=set\n");
    } finally {
      delete process.env.ANTHROPIC_API_KEY;
    }
  });

  it("reports a program that cannot be started as spawnError", async () => {
    const outcome = await processes.run({ file: "pc-no-such-program", cwd: workdir, timeoutMs: 5_000 });
    expect(outcome.spawnError).toContain("program not found");
    const missingCwd = await processes.run({
      shellCommand: "true",
      cwd: path.join(workdir, "absent"),
      timeoutMs: 5_000,
    });
    expect(missingCwd.spawnError).toContain("does not exist");
  });

  it("returns canceled at once for an already aborted signal", async () => {
    const outcome = await processes.run({
      shellCommand: "sleep 600",
      cwd: workdir,
      timeoutMs: 5_000,
      signal: AbortSignal.abort(),
    });
    expect(outcome.canceled).toBe(true);
    expect(outcome.pid).toBeUndefined();
  });
});

describe("timeouts and tree kill (X1–X4)", () => {
  it("X1: sleep 600 with a 1 s timeout returns timeout within about 1 s + grace", async () => {
    const outcome = await processes.run({
      shellCommand: "sleep 600",
      cwd: workdir,
      timeoutMs: 1000,
      onStart: track,
    });
    expect(outcome.timedOut).toBe(true);
    expect(outcome.durationMs).toBeLessThan(1000 + 1000 + 700);
    await expectGroupGone(outcome.pid);
  });

  it("X2: background sleeps of a shell are all killed with the group", async () => {
    const outcome = await processes.run({
      shellCommand: "sleep 600 & sleep 600 & wait",
      cwd: workdir,
      timeoutMs: 500,
      onStart: track,
    });
    expect(outcome.timedOut).toBe(true);
    await expectGroupGone(outcome.pid);
  });

  it("X3: a grandchild holding stdout open does not hang the call; it is killed", async () => {
    const outcome = await processes.run({
      // The subshell keeps stdout open and ignores SIGTERM, so only SIGKILL ends it.
      shellCommand: "(trap '' TERM; sleep 600; echo never) & echo started",
      cwd: workdir,
      timeoutMs: 1000,
      onStart: track,
    });
    expect(outcome.stdout).toContain("started");
    expect(outcome.durationMs).toBeLessThan(1000 + 2000 + 700);
    await expectGroupGone(outcome.pid);
  });

  it("X3: with the timeout first, the call returns within timeout + 2 s", async () => {
    const outcome = await processes.run({
      shellCommand: "(trap '' TERM; sleep 600) & trap '' TERM; sleep 600",
      cwd: workdir,
      timeoutMs: 800,
      onStart: track,
    });
    expect(outcome.timedOut).toBe(true);
    expect(outcome.durationMs).toBeLessThan(800 + 2000 + 700);
    await expectGroupGone(outcome.pid);
  });

  it("X4: a process that ignores SIGTERM gets SIGKILL after the grace period", async () => {
    const outcome = await processes.run({
      shellCommand: "trap '' TERM; sleep 600",
      cwd: workdir,
      timeoutMs: 500,
      killGraceMs: 700,
      onStart: track,
    });
    expect(outcome.timedOut).toBe(true);
    expect(outcome.durationMs).toBeGreaterThanOrEqual(500 + 650);
    expect(outcome.durationMs).toBeLessThan(500 + 700 + 1500);
    await expectGroupGone(outcome.pid);
  });

  it("ends a background job the command left running after it exited", async () => {
    const outcome = await processes.run({
      shellCommand: "sleep 600 > /dev/null 2>&1 & echo done",
      cwd: workdir,
      timeoutMs: 10_000,
      onStart: track,
    });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.killedLeftovers).toBe(true);
    await expectGroupGone(outcome.pid);
  });
});

describe("output bounds (X6)", () => {
  it("X6: `yes` keeps memory bounded with head, tail and a truncation marker", async () => {
    const before = process.memoryUsage().rss;
    const outcome = await processes.run({
      shellCommand: "yes",
      cwd: workdir,
      timeoutMs: 1000,
      maxRetainedBytes: 64 * 1024,
      onStart: track,
    });
    expect(outcome.timedOut).toBe(true);
    expect(outcome.stdoutTruncated).toBe(true);
    expect(outcome.stdoutBytes).toBeGreaterThan(1024 * 1024);
    expect(outcome.stdout.length).toBeLessThan(64 * 1024 + 200);
    expect(outcome.stdout.startsWith("y\ny\n")).toBe(true);
    expect(outcome.stdout).toMatch(/bytes of output cut from the middle/);
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
    await expectGroupGone(outcome.pid);
  });

  it("X6: 200 MB of output keeps the default 1 MiB head and tail", async () => {
    const outcome = await processes.run({
      shellCommand: "echo FIRST; head -c 200000000 /dev/zero | tr '\\0' 'a'; echo; echo LAST",
      cwd: workdir,
      timeoutMs: 60_000,
    });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdoutBytes).toBeGreaterThan(200_000_000);
    expect(outcome.stdout.length).toBeLessThan(1024 * 1024 + 200);
    expect(outcome.stdout.startsWith("FIRST\n")).toBe(true);
    expect(outcome.stdout.endsWith("LAST\n")).toBe(true);
  });
});

describe("cancel and shutdown (X7, X8)", () => {
  it("X7: aborting the signal kills the whole tree and reports canceled", async () => {
    const controller = new AbortController();
    let startedPid: number | undefined;
    const running = processes.run({
      shellCommand: "sleep 600 & sleep 600 & wait",
      cwd: workdir,
      timeoutMs: 60_000,
      signal: controller.signal,
      onStart: (pid) => {
        startedPid = pid;
        track(pid);
      },
    });
    await pollUntil(() => startedPid !== undefined && livingGroupMembers(startedPid).length >= 3, 5000);
    controller.abort();
    const outcome = await running;
    expect(outcome.canceled).toBe(true);
    expect(outcome.timedOut).toBe(false);
    await expectGroupGone(startedPid);
  });

  it("killAll ends every live call of the runner", async () => {
    const pids: number[] = [];
    const runs = [1, 2].map(() =>
      processes.run({
        shellCommand: "sleep 600 & wait",
        cwd: workdir,
        timeoutMs: 60_000,
        onStart: (pid) => pids.push(pid),
      }),
    );
    await pollUntil(() => pids.length === 2, 5000);
    pids.forEach(track);
    await processes.killAll();
    const outcomes = await Promise.all(runs);
    for (const outcome of outcomes) {
      expect(outcome.canceled).toBe(true);
      await expectGroupGone(outcome.pid);
    }
  });

  it("X8: a server process getting SIGTERM leaves no child alive", async () => {
    const root = await startRootFixture("shutdown-child.ts");
    root.process.kill("SIGTERM");
    expect(await root.exited).toBe(0);
    expect(root.output()).toContain("shutdown-complete");
    // The children ignore SIGTERM, so this also shows the SIGKILL escalation happened before exit.
    expect(livingGroupMembers(root.pgid)).toEqual([]);
  });
});

describe("exit hooks (server/tools/exit-hooks.ts)", () => {
  it("a root that exits without a shutdown leaves no child alive: its ExitHooks end the runner's groups", async () => {
    const root = await startRootFixture("exit-without-shutdown.ts");
    root.process.stdin.write("exit\n");
    expect(await root.exited).toBe(0);
    // One hook: the runner's, registered in the root's ExitHooks.
    expect(root.output()).toContain("hooks 1");
    // The children ignore SIGTERM and nobody called killAll: the exit hook's SIGKILL ended them.
    expect(await waitForGroupExit(root.pgid, 2000)).toBe(true);
    expect(livingGroupMembers(root.pgid)).toEqual([]);
  });
});

/**
 * A stand-in composition root (./fixtures/<name>) that starts a tree of three processes and prints its
 * group id: resolves once all three run.
 */
async function startRootFixture(name: string) {
  const fixture = fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
  // cwd at the repo root so `--import tsx` resolves; the fixture runs its command in workdir (argv).
  const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", fixture, workdir], {
    cwd: repoRoot,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  let errors = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  await pollUntil(
    () => /pgid (\d+)/.test(output),
    15_000,
    () => `fixture never started: ${errors}`,
  );
  const pgid = Number(/pgid (\d+)/.exec(output)![1]);
  track(pgid);
  await pollUntil(() => livingGroupMembers(pgid).length >= 3, 5000);
  return { process: child, exited, pgid, output: () => output };
}

describe("stdin (X9)", () => {
  it("X9: a reader of stdin gets the input and then EOF", async () => {
    const input = JSON.stringify({ city: "Paris", note: "ünïcødé" });
    const outcome = await processes.run({ file: "cat", cwd: workdir, timeoutMs: 10_000, input });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).toBe(input);
  });

  it("X9: a program that never reads stdin gets 1 MB of input without EPIPE breaking the call", async () => {
    const outcome = await processes.run({
      shellCommand: "echo ignored-stdin",
      cwd: workdir,
      timeoutMs: 10_000,
      input: "x".repeat(1024 * 1024),
    });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).toBe("ignored-stdin\n");
    expect(outcome.spawnError).toBeUndefined();
  });

  it("X9: `cat` with no input returns at once (stdin closed)", async () => {
    const outcome = await processes.run({ shellCommand: "cat", cwd: workdir, timeoutMs: 10_000 });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.timedOut).toBe(false);
    expect(outcome.durationMs).toBeLessThan(2000);
  });
});

async function pollUntil(
  condition: () => boolean,
  timeoutMs: number,
  describeFailure?: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline)
      throw new Error(describeFailure?.() ?? `condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
