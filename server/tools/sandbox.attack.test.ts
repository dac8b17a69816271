// Attacks on the sandbox (issue #10, SECURITY.md S9) found by a fresh-eyes review, through real bubblewrap
// and real git: an approved command must not get past the read-only policy by other means than a write.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ToolResult } from "../protocol/model.ts";
import { detectSandbox } from "./sandbox.ts";
import { createRunCommandTool } from "./system/run-command.ts";
import { ProcessRunner } from "./process-runner.ts";

/** This file's own process runner (the composition root a test is). */
const processes = new ProcessRunner();

let root: string;
let workdir: string;
/** Outside the workdir and outside /tmp, on the read-only root: where escaping writes would land. */
let outside: string;
let home: string;

beforeAll(() => {
  expect(detectSandbox().available, detectSandbox().reason).toBe(true);
});

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "pc-sandbox-attack-"));
  workdir = path.join(root, "work");
  await mkdir(workdir);
  outside = await mkdtemp("/var/tmp/pc-sandbox-attack-outside-");
  home = await mkdtemp("/var/tmp/pc-sandbox-attack-home-");
});

afterEach(async () => {
  for (const folder of [root, outside, home]) await rm(folder, { recursive: true, force: true });
});

async function run(command: string, cwd = workdir, network = false): Promise<ToolResult> {
  const execution = await createRunCommandTool().execute(
    { command },
    {
      workdir: cwd,
      processes,
      callId: "attack",
      signal: new AbortController().signal,
      sandbox: { network, homes: [home] },
    },
  );
  return execution.result;
}

const git = (cwd: string, ...args: string[]): string =>
  execFileSync(
    "git",
    ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "protocol.file.allow=always", ...args],
    {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    },
  );

async function commitOneFile(folder: string): Promise<void> {
  git(folder, "init", "-q");
  await writeFile(path.join(folder, "a.txt"), "a\n");
  git(folder, "add", "a.txt");
  git(folder, "commit", "-qm", "first");
}

describe("a sandbox started by root holds no capabilities", () => {
  it("has an empty effective capability set", async () => {
    const result = await run("grep '^CapEff' /proc/self/status");
    expect(result.ok, result.content).toBe(true);
    expect(result.content).toMatch(/CapEff:\s+0+$/m);
  });

  it("`mount -o remount,bind,rw /` cannot make the host writable", async () => {
    const result = await run(`mount -o remount,bind,rw / ; echo pwned > ${outside}/f`);
    expect(result.ok).toBe(false);
    expect(existsSync(path.join(outside, "f"))).toBe(false);
  });

  it("`umount .git/config` cannot uncover the real file", async () => {
    git(workdir, "init", "-q");
    const config = await readFile(path.join(workdir, ".git", "config"), "utf8");
    const result = await run("umount .git/config ; echo '[core] fsmonitor = touch PWNED' >> .git/config");
    expect(result.ok).toBe(false);
    expect(await readFile(path.join(workdir, ".git", "config"), "utf8")).toBe(config);
  });
});

