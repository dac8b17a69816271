// SECURITY.md S25 (issue #20, class 8), through real bubblewrap: an agent process that fills /tmp or
// /dev/shm, or forks without end, is bounded by the sandbox's limits (sandbox-limits.ts), and the next call
// runs as usual. The process limit is checked both ways it is enforced: the server's own (a pids cgroup as
// root here, RLIMIT_NPROC for any other user) and RLIMIT_NPROC as an unprivileged user (setpriv).
import { execFileSync, spawnSync } from "node:child_process";
import { openSync, writeFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ToolResult } from "../protocol/model.ts";
import { guardRepositories } from "./sandbox-call.ts";
import { bwrapArguments, detectSandbox, sandboxPolicy, type SandboxSettings } from "./sandbox.ts";
import { DEFAULT_LIMITS, processLimitMechanism, sandboxLimits } from "./sandbox-limits.ts";
import { createRunCommandTool } from "./system/run-command.ts";
import { ProcessRunner } from "./process-runner.ts";

/** This file's own process runner (the composition root a test is). */
const processes = new ProcessRunner();

const MIB = 1024 * 1024;
let root: string;
let workdir: string;
let home: string;
const savedHome = process.env.HOME;

/** Forks up to argv[1] children that sleep, and prints how many it got. */
const FORKER = `import os, sys, time
n = 0
for i in range(int(sys.argv[1])):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(5)
        os._exit(0)
    n += 1
print("forked", n)
`;

beforeAll(() => {
  expect(detectSandbox().available, detectSandbox().reason).toBe(true);
});

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "pc-sandbox-limits-"));
  workdir = path.join(root, "work");
  home = path.join(root, "home");
  await mkdir(workdir);
  await mkdir(home);
  await writeFile(path.join(workdir, "forker.py"), FORKER);
});

afterEach(async () => {
  process.env.HOME = savedHome;
  await rm(root, { recursive: true, force: true });
});

async function run(command: string, limits?: SandboxSettings["limits"]): Promise<ToolResult> {
  const execution = await createRunCommandTool().execute(
    { command, timeout_ms: 20_000 },
    {
      workdir,
      processes,
      callId: "limits",
      signal: new AbortController().signal,
      sandbox: { network: false, homes: [home], ...(limits ? { limits } : {}) },
    },
  );
  return execution.result;
}

function forked(result: ToolResult): number {
  const found = /forked (\d+)/.exec(result.content);
  expect(found, result.content).not.toBeNull();
  return Number(found![1]);
}

/** bwrap reads the policy's seccomp program (set-ID bits, always) on descriptor 3: a file holding it, as the runner's pipe does. */
function withSeccomp(policy: { seccomp?: Uint8Array }): ("ignore" | "pipe" | number)[] {
  if (!policy.seccomp) return ["ignore", "pipe", "pipe"];
  const file = path.join(root, `seccomp-${Math.random().toString(36).slice(2)}.bpf`);
  writeFileSync(file, policy.seccomp);
  return ["ignore", "pipe", "pipe", openSync(file, "r")];
}

