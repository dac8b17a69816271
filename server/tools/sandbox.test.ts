// SECURITY.md S9, S10, S11 (process side), X10 and the process half of X11, through real bubblewrap: every
// attack runs as an approved run_command call and must fail (or find nothing) inside the sandbox.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, rmdir, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ToolResult } from "../protocol/model.ts";
import { ProcessRunner } from "./process-runner.ts";
import { HOLD_WRITES_VARIABLE } from "./held-writes.ts";
import { guardRepositories } from "./sandbox-call.ts";
import {
  bwrapArguments,
  detectSandbox,
  sandboxPolicy,
  sandboxState,
  type SandboxAvailability,
} from "./sandbox.ts";
import { createRunCommandTool } from "./system/run-command.ts";

/** This file's own process runner (the composition root a test is). */
const processes = new ProcessRunner();

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const fixture = fileURLToPath(new URL("./fixtures/sandboxed-call.ts", import.meta.url));
const PROVIDER_KEY = "sk-ant-sandbox-test-key-must-not-leak";

/** The workdir lives under /tmp (which the sandbox replaces by a private tmpfs): binds must come after it. */
let root: string;
let workdir: string;
/** Outside the workdir and outside /tmp, on the read-only root: where escaping writes would land. */
let outside: string;
/** A user's home for the session (the real home is covered by the same code). */
let home: string;
const savedHome = process.env.HOME;
const leftoverTokens: string[] = [];

beforeAll(() => {
  expect(detectSandbox().available, detectSandbox().reason).toBe(true);
});

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "pc-sandbox-"));
  workdir = path.join(root, "work");
  await mkdir(workdir);
  outside = await mkdtemp("/var/tmp/pc-sandbox-outside-");
  home = await mkdtemp("/var/tmp/pc-sandbox-home-");
  await writeFile(path.join(home, ".bashrc"), "# rc\n");
  await mkdir(path.join(home, ".ssh"));
  await writeFile(path.join(home, ".ssh", "id_ed25519"), "PRIVATE-KEY-MATERIAL\n");
  await writeFile(path.join(home, ".netrc"), "machine example.com password netrc-secret\n");
  await mkdir(path.join(home, ".PseudoClaude", "skills", "notes"), { recursive: true });
  await writeFile(path.join(home, ".PseudoClaude", "skills", "notes", "SKILL.md"), "user skill\n");
  await writeFile(
    path.join(home, ".PseudoClaude", "providers.json"),
    JSON.stringify({ anthropic: { apiKey: PROVIDER_KEY } }),
  );
});

afterEach(async () => {
  process.env.HOME = savedHome;
  delete process.env[HOLD_WRITES_VARIABLE];
  for (const folder of [root, outside, home]) await rm(folder, { recursive: true, force: true });
});

afterAll(() => {
  // Safety net on a shared machine: nothing a failing test started may keep running.
  for (const token of leftoverTokens) for (const pid of processesWith(token)) killQuietly(pid);
});

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

/** A number unique to this test run, used as a `sleep` argument so /proc shows which processes are ours. */
function sleepToken(): string {
  const token = `30${randomBytes(3).readUIntBE(0, 3) % 10}.${randomBytes(3).readUIntBE(0, 3)}`;
  leftoverTokens.push(token);
  return token;
}

/** Living `sleep <token>` processes. */
function processesWith(token: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
      if (state === "Z" || state === "X") continue;
      // A `sleep TOKEN` process itself, not a shell or a server whose command line mentions it.
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (path.basename(argv[0] ?? "") === "sleep" && argv[1] === token) found.push(Number(entry));
    } catch {
      // The process ended between readdir and read: not living.
    }
  }
  return found;
}

