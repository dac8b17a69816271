// An outside tester's attacks on held writes (held-writes.ts, held-writes-check.ts, held-writes-apply.ts),
// through real bubblewrap, a real overlay, real git and real processes. The attacker controls everything the
// call's processes do and the workdir before the call; the rule under test (issue 20): nothing the agent
// writes runs on the host — no state of the workdir a host git can read, during or after the apply, is one
// the check refused — and the apply never stops the server answering. Each test failed before its fix.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hostGit, runSandboxed, expectHeldWritesHere } from "./fixtures/git-attack.ts";

let workdir: string;
let outside: string;
let marker: string;

beforeAll(expectHeldWritesHere);

beforeEach(async () => {
  workdir = await mkdtemp(path.join(tmpdir(), "pc-held-attack-"));
  outside = await mkdtemp("/var/tmp/pc-held-attack-outside-");
  marker = path.join(outside, "pwned");
});

afterEach(async () => {
  for (const folder of [workdir, outside]) await rm(folder, { recursive: true, force: true });
});

const plantedConfig = (): string =>
  `[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = .\\n\\tfsmonitor = "echo pwned > ${marker}; false"\\n`;

function fifo(name: string): string {
  const file = path.join(outside, name);
  execFileSync("mkfifo", [file]);
  return file;
}

/**
 * Runs `work`, and says the longest the event loop went without running a timer meanwhile (ms): read once
 * a timer has run after it, so a stall at its very end counts.
 */
async function longestStall(work: () => Promise<void>): Promise<number> {
  let worst = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 10);
  try {
    await work();
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    clearInterval(ticker);
  }
  return worst;
}

/** A command writing `count` empty files into `folder`. */
const manyFiles = (folder: string, count: number): string =>
  `python3 -c "
for i in range(${count}): open('${folder}/f%d' % i, 'w').close()"`;

describe("two calls at once in one workdir (two sessions)", () => {
  it("each writes half of a bare repository at the workdir's root: the one applied last is disarmed", async () => {
    // A workdir of a few thousand folders (a node_modules): each call's check takes a moment to scan it.
    for (let i = 0; i < 3000; i++)
      await mkdir(path.join(workdir, "node_modules", `pkg${i}`), { recursive: true });
    const readyA = fifo("a-ready");
    const readyB = fifo("b-ready");
    const goA = fifo("a-go");
    const goB = fifo("b-go");
    const a = runSandboxed(
      workdir,
      `mkdir objects refs && printf '${plantedConfig()}' > config && echo ready > ${readyA} && cat ${goA} > /dev/null`,
    );
    const b = runSandboxed(
      workdir,
      `echo 'ref: refs/heads/main' > HEAD && echo ready > ${readyB} && cat ${goB} > /dev/null`,
    );
    await Promise.all([readFile(readyA, "utf8"), readFile(readyB, "utf8")]);
    // One writer ends both calls at the same moment.
    await Promise.all([writeFile(goA, "go\n"), writeFile(goB, "go\n")]);
    const results = await Promise.all([a, b]);
    hostGit(workdir, "status", "--short");
    expect(existsSync(marker), "the host's git status ran the planted command").toBe(false);
    // One of the two is refused, in either of two orders the machine decides: the call whose check ran
    // after the other's apply saw both halves through its overlay and applied none of its writes; or both
    // checks ran first and the one applied last found both halves together and disarmed the repository.
    const failed = results.find((result) => !result.ok);
    expect(failed, JSON.stringify(results.map((result) => result.content))).toMatchObject({
      errorType: "sandbox_violation",
    });
    expect(failed?.content).toMatch(
      /together with another process's writes|refused the call's writes and applied none of them/,
    );
    expect(existsSync(path.join(workdir, "HEAD"))).toBe(false);
  });
});

describe("an apply that fails part way", () => {
  it("a HEAD the call replaced by a fifo (which cannot be copied) does not stay valid next to the call's new refs/", async () => {
    // The call's private folder on another file system than the workdir (a tmpfs /tmp, the default on
    // Debian 13 and Fedora): the apply copies.
    const tmpfs = await mkdtemp("/dev/shm/pc-held-attack-tmp-");
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmpfs;
    try {
      const first = await runSandboxed(
        workdir,
        "mkdir -p sub/objects && echo 'ref: refs/heads/main' > sub/HEAD",
      );
      expect(first.ok, first.content).toBe(true);
      const second = await runSandboxed(
        workdir,
        `rm sub/HEAD && mkfifo sub/HEAD && mkdir sub/refs && printf '${plantedConfig()}' > sub/config`,
      );
      // The replacement that failed took the old HEAD with it: the call fails, saying so.
      expect(second.ok).toBe(false);
      expect(second.content).toContain("the old HEAD was removed");
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      await rm(tmpfs, { recursive: true, force: true });
    }
    hostGit(path.join(workdir, "sub"), "status", "--short");
    expect(existsSync(marker), "the host's git status ran the planted command").toBe(false);
  });
});