describe("S25: /tmp and /dev/shm have a size, /dev is read-only", () => {
  it("a call cannot write more than the limit into /tmp or /dev/shm, and the next call runs", async () => {
    const limits = { tmpBytes: 8 * MIB, shmBytes: 4 * MIB };
    const tmp = await run(
      "head -c 20000000 /dev/zero > /tmp/fill; status=$?; ls -l /tmp/fill; exit $status",
      limits,
    );
    expect(tmp.ok).toBe(false);
    expect(tmp.content).toContain("No space left on device");
    expect(tmp.content).toMatch(new RegExp(`\\b${8 * MIB}\\b`));
    const shm = await run(
      "head -c 20000000 /dev/zero > /dev/shm/fill; status=$?; ls -l /dev/shm/fill; exit $status",
      limits,
    );
    expect(shm.ok).toBe(false);
    expect(shm.content).toContain("No space left on device");
    expect(shm.content).toMatch(new RegExp(`\\b${4 * MIB}\\b`));
    const next = await run("echo next && df -k /tmp | tail -1");
    expect(next.ok, next.content).toBe(true);
    expect(next.content).toContain("next");
  });

  it("the default sizes are the setting's, far below half the RAM", async () => {
    const result = await run("df -k /tmp /dev/shm | tail -2");
    expect(result.ok, result.content).toBe(true);
    const sizes = result.content
      .trim()
      .split("\n")
      .map((line) => Number(line.trim().split(/\s+/)[1]) * 1024);
    expect(sizes).toEqual([DEFAULT_LIMITS.tmpBytes, DEFAULT_LIMITS.shmBytes]);
    expect(result.metadata?.sandbox).toMatchObject({ limits: { tmpBytes: DEFAULT_LIMITS.tmpBytes } });
  });

  it("/dev takes no files, while its devices still work", async () => {
    const result = await run("echo x > /dev/filler; echo y > /dev/null && head -c 4 /dev/urandom | wc -c");
    expect(result.content).toContain("Read-only file system");
    expect(result.content).toMatch(/^4$/m);
  });

  it("the settings are read from the environment, and a bad value is an error naming the variable", () => {
    expect(
      sandboxLimits({ PSEUDOCLAUDE_SANDBOX_TMP_MB: "64", PSEUDOCLAUDE_SANDBOX_PROCESSES: "200" }),
    ).toEqual({
      ...DEFAULT_LIMITS,
      tmpBytes: 64 * MIB,
      processes: 200,
    });
    expect(sandboxLimits({ PSEUDOCLAUDE_SANDBOX_SHM_MB: "lots" })).toBe(
      'PSEUDOCLAUDE_SANDBOX_SHM_MB must be a whole number of MiB from 1 to 1048576, not "lots"',
    );
  });
});

describe("S25: a call forking without end is bounded", () => {
  it("by the server's own mechanism here; none only as root without a writable pids cgroup", async () => {
    const mechanism = processLimitMechanism();
    if (mechanism === "none") {
      // The one case the kernel allows no limit (README, "The sandbox"): uid 0 is exempt from RLIMIT_NPROC.
      expect(process.getuid?.()).toBe(0);
      return;
    }
    const result = await run("python3 forker.py 300", { processes: 64 });
    expect(result.metadata?.sandbox).toMatchObject({ limits: { processes: 64, processLimit: mechanism } });
    expect(forked(result)).toBeLessThan(64);
    const next = await run("echo still here");
    expect(next.ok, next.content).toBe(true);
  });

  it("by RLIMIT_NPROC in its own user namespace when the server is not root", async () => {
    // bwrap run by an unprivileged user (nobody) with the argv the server builds: no home secrets to hide,
    // no cgroup (that is the server's, as root).
    process.env.HOME = home;
    await chmod(root, 0o755);
    await chmod(workdir, 0o777);
    // Present, so the sandbox binds it rather than a stand-in from the server's own (0700) folder.
    await mkdir(path.join(workdir, ".PseudoClaude"));
    const policy = await guardRepositories(
      sandboxPolicy({ workdir, settings: { network: true, homes: [], limits: { processes: 32 } } }),
    );
    const argv = bwrapArguments(policy, {
      cwd: workdir,
      file: "python3",
      args: ["forker.py", "300"],
      env: { PATH: "/usr/bin:/bin" },
    });
    const program = policy.program ?? "bwrap";
    const ran = spawnSync(
      "setpriv",
      ["--reuid", "65534", "--regid", "65534", "--clear-groups", program, ...argv],
      { encoding: "utf8", timeout: 20_000, stdio: withSeccomp(policy) },
    );
    expect(ran.status, ran.stderr).toBe(0);
    const count = Number(/forked (\d+)/.exec(ran.stdout)?.[1] ?? "NaN");
    expect(count, ran.stdout + ran.stderr).toBeLessThan(32);
    expect(count).toBeGreaterThan(0);
    // Without the limit the same argv forks them all: the bound is the limit's, not the machine's.
    const unlimited = await guardRepositories(
      sandboxPolicy({ workdir, settings: { network: true, homes: [], limits: { processes: 1_000 } } }),
    );
    const free = execFileSync(
      "setpriv",
      [
        "--reuid",
        "65534",
        "--regid",
        "65534",
        "--clear-groups",
        program,
        ...bwrapArguments(unlimited, {
          cwd: workdir,
          file: "python3",
          args: ["forker.py", "100"],
          env: { PATH: "/usr/bin:/bin" },
        }),
      ],
      { encoding: "utf8", timeout: 20_000, stdio: withSeccomp(unlimited) },
    );
    expect(free).toContain("forked 100");
  });
});
