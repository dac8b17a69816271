// A call's writes held apart until checked (held-writes.ts, held-writes-apply.ts), through real bubblewrap,
// a real overlay and real git: the workdir a call leaves is the one it would leave writing directly; the
// apply never writes outside the workdir, whatever another process swaps in meanwhile; and where the
// overlay is turned off, the check after the call stays and the call's metadata says so.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ToolResult } from "../protocol/model.ts";
import { HOLD_WRITES_VARIABLE } from "./held-writes.ts";
import { sandboxState, type SandboxSummary } from "./sandbox.ts";
import { hostGit, runSandboxed, setupGit, expectHeldWritesHere } from "./fixtures/git-attack.ts";
import { HELD_RENAME_HINT } from "./system/process-result.ts";

let root: string;
let outside: string;

beforeAll(expectHeldWritesHere);

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "pc-held-"));
  outside = await mkdtemp("/var/tmp/pc-held-outside-");
});

afterEach(async () => {
  delete process.env[HOLD_WRITES_VARIABLE];
  for (const folder of [root, outside]) await rm(folder, { recursive: true, force: true });
});

/** One approved run_command call; `held: false` runs it with writes not held (the setting is read per call). */
async function run(
  workdir: string,
  command: string,
  options: { held?: boolean; timeoutMs?: number } = {},
): Promise<ToolResult> {
  if (options.held === false) process.env[HOLD_WRITES_VARIABLE] = "off";
  try {
    return await runSandboxed(workdir, command, options);
  } finally {
    delete process.env[HOLD_WRITES_VARIABLE];
  }
}

const summary = (result: ToolResult): SandboxSummary | undefined =>
  result.metadata?.sandbox as SandboxSummary | undefined;

/** Every entry below `folder` but `.git`: its type, mode, and content or link target. */
function listing(folder: string, relative = ""): string[] {
  const lines: string[] = [];
  for (const name of readdirSync(path.join(folder, relative)).sort()) {
    const child = path.join(relative, name);
    if (child === ".git") continue;
    const full = path.join(folder, child);
    const info = lstatSync(full);
    const mode = (info.mode & 0o7777).toString(8);
    if (info.isSymbolicLink()) lines.push(`${child} link ${readlinkSync(full)}`);
    else if (info.isDirectory()) lines.push(`${child}/ ${mode}`, ...listing(folder, child));
    else
      lines.push(
        `${child} ${mode} ${createHash("sha256").update(readFileSync(full)).digest("hex").slice(0, 12)}`,
      );
  }
  return lines;
}

/** What git says of a repository, free of commit ids and times. */
function gitState(folder: string): string[] {
  if (!existsSync(path.join(folder, ".git"))) return [];
  return [
    hostGit(folder, "rev-parse", "--abbrev-ref", "HEAD").output,
    // As a set: `log --all` orders commits made in the same second differently from run to run.
    hostGit(folder, "log", "--all", "--format=%s%d").output.split("\n").sort().join("\n"),
    hostGit(folder, "status", "--porcelain").output,
    hostGit(folder, "fsck", "--no-progress").ok ? "fsck ok" : "fsck failed",
  ];
}

/**
 * Runs `command` in two workdirs `setup` made alike: writes held in one, direct in the other. Returns
 * both results; the two workdirs must end alike.
 */