describe("while the apply runs", () => {
  it("a host git polling the workdir never sees the old refs/ next to the call's new objects/", async () => {
    const poller = spawn(
      "sh",
      ["-c", `while [ ! -e ${marker} ]; do git -C "$0/sub" status --short > /dev/null 2>&1; done`, workdir],
      { stdio: "ignore" },
    );
    try {
      // No repository: a HEAD and refs/, but no objects/ (so its config is not protected).
      const first = await runSandboxed(
        workdir,
        `mkdir -p sub/refs sub/pdata && echo 'ref: refs/heads/main' > sub/HEAD && printf '${plantedConfig()}' > sub/config`,
      );
      expect(first.ok, first.content).toBe(true);
      // No repository either: objects/ now, refs/ gone. The apply goes name by name in sorted order:
      // objects/ is placed, then pdata/'s 30,000 files one by one, then refs/ is removed.
      const second = await runSandboxed(
        workdir,
        `mkdir sub/objects && rm -rf sub/refs && ${manyFiles("sub/pdata", 30_000)}`,
        { timeoutMs: 120_000 },
      );
      expect(second.ok, second.content).toBe(true);
    } finally {
      poller.kill("SIGKILL");
    }
    expect(existsSync(marker), "a host git status ran the planted command during the apply").toBe(false);
  }, 180_000);
});

describe("the apply never stops the server answering", () => {
  it("60,000 files written into a folder the workdir has: the event loop is never held a second", async () => {
    await mkdir(path.join(workdir, "data"));
    const stall = await longestStall(async () => {
      const result = await runSandboxed(workdir, manyFiles("data", 60_000), { timeoutMs: 300_000 });
      expect(result.ok, result.content).toBe(true);
    });
    expect(await readdir(path.join(workdir, "data"))).toHaveLength(60_000);
    expect(stall, "the longest the event loop was held, in ms").toBeLessThan(1_000);
  }, 300_000);

  it("a refused call that wrote 60,000 files: its writes are discarded without holding the event loop a second", async () => {
    // Folders an earlier test kept on purpose (a holder ended from outside keeps its writes) are not this call's.
    const base = path.join(tmpdir(), `pseudoclaude-held-${process.getuid!()}`);
    const ours = async () =>
      (await readdir(base)).filter((name) => name.startsWith(`call-${process.pid}-`) && !before.has(name));
    const before = new Set(existsSync(base) ? await readdir(base) : []);
    const stall = await longestStall(async () => {
      const result = await runSandboxed(
        workdir,
        `mkdir data && ${manyFiles("data", 60_000)} && echo '{}' > .mcp.json`,
        { timeoutMs: 300_000 },
      );
      expect(result).toMatchObject({ ok: false, errorType: "sandbox_violation" });
      // The call's folder goes after the result: wait until it has, the ticker still running.
      while ((await ours()).length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(existsSync(path.join(workdir, "data"))).toBe(false);
    expect(stall, "the longest the event loop was held, in ms").toBeLessThan(1_000);
  }, 300_000);
});

describe("what the check reads", () => {
  it("a HEAD of 2.2 GB (sparse: no disk) that git still reads as valid is seen, and the repository refused", async () => {
    // git reads 256 bytes of a HEAD to find a repository (setup.c, validate_headref); Node's readFile
    // refuses a file over 2 GiB, and a HEAD the scan could not read was no candidate at all.
    const result = await runSandboxed(
      workdir,
      `mkdir objects refs && printf 'ref: refs/heads/main\\n' > HEAD && truncate -s 2200M HEAD && printf '${plantedConfig()}' > config`,
    );
    expect(result).toMatchObject({ ok: false, errorType: "sandbox_violation" });
    expect(existsSync(path.join(workdir, "HEAD"))).toBe(false);
  });

  it("a commondir that is a fifo does not hold the check forever", async () => {
    // Opening a fifo for reading waits for a writer: a thread of libuv's pool (four in all) gone for good,
    // and the call never ends.
    const call = runSandboxed(
      workdir,
      "mkdir -p sub && echo 'ref: refs/heads/main' > sub/HEAD && mkfifo sub/commondir",
    );
    const ended = await Promise.race([
      call.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 20_000)),
    ]);
    expect(ended, "the call's check still waits on the fifo after 20 s").toBe(true);
    expect(await call).toMatchObject({ ok: false, errorType: "sandbox_violation" });
  }, 40_000);
});

describe("the overlay's holder", () => {
  /** The holder of the call over `folder`: `sh -c … holder <workdir> <upper> <work>`, found in /proc. */
  function holderOf(folder: string): number | undefined {
    for (const name of readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const args = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
        if (args[0] === "/bin/sh" && args[3] === "holder" && args[4] === folder) return Number(name);
      } catch {
        // Gone meanwhile.
      }
    }
    return undefined;
  }

  it("ended before the call (the OOM killer, a user's kill): nothing is applied unchecked", async () => {
    const ready = fifo("ready");
    const go = fifo("go");
    const call = runSandboxed(
      workdir,
      `echo ready > ${ready} && cat ${go} > /dev/null && echo '{}' > .mcp.json`,
    );
    expect(await readFile(ready, "utf8")).toBe("ready\n");
    const holder = holderOf(workdir);
    expect(holder, "the call's holder").toBeDefined();
    process.kill(holder!, "SIGKILL");
    await writeFile(go, "go\n");
    const result = await call;
    // Without its holder the merged view is gone: a check reading it saw no .mcp.json, and applied it.
    expect(existsSync(path.join(workdir, ".mcp.json")), ".mcp.json reached the workdir").toBe(false);
    expect(result.ok).toBe(false);
  });
});