async function pollUntil(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function run(
  command: string,
  options: { cwd?: string; network?: boolean; availability?: SandboxAvailability; timeoutMs?: number } = {},
): Promise<ToolResult> {
  const tool = createRunCommandTool();
  const execution = await tool.execute(
    { command, ...(options.timeoutMs ? { timeout_ms: options.timeoutMs } : {}) },
    {
      workdir: options.cwd ?? workdir,
      processes,
      callId: "c1",
      signal: new AbortController().signal,
      sandbox: {
        network: options.network ?? false,
        homes: [home],
        ...(options.availability ? { availability: options.availability } : {}),
      },
    },
  );
  return execution.result;
}

describe("S9: an approved command cannot write outside the workdir", () => {
  it("writes inside the workdir work, and git in the workdir still commits", async () => {
    execFileSync("git", ["init", "-q"], { cwd: workdir });
    const result = await run(
      "echo ok > inside.txt && mkdir -p src && echo b > src/b.txt && git add -A && " +
        "git -c user.name=t -c user.email=t@example.com commit -qm first && git log --oneline | wc -l",
    );
    expect(result.ok, result.content).toBe(true);
    expect(result.content.trim()).toBe("1");
    expect(await readFile(path.join(workdir, "src", "b.txt"), "utf8")).toBe("b\n");
  });

  it("`echo 'echo PWNED' >> ~/.bashrc` fails: the home is read-only", async () => {
    process.env.HOME = home;
    const result = await run("echo 'echo PWNED' >> ~/.bashrc");
    expect(result.ok).toBe(false);
    expect(result.content).toContain("Read-only file system");
    expect(await readFile(path.join(home, ".bashrc"), "utf8")).toBe("# rc\n");
    expect(result.metadata?.sandbox).toMatchObject({ enabled: true, network: false, writable: [workdir] });
  });

  it("an absolute path outside the workdir fails", async () => {
    const result = await run(`echo pwned > ${outside}/f`);
    expect(result.ok).toBe(false);
    expect(result.content).toContain("Read-only file system");
    expect(existsSync(path.join(outside, "f"))).toBe(false);
  });

  it("`echo pwned > out/f` through a symlink in the workdir pointing outside fails", async () => {
    await symlink(outside, path.join(workdir, "out"));
    const result = await run("echo pwned > out/f");
    expect(result.ok).toBe(false);
    expect(result.content).toContain("Read-only file system");
    expect(existsSync(path.join(outside, "f"))).toBe(false);
  });

  it("`.git/config` and `.git/hooks/` stay read-only, and `.git` cannot be moved aside", async () => {
    execFileSync("git", ["init", "-q"], { cwd: workdir });
    const config = await readFile(path.join(workdir, ".git", "config"), "utf8");
    const appended = await run("echo 'echo PWNED' >> .git/config");
    expect(appended.ok).toBe(false);
    expect(appended.content).toContain("Read-only file system");
    const gitConfig = await run("git config core.hooksPath /var/tmp/evil");
    expect(gitConfig.ok).toBe(false);
    const hook = await run("printf '#!/bin/sh\\necho PWNED\\n' > .git/hooks/pre-commit");
    expect(hook.ok).toBe(false);
    expect(hook.content).toContain("Read-only file system");
    const moved = await run("mv .git .git-aside");
    expect(moved.ok).toBe(false);
    expect(await readFile(path.join(workdir, ".git", "config"), "utf8")).toBe(config);
    expect(existsSync(path.join(workdir, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(existsSync(path.join(workdir, ".git-aside"))).toBe(false);
  });

  it("a `.git` without a hooks folder still gets no hook", async () => {
    execFileSync("git", ["init", "-q"], { cwd: workdir });
    await rm(path.join(workdir, ".git", "hooks"), { recursive: true });
    const result = await run("mkdir -p .git/hooks; echo 'echo PWNED' > .git/hooks/post-checkout");
    expect(result.ok).toBe(false);
    expect(existsSync(path.join(workdir, ".git", "hooks", "post-checkout"))).toBe(false);
  });

  it("`.PseudoClaude/` stays read-only, whether it exists or not yet", async () => {
    const absent = await run(
      "mkdir -p .PseudoClaude/skills/evil && echo evil > .PseudoClaude/skills/evil/SKILL.md",
    );
    expect(absent.ok).toBe(false);
    expect(existsSync(path.join(workdir, ".PseudoClaude", "skills"))).toBe(false);
    await mkdir(path.join(workdir, ".PseudoClaude", "skills"), { recursive: true });
    const present = await run(
      `echo '{"permissions":{"allow":["run_command(*)"]}}' > .PseudoClaude/settings.json`,
    );
    expect(present.ok).toBe(false);
    expect(present.content).toContain("Read-only file system");
    expect(existsSync(path.join(workdir, ".PseudoClaude", "settings.json"))).toBe(false);
    const removed = await run("rm -rf .PseudoClaude");
    expect(removed.ok).toBe(false);
    expect(existsSync(path.join(workdir, ".PseudoClaude", "skills"))).toBe(true);
  });

  it("a workdir without `.PseudoClaude/` does not gain one (no mount point), held or written directly", async () => {
    for (const held of ["on", "off"]) {
      process.env[HOLD_WRITES_VARIABLE] = held;
      const result = await run("echo hi");
      expect(result.ok, result.content).toBe(true);
      expect(readdirSync(workdir), `writes held: ${held}`).toEqual([]);
      // Made by the call itself: removed after a direct call, never applied from a held one.
      const made = await run(
        "mkdir -p .PseudoClaude/skills/evil && echo evil > .PseudoClaude/skills/evil/SKILL.md",
      );
      expect(made.ok, `writes held: ${held}`).toBe(false);
      expect(made.content).toContain(
        ".PseudoClaude: the playground reads its settings, skills and evals from it",
      );
      expect(readdirSync(workdir), `writes held: ${held}`).toEqual([]);
    }
  });

  it("a symlinked `.PseudoClaude` is refused with the reason (a bind would follow it)", async () => {
    await symlink(outside, path.join(workdir, ".PseudoClaude"));
    const result = await run("echo hi");
    expect(result).toMatchObject({ ok: false, errorType: "spawn_failed" });
    expect(result.content).toContain("is a symbolic link; the sandbox cannot keep it read-only");
  });

  it("the empty stand-in bound over secrets is checked on every call (content written into it is dropped)", async () => {
    process.env.HOME = home;
    const first = await run("cat ~/.netrc | wc -c");
    expect(first.content.trim()).toBe("0");
    const standIn = path.join(tmpdir(), `pseudoclaude-sandbox-${process.getuid?.() ?? 0}`, "empty-file");
    await writeFile(standIn, "planted-content");
    const second = await run("cat ~/.netrc");
    expect(second.content).not.toContain("planted-content");
    expect(second.content).not.toContain("netrc-secret");
  });

  it("the real home's secrets are hidden as well", async () => {
    const realHome = homedir();
    const present = [".ssh", ".npmrc", ".netrc", ".aws"].filter((entry) =>
      existsSync(path.join(realHome, entry)),
    );
    // Hidden folders list nothing, hidden files read as empty: every line counts 0.
    const probes = present.map((entry) => {
      const target = path.join(realHome, entry);
      return statSync(target).isDirectory() ? `ls -A ${target} | wc -l` : `wc -c < ${target}`;
    });
    const result = await run(probes.join("; ") || "true");
    expect(result.ok, result.content).toBe(true);
    const hidden = (result.metadata?.sandbox as { hidden: string[] }).hidden;
    for (const entry of present) expect(hidden).toContain(path.join(realHome, entry));
    for (const line of result.content.split("\n").filter((text) => /^\d+$/.test(text.trim())))
      expect(line.trim()).toBe("0");
  });

  it("/tmp is private to the call", async () => {
    const name = `pc-sandbox-private-${randomBytes(4).toString("hex")}`;
    const result = await run(`echo x > /tmp/${name} && cat /tmp/${name}`);
    expect(result.ok, result.content).toBe(true);
    expect(existsSync(path.join("/tmp", name))).toBe(false);
  });
});

describe("S10: with network off, nothing reaches a local listener", () => {
  let server: Server;
  let port: number;
  let connections = 0;
  const sockets = new Set<Socket>();

  beforeEach(async () => {
    connections = 0;
    server = createServer((socket) => {
      connections += 1;
      sockets.add(socket);
      socket.end("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });

  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("curl and node fetch fail and the listener sees no connection", async () => {
    const curl = await run(`curl -sS -m 3 http://127.0.0.1:${port}/`);
    expect(curl.ok).toBe(false);
    const fetched = await run(
      `node -e "fetch('http://127.0.0.1:${port}/').then(() => process.exit(0), (e) => { console.error(String(e.cause ?? e)); process.exit(7); })"`,
    );
    expect(fetched.ok).toBe(false);
    expect(fetched.metadata?.exitCode).toBe(7);
    expect(connections).toBe(0);
  });

  it("the session's allow-network setting lets the same command through", async () => {
    const curl = await run(`curl -sS -m 3 http://127.0.0.1:${port}/`, { network: true });
    expect(curl.ok, curl.content).toBe(true);
    expect(curl.content).toBe("ok");
    expect(connections).toBe(1);
    expect(curl.metadata?.sandbox).toMatchObject({ enabled: true, network: true });
  });
});

describe("S11: no provider key is reachable from inside", () => {
  it("the child's environment is built from an allowlist: no key, no other secret of the server", async () => {
    process.env.ANTHROPIC_API_KEY = PROVIDER_KEY;
    process.env.PC_TEST_SERVICE_TOKEN = "service-token-must-not-leak";
    try {
      const result = await run("env");
      expect(result.ok).toBe(true);
      expect(result.content).not.toContain(PROVIDER_KEY);
      expect(result.content).not.toContain("service-token-must-not-leak");
      expect(result.content).toMatch(/^PATH=/m);
      expect(result.content).toMatch(/^HOME=/m);
      expect(result.content).toMatch(/^TMPDIR=\/tmp$/m);
    } finally {
      delete process.env.ANTHROPIC_API_KEY;
      delete process.env.PC_TEST_SERVICE_TOKEN;
    }
  });

  it("`tr '\\0' '\\n' < /proc/$PPID/environ` does not show the server's environment", async () => {
    const server = spawn(
      process.execPath,
      ["--import", "tsx", fixture, workdir, "tr '\\0' '\\n' < /proc/$PPID/environ; echo; env", home],
      {
        cwd: repoRoot,
        env: { ...process.env, ANTHROPIC_API_KEY: PROVIDER_KEY },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    let errors = "";
    server.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => server.once("exit", resolve));
    expect(code, errors).toBe(0);
    const result = JSON.parse(output) as ToolResult;
    expect(result.ok, result.content).toBe(true);
    expect(result.content).toContain("PATH=");
    expect(result.content).not.toContain(PROVIDER_KEY);
    expect(result.content).not.toContain("ANTHROPIC_API_KEY");
  });

  it("with workdir `/`, ~/.PseudoClaude/providers.json, ~/.ssh and ~/.netrc are hidden; user skills stay readable", async () => {
    process.env.HOME = home;
    const rootMarker = "/.PseudoClaude";
    const existedBefore = existsSync(rootMarker);
    try {
      const result = await run(
        "cat ~/.PseudoClaude/providers.json; ls -A ~/.ssh; cat ~/.netrc; cat ~/.PseudoClaude/skills/notes/SKILL.md",
        { cwd: "/" },
      );
      expect(result.content).not.toContain(PROVIDER_KEY);
      expect(result.content).not.toContain("PRIVATE-KEY-MATERIAL");
      expect(result.content).not.toContain("id_ed25519");
      expect(result.content).not.toContain("netrc-secret");
      expect(result.content).toContain("user skill");
      const hidden = (result.metadata?.sandbox as { hidden: string[] }).hidden;
      expect(hidden).toContain(path.join(home, ".PseudoClaude", "providers.json"));
      expect(hidden).toContain(path.join(home, ".ssh"));
      // A workdir of `/` makes the home writable, but not its settings, skills or shell start-up files.
      const settings = await run(
        `echo '{}' > ~/.PseudoClaude/settings.json; echo 'echo PWNED' >> ~/.bashrc`,
        {
          cwd: "/",
        },
      );
      expect(settings.ok).toBe(false);
      expect(existsSync(path.join(home, ".PseudoClaude", "settings.json"))).toBe(false);
      expect(await readFile(path.join(home, ".bashrc"), "utf8")).toBe("# rc\n");
    } finally {
      // The sandbox leaves an empty read-only mount point for an absent `.PseudoClaude`; tidy up `/`.
      if (!existedBefore && existsSync(rootMarker)) await rmdir(rootMarker);
    }
  });
});

describe("X10, X11: no process outlives its call", () => {
  it("`env -i setsid sleep … &` and `nohup … &` do not survive a call that exits at once", async () => {
    const detached = sleepToken();
    const nohup = sleepToken();
    const result = await run(
      `env -i setsid sleep ${detached} </dev/null >/dev/null 2>&1 & nohup sleep ${nohup} >/dev/null 2>&1 & echo started`,
    );
    expect(result.content).toContain("started");
    await pollUntil(
      () => processesWith(detached).length === 0 && processesWith(nohup).length === 0,
      1000,
      "the background sleeps to end",
    );
  });

  it("kill -9 of the server process leaves no tool process behind", async () => {
    const tokens = [sleepToken(), sleepToken(), sleepToken()];
    const command =
      `sleep ${tokens[0]} & env -i setsid sleep ${tokens[1]} </dev/null >/dev/null 2>&1 & ` +
      `touch started; sleep ${tokens[2]}`;
    const server = spawn(process.execPath, ["--import", "tsx", fixture, workdir, command, home], {
      cwd: repoRoot,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let errors = "";
    server.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
    await pollUntil(
      () => tokens.every((token) => processesWith(token).length === 1),
      15_000,
      `the tool processes to start (${errors})`,
    );
    server.kill("SIGKILL");
    await exited;
    await pollUntil(
      () => tokens.every((token) => processesWith(token).length === 0),
      2000,
      "every tool process to end after kill -9 of its server",
    );
  });
});

describe("the processes runner keeps X1–X9 through bubblewrap", () => {
  const policy = () => sandboxPolicy({ workdir, settings: { network: false, homes: [home] } });

  it("X1/X2/X4: a timeout ends the whole tree, TERM-ignoring members included", async () => {
    const tokens = [sleepToken(), sleepToken()];
    const started = Date.now();
    const outcome = await processes.run({
      shellCommand: `trap '' TERM; sleep ${tokens[0]} & sleep ${tokens[1]} & wait`,
      cwd: workdir,
      timeoutMs: 500,
      killGraceMs: 300,
      sandbox: policy(),
    });
    expect(outcome.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(3000);
    await pollUntil(() => tokens.every((token) => processesWith(token).length === 0), 1000, "no survivor");
  });

  it("X3: a grandchild holding stdout open does not hang the call", async () => {
    const token = sleepToken();
    const started = Date.now();
    const outcome = await processes.run({
      shellCommand: `sh -c 'sleep ${token} &'; echo done`,
      cwd: workdir,
      timeoutMs: 10_000,
      sandbox: policy(),
    });
    expect(outcome.stdout).toBe("done\n");
    expect(Date.now() - started).toBeLessThan(3000);
    await pollUntil(() => processesWith(token).length === 0, 1000, "the grandchild to end");
  });

  it("X6: `yes` keeps the retained output bounded", async () => {
    const outcome = await processes.run({
      shellCommand: "yes",
      cwd: workdir,
      timeoutMs: 500,
      maxRetainedBytes: 64 * 1024,
      sandbox: policy(),
    });
    expect(outcome.timedOut).toBe(true);
    expect(outcome.stdoutTruncated).toBe(true);
    expect(outcome.stdout.length).toBeLessThan(200 * 1024);
  });

  it("X7: Stop (abort) kills the tree and reports canceled", async () => {
    const token = sleepToken();
    const controller = new AbortController();
    const running = processes.run({
      shellCommand: `sleep ${token} & wait`,
      cwd: workdir,
      timeoutMs: 60_000,
      signal: controller.signal,
      sandbox: policy(),
    });
    await pollUntil(() => processesWith(token).length === 1, 5000, "the sleep to start");
    controller.abort();
    const outcome = await running;
    expect(outcome.canceled).toBe(true);
    await pollUntil(() => processesWith(token).length === 0, 1000, "the sleep to end");
  });

  it("a shutdown while the workdir is being checked ends the call before anything starts", async () => {
    const runner = new ProcessRunner();
    const running = runner.run({
      shellCommand: "touch started; sleep 600",
      cwd: workdir,
      timeoutMs: 60_000,
      sandbox: policy(),
    });
    await runner.killAll();
    const outcome = await running;
    expect(outcome.canceled).toBe(true);
    expect(outcome.pid).toBeUndefined();
    expect(existsSync(path.join(workdir, "started"))).toBe(false);
  });

  it("X9: stdin is delivered then closed; `cat` with no input returns at once", async () => {
    const echoed = await processes.run({
      shellCommand: "cat",
      cwd: workdir,
      input: '{"a":1}',
      timeoutMs: 5000,
      sandbox: policy(),
    });
    expect(echoed.stdout).toBe('{"a":1}');
    const empty = await processes.run({
      shellCommand: "cat",
      cwd: workdir,
      timeoutMs: 5000,
      sandbox: policy(),
    });
    expect(empty.exitCode).toBe(0);
  });

  it("a clean call reports no killed leftovers (the namespace teardown is not a leftover)", async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const outcome = await processes.run({
        shellCommand: "true",
        cwd: workdir,
        timeoutMs: 5000,
        sandbox: policy(),
      });
      expect(outcome.exitCode).toBe(0);
      expect(outcome.killedLeftovers).toBeUndefined();
    }
  });

  it("a read-only root that holds the workdir leaves the workdir writable (and the call starts)", async () => {
    const outcome = await processes.run({
      shellCommand: "echo x > made.txt",
      cwd: workdir,
      timeoutMs: 5000,
      sandbox: sandboxPolicy({ workdir, readOnlyRoots: [workdir], settings: { network: false, homes: [] } }),
    });
    expect(outcome.spawnError).toBeUndefined();
    expect(outcome.exitCode, outcome.stderr).toBe(0);
    expect(await readFile(path.join(workdir, "made.txt"), "utf8")).toBe("x\n");
  });

  it("a program missing inside the sandbox is a spawn failure, a missing command exits 127", async () => {
    const missing = await processes.run({
      file: "pc-no-such-program",
      cwd: workdir,
      timeoutMs: 5000,
      sandbox: policy(),
    });
    expect(missing.spawnError).toContain("program not found");
    const shell = await run("pc-no-such-program --flag");
    expect(shell.ok).toBe(false);
    expect(shell.metadata?.exitCode).toBe(127);
  });
});

describe("the bwrap arguments for a policy", () => {
  it("binds the workdir (and a skill root) after the private /tmp, protected parts after the workdir", async () => {
    execFileSync("git", ["init", "-q"], { cwd: workdir });
    const skillRoot = path.join(root, "skill");
    await mkdir(skillRoot);
    const policy = await guardRepositories(
      sandboxPolicy({ workdir, readOnlyRoots: [skillRoot], settings: { network: false, homes: [home] } }),
    );
    const argv = bwrapArguments(policy, { cwd: skillRoot, file: "/bin/true", args: [], env: {} });
    /** Index of a mount of `target` by `flag` (`--bind SRC DEST`: DEST two places after the flag). */
    const at = (flag: string, target: string) =>
      argv.findIndex((value, index) => value === flag && argv[index + 2] === target);
    const tmp = argv.findIndex((value, index) => value === "--tmpfs" && argv[index + 1] === "/tmp");
    expect(tmp).toBeGreaterThan(0);
    expect(at("--bind", workdir)).toBeGreaterThan(tmp);
    expect(at("--ro-bind", skillRoot)).toBeGreaterThan(at("--bind", workdir));
    expect(at("--ro-bind", path.join(workdir, ".git", "config"))).toBeGreaterThan(at("--bind", workdir));
    // The repository's folder, objects/ and refs/ are writable mount points, before every read-only bind.
    const gitFolder = at("--bind", path.join(workdir, ".git"));
    expect(gitFolder).toBeGreaterThan(at("--bind", workdir));
    expect(at("--bind", path.join(workdir, ".git", "objects"))).toBeGreaterThan(gitFolder);
    expect(at("--bind", path.join(workdir, ".git", "refs"))).toBeLessThan(at("--ro-bind", skillRoot));
    expect(argv).toContain("--unshare-net");
    expect(argv).toContain("--unshare-pid");
    expect(argv).toContain("--die-with-parent");
    // The program runs last, behind the process-limit wrapper (sandbox-limits.ts) where there is one.
    expect(argv.slice(argv.indexOf("--chdir"), argv.indexOf("--chdir") + 3)).toEqual([
      "--chdir",
      skillRoot,
      "--",
    ]);
    expect(argv.at(-1)).toBe("/bin/true");
    const allowed = await guardRepositories(
      sandboxPolicy({ workdir, settings: { network: true, homes: [] } }),
    );
    expect(bwrapArguments(allowed, { cwd: workdir, file: "/bin/true", args: [], env: {} })).not.toContain(
      "--unshare-net",
    );
  });
});

describe("sandbox off (bubblewrap missing or refused)", () => {
  const missing: SandboxAvailability = {
    available: false,
    program: "/nonexistent/bwrap",
    reason: "/nonexistent/bwrap not found (install the Debian package bubblewrap)",
  };

  it("a missing bwrap is detected and the state says why", () => {
    const detected = detectSandbox("/nonexistent/bwrap");
    expect(detected.available).toBe(false);
    expect(detected.reason).toContain("not found");
    expect(sandboxState(false, detected)).toEqual({
      enabled: false,
      mechanism: "none",
      network: true,
      reason: detected.reason,
    });
  });

  it("commands run without the sandbox but with the minimal environment, and the result says so", async () => {
    process.env.PC_TEST_SERVICE_TOKEN = "service-token-must-not-leak";
    try {
      const result = await run(`env; echo written > ${outside}/f`, { availability: missing });
      expect(result.ok, result.content).toBe(true);
      expect(result.content).not.toContain("service-token-must-not-leak");
      expect(result.metadata?.sandbox).toMatchObject({ enabled: false, reason: missing.reason });
      // Unsandboxed, the write lands: this is why every exec call asks when the sandbox is off.
      expect(await readFile(path.join(outside, "f"), "utf8")).toBe("written\n");
    } finally {
      delete process.env.PC_TEST_SERVICE_TOKEN;
    }
  });
});