async function alike(
  setup: (workdir: string) => Promise<void>,
  command: string,
  options: { heldTmp?: string } = {},
): Promise<{ held: ToolResult; direct: ToolResult; workdir: string }> {
  const heldDir = path.join(root, "held");
  const directDir = path.join(root, "direct");
  for (const folder of [heldDir, directDir]) {
    await mkdir(folder);
    await setup(folder);
  }
  // The held writes' private folder lives in $TMPDIR (read per call): another file system makes a copy.
  const tmp = process.env.TMPDIR;
  if (options.heldTmp) process.env.TMPDIR = options.heldTmp;
  const held = await run(heldDir, command).finally(() => {
    if (tmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmp;
  });
  const direct = await run(directDir, command, { held: false });
  expect(summary(held)?.writesHeld).toBe(true);
  expect(summary(direct)?.writesHeld).toBe(false);
  expect(listing(heldDir)).toEqual(listing(directDir));
  expect(gitState(heldDir)).toEqual(gitState(directDir));
  return { held, direct, workdir: heldDir };
}

async function repository(folder: string): Promise<void> {
  setupGit(folder, "init", "-q", "-b", "main");
  await writeFile(path.join(folder, "a.txt"), "a\n");
  await mkdir(path.join(folder, "src", "deep"), { recursive: true });
  await writeFile(path.join(folder, "src", "one.ts"), "one\n");
  await writeFile(path.join(folder, "src", "deep", "two.ts"), "two\n");
  setupGit(folder, "add", ".");
  setupGit(folder, "commit", "-qm", "first");
}

/** The repository, and a folder `keep` with one file outside git's care. */
async function repositoryWithKeep(folder: string): Promise<void> {
  await repository(folder);
  await mkdir(path.join(folder, "keep"));
  await writeFile(path.join(folder, "keep", "old.txt"), "old\n");
}

describe("a held call leaves the workdir it would leave writing directly", () => {
  it("deletions, a folder removed and made again (opaque), modes, symlinks and hard links", async () => {
    const { held } = await alike(
      repositoryWithKeep,
      "rm a.txt && rm -rf src && mkdir -p src/deep && echo fresh > src/new.ts && " +
        "chmod 700 keep && chmod 750 keep/old.txt && ln -s keep/old.txt link && ln keep/old.txt hard && " +
        "mkdir -p gone/x && rm -rf gone && echo y > keep/old.txt",
    );
    expect(held.ok, held.content).toBe(true);
    const workdir = path.join(root, "held");
    expect(existsSync(path.join(workdir, "src", "one.ts"))).toBe(false);
    expect(readdirSync(path.join(workdir, "src")).sort()).toEqual(["deep", "new.ts"]);
    expect(readdirSync(path.join(workdir, "src", "deep"))).toEqual([]);
    expect(lstatSync(path.join(workdir, "hard")).ino).toBe(
      lstatSync(path.join(workdir, "keep", "old.txt")).ino,
    );
  });

  it("git commit, checkout, branch and gc in the sandbox", async () => {
    const { held } = await alike(
      repository,
      "git checkout -q -b feature && echo c > c.txt && git add c.txt && " +
        "git -c user.name=t -c user.email=t@example.com commit -qm third && git checkout -q main && " +
        "git rm -q a.txt && git -c user.name=t -c user.email=t@example.com commit -qm fourth && git gc -q",
    );
    expect(held.ok, held.content).toBe(true);
  });

  it("many new files (npm-like), and rm -rf of a folder then made again", async () => {
    const write =
      'const fs = require("fs"); for (let p = 0; p < 200; p++) { const d = "node_modules/pkg" + p + "/lib"; ' +
      'fs.mkdirSync(d, { recursive: true }); for (let f = 0; f < 10; f++) fs.writeFileSync(d + "/f" + f + ".js", p + "-" + f); }';
    const { held } = await alike(async (folder) => {
      await repository(folder);
      await mkdir(path.join(folder, "dist"));
      await writeFile(path.join(folder, "dist", "stale.js"), "stale\n");
    }, `node -e '${write}' && rm -rf dist && mkdir dist && echo built > dist/out.js`);
    expect(held.ok, held.content).toBe(true);
    expect(readdirSync(path.join(root, "held", "node_modules"))).toHaveLength(200);
  });

  it("copied, not renamed, when the private folder is on another file system (a tmpfs)", async () => {
    const tmpfs = await mkdtemp("/dev/shm/pc-held-tmp-");
    try {
      const { held } = await alike(
        repositoryWithKeep,
        "rm -rf src && mkdir -p src/deep && echo fresh > src/new.ts && chmod 751 src/new.ts && " +
          "mkdir -p lib/a/b && echo deep > lib/a/b/c.txt && ln -s ../keep/old.txt lib/link && rm a.txt && " +
          "echo changed > keep/old.txt && git add -A && git -c user.name=t -c user.email=t@example.com commit -qm second",
        { heldTmp: tmpfs },
      );
      expect(held.ok, held.content).toBe(true);
      // The call's writes were held there.
      expect(existsSync(path.join(tmpfs, `pseudoclaude-held-${process.getuid!()}`))).toBe(true);
    } finally {
      await rm(tmpfs, { recursive: true, force: true });
    }
  });

  it("mv of a folder the workdir had (coreutils copies it across the overlay's layers)", async () => {
    const { held } = await alike(repository, "mv src lib && mv lib/deep lib/deeper");
    expect(held.ok, held.content).toBe(true);
  });

  it("a program's own rename of a folder the workdir had fails with EXDEV (the overlay's one difference)", async () => {
    await mkdir(path.join(root, "w"));
    await repository(path.join(root, "w"));
    const result = await run(
      path.join(root, "w"),
      `node -e "try { require('fs').renameSync('src', 'lib'); console.log('renamed') } catch (e) { console.log(e.code) }"`,
    );
    expect(result.content).toContain("EXDEV");
    // The result says why, and what works instead (process-result.ts).
    expect(result.content).toContain(HELD_RENAME_HINT);
    expect(existsSync(path.join(root, "w", "src", "one.ts"))).toBe(true);
  });

  it("a timed-out call's writes so far are checked and applied", async () => {
    await mkdir(path.join(root, "w"));
    const result = await run(path.join(root, "w"), "echo partial > made.txt && sleep 30", {
      timeoutMs: 1_000,
    });
    expect(result).toMatchObject({ ok: false, errorType: "timeout" });
    expect(await readFile(path.join(root, "w", "made.txt"), "utf8")).toBe("partial\n");
  });

  it("a read-only call writes nothing to the workdir", async () => {
    const workdir = path.join(root, "w");
    await mkdir(workdir);
    await repository(workdir);
    await run(workdir, "true");
    const before = listing(workdir);
    const result = await run(workdir, "cat a.txt && ls src && git log --oneline | wc -l");
    expect(result.ok, result.content).toBe(true);
    expect(listing(workdir)).toEqual(before);
  });
});

describe("the apply never writes outside the workdir", () => {
  /** Two FIFOs outside the workdir: the call says it has written, then waits until the test writes. */
  function gate(): { ready: string; proceed: string } {
    const ready = path.join(outside, "ready.fifo");
    const proceed = path.join(outside, "proceed.fifo");
    for (const fifo of [ready, proceed]) execFileSync("mkfifo", [fifo]);
    return { ready, proceed };
  }

  it("a folder of the workdir swapped for a symlink out of it while the call runs", async () => {
    const workdir = path.join(root, "w");
    const target = path.join(outside, "target");
    await mkdir(path.join(workdir, "sub"), { recursive: true });
    await mkdir(target);
    await writeFile(path.join(workdir, "sub", "old.txt"), "old\n");
    const { ready, proceed } = gate();
    const call = run(
      workdir,
      `echo written > sub/new.txt && mkdir fresh && echo x > fresh/f.txt && echo ready > ${ready} && read go < ${proceed}`,
    );
    // Another process (an MCP server, the user's editor) replaces both with symlinks out of the workdir.
    expect(await readFile(ready, "utf8")).toBe("ready\n");
    await rm(path.join(workdir, "sub"), { recursive: true });
    await symlink(target, path.join(workdir, "sub"));
    await symlink(target, path.join(workdir, "fresh"));
    await writeFile(proceed, "go\n");
    await call;
    expect(readdirSync(target)).toEqual([]);
    expect(lstatSync(path.join(workdir, "sub")).isDirectory()).toBe(true);
    expect(await readFile(path.join(workdir, "sub", "new.txt"), "utf8")).toBe("written\n");
    expect(await readFile(path.join(workdir, "fresh", "f.txt"), "utf8")).toBe("x\n");
  });
});

describe("what another process does in the workdir meanwhile is not laid to the call", () => {
  it("a repository the user makes during the call stays armed; the call's own writes are applied", async () => {
    const workdir = path.join(root, "w");
    await mkdir(workdir);
    const ready = path.join(outside, "ready.fifo");
    const proceed = path.join(outside, "proceed.fifo");
    for (const fifo of [ready, proceed]) execFileSync("mkfifo", [fifo]);
    const call = run(workdir, `echo mine > mine.txt && echo ready > ${ready} && read go < ${proceed}`);
    expect(await readFile(ready, "utf8")).toBe("ready\n");
    setupGit(workdir, "init", "-q", "users-own");
    await writeFile(proceed, "go\n");
    const result = await call;
    expect(result.ok, result.content).toBe(true);
    expect(await readFile(path.join(workdir, "mine.txt"), "utf8")).toBe("mine\n");
    expect(hostGit(path.join(workdir, "users-own"), "rev-parse", "--git-dir").output.trim()).toBe(".git");
  });
});

describe("where writes cannot be held, the check after the call stays, and says so", () => {
  it(`${HOLD_WRITES_VARIABLE}=off: the call writes directly, a planted repository is disarmed after it`, async () => {
    const workdir = path.join(root, "w");
    await mkdir(workdir);
    process.env[HOLD_WRITES_VARIABLE] = "off";
    expect(sandboxState(false)).toMatchObject({
      enabled: true,
      writesHeld: false,
      writesHeldReason: `turned off by ${HOLD_WRITES_VARIABLE}=off`,
    });
    const result = await run(
      workdir,
      "mkdir -p sub/objects sub/refs && echo 'ref: refs/heads/main' > sub/HEAD && echo kept > kept.txt",
      { held: false },
    );
    expect(result).toMatchObject({ ok: false, errorType: "sandbox_violation" });
    expect(result.metadata?.sandbox).toMatchObject({
      writesHeld: false,
      writesHeldReason: `turned off by ${HOLD_WRITES_VARIABLE}=off`,
    });
    expect(existsSync(path.join(workdir, "sub", "HEAD.disarmed"))).toBe(true);
    expect(existsSync(path.join(workdir, "kept.txt"))).toBe(true);
    delete process.env[HOLD_WRITES_VARIABLE];
    expect(sandboxState(false)).toMatchObject({ enabled: true, writesHeld: true });
  });
});