describe("no set-user-ID or set-group-ID file reaches the workdir", () => {
  // A program the call marks setuid or setgid would land in the workdir that way, owned by the server's
  // user — root, when the server runs as root — and any local user who can reach the workdir would run it
  // as that user (bwrap's binds are nosuid inside the sandbox only). The rule is the sandbox's seccomp
  // filter (seccomp-filter.ts): every system call that can set those bits is refused when the mode it asks
  // for carries one, network on or off, held or not.
  for (const [label, command] of [
    ["chmod 6755", "chmod 6755 tool"],
    ["chmod u+s", "chmod u+s tool"],
    ["chmod g+s", "chmod g+s tool"],
    ["install -m 4755", "install -m 4755 tool tool2 && mv tool2 tool"],
    [
      "python os.open(O_CREAT, 0o4755)",
      `python3 -c "import os; os.close(os.open('tool', os.O_CREAT | os.O_WRONLY, 0o4755))"`,
    ],
    ["node fs.chmodSync", `node -e "require('fs').chmodSync('tool', 0o4755)"`],
  ] as const)
    it(`${label}: refused, and the file lands without the bits`, async () => {
      const result = await runSandboxed(
        workdir,
        `printf '#!/bin/sh\\nid\\n' > tool && chmod 755 tool && ${command}`,
      );
      expect(result.ok, result.content).toBe(false);
      expect(result.content).toMatch(/not permitted|EPERM/i);
      const made = path.join(workdir, "tool");
      if (existsSync(made)) expect(statSync(made).mode & 0o6000).toBe(0);
    });

  it("ordinary modes still work (chmod 755, chmod +x, umask'd creates, a sticky folder)", async () => {
    const result = await runSandboxed(
      workdir,
      "printf '#!/bin/sh\\necho ok\\n' > tool && chmod 755 tool && chmod +x tool && ./tool && mkdir shared && chmod 1777 shared && touch f && chmod 600 f && stat -c %a tool shared f",
    );
    expect(result.ok, result.content).toBe(true);
    expect(result.content).toContain("ok");
    expect(result.content).toContain("755\n1777\n600");
  });
});

describe("two calls at once in one workdir: nothing is lost", () => {
  // Each call's overlay caches its own folders. B made `build/` while the workdir had none, so B's view of
  // `build/` is B's alone even after A's apply put one there; an apply that took every entry its view hides
  // for one an `rm -rf build && mkdir build` hid removed A's file — A had succeeded. The apply now asks the
  // overlay itself which folders the call made anew (opaqueFolders in held-writes.ts): only those lose
  // what the view hides.
  it("both calls make build/ and a file in it: both files are there", async () => {
    const readyB = fifo("b-ready");
    const goB = fifo("b-go");
    const b = runSandboxed(
      workdir,
      `mkdir build && echo b > build/b.txt && echo ready > ${readyB} && cat ${goB} > /dev/null`,
    );
    expect(await readFile(readyB, "utf8")).toBe("ready\n");
    const a = await runSandboxed(workdir, "mkdir build && echo a > build/a.txt");
    expect(a.ok, a.content).toBe(true);
    await writeFile(goB, "go\n");
    expect((await b).ok).toBe(true);
    expect(readdirSync(path.join(workdir, "build")).sort()).toEqual(["a.txt", "b.txt"]);
  });
});