describe("git files outside `.git/config` that make the host's git run code", () => {
  /** A command a later `git status` on the host would run, leaving `marker` behind. */
  const fsmonitor = (marker: string) => `echo pwned > ${marker}; false`;

  it("a planted `.git/commondir` does not redirect the host's git to a config the command wrote", async () => {
    await commitOneFile(workdir);
    const marker = path.join(outside, "commondir-ran");
    const result = await run(
      "mkdir evil && cp -r .git/objects .git/refs .git/HEAD evil/ && " +
        `printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = "${fsmonitor(marker)}"\\n' > evil/config && ` +
        "echo ../evil > .git/commondir",
    );
    expect(result.ok).toBe(false);
    expect(result.content).toContain(".git/commondir");
    expect(existsSync(path.join(workdir, ".git", "commondir"))).toBe(false);
    git(workdir, "status", "--short");
    expect(existsSync(marker)).toBe(false);
  });

  it("a submodule's `.git/modules/<name>/config` stays read-only", async () => {
    const source = path.join(root, "source");
    await mkdir(source);
    await commitOneFile(source);
    git(workdir, "init", "-q");
    git(workdir, "submodule", "add", "-q", source, "sub");
    git(workdir, "commit", "-qm", "with a submodule");
    const marker = path.join(outside, "modules-ran");
    const result = await run(`git config -f .git/modules/sub/config core.fsmonitor '${fsmonitor(marker)}'`);
    expect(result.ok).toBe(false);
    git(workdir, "status", "--short");
    expect(existsSync(marker)).toBe(false);
  });

  it("a `.git/modules/` made by the command (no submodule yet) is refused too", async () => {
    await commitOneFile(workdir);
    const result = await run("mkdir -p .git/modules/x && echo planted > .git/modules/x/config");
    expect(result.ok).toBe(false);
    expect(existsSync(path.join(workdir, ".git", "modules", "x"))).toBe(false);
  });

  it("a linked worktree's `.git/worktrees/<id>/commondir` stays read-only", async () => {
    await commitOneFile(workdir);
    const linked = path.join(outside, "linked");
    git(workdir, "worktree", "add", "-q", linked);
    const result = await run("echo ../../../evil > .git/worktrees/linked/commondir");
    expect(result.ok).toBe(false);
    expect(git(linked, "rev-parse", "--git-common-dir").trim()).toBe(path.join(workdir, ".git"));
  });

  it("git still commits in the workdir", async () => {
    await commitOneFile(workdir);
    const result = await run(
      "echo b > b.txt && git add b.txt && git -c user.name=t -c user.email=t@example.com commit -qm second && " +
        "git log --oneline | wc -l",
    );
    expect(result.ok, result.content).toBe(true);
    expect(result.content.trim()).toBe("2");
  });
});

describe("with network off, no Unix-domain socket of the host is reachable either", () => {
  let server: Server;
  let socketPath: string;
  let connections = 0;

  beforeEach(async () => {
    connections = 0;
    // Outside /tmp (private in the sandbox), where a docker.sock, an ssh-agent or a session bus would be.
    socketPath = path.join(outside, "service.sock");
    server = createServer((socket) => {
      connections++;
      socket.end("hello from the host\n");
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  });

  afterEach(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const connect = () =>
    `node -e "require('net').connect('${socketPath}').on('data', (d) => { process.stdout.write(String(d)); process.exit(0); }).on('error', (e) => { console.error(e.code); process.exit(3); })"`;

  it("a connect to a socket file outside the workdir fails and the listener sees nothing", async () => {
    const result = await run(connect());
    expect(result.ok).toBe(false);
    expect(result.content).not.toContain("hello from the host");
    expect(connections).toBe(0);
  });

  it("python's socket module is refused the same way", async () => {
    const result = await run(
      `python3 -c "import socket; s = socket.socket(socket.AF_UNIX); s.connect('${socketPath}'); print(s.recv(64))"`,
    );
    expect(result.ok).toBe(false);
    expect(connections).toBe(0);
  });

  it("the session's allow-network setting lets the same connect through", async () => {
    const result = await run(connect(), workdir, true);
    expect(result.ok, result.content).toBe(true);
    expect(result.content).toContain("hello from the host");
    expect(connections).toBe(1);
  });

  it("pipes and socket pairs inside the sandbox still work (child processes with IPC, a shell pipeline)", async () => {
    const result = await run(
      "echo piped | cat && node -e \"require('child_process').spawn(process.execPath, ['-e', 'process.send(41 + 1, () => process.exit(0))'], { stdio: ['pipe', 'pipe', 'pipe', 'ipc'] }).on('message', (m) => console.log('ipc', m))\"",
    );
    expect(result.ok, result.content).toBe(true);
    expect(result.content).toContain("piped");
    expect(result.content).toContain("ipc 42");
  });
});
