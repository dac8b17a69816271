// SECURITY.md S15 (issue #20, class 1), through real bubblewrap and real git: nothing an agent process
// writes makes the host's git run a configuration the agent wrote. Each attack runs as approved
// run_command calls; afterwards the host runs a plain `git status` where the user would (the workdir and
// the folder the attack targeted), and the command the attack planted must not have run.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ToolResult } from "../protocol/model.ts";
import { MAX_GITLINKS } from "./gitlinks.ts";
import { MAX_SCANNED_FOLDERS } from "./sandbox-git.ts";
import { detectSandbox } from "./sandbox.ts";
import { hostGit, runSandboxed, setupGit } from "./fixtures/git-attack.ts";

let root: string;
let workdir: string;
/** Outside the workdir and outside /tmp: where the planted command leaves its marker when git runs it. */
let outside: string;
let marker: string;

beforeAll(() => {
  expect(detectSandbox().available, detectSandbox().reason).toBe(true);
});

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "pc-sandbox-git-"));
  workdir = path.join(root, "work");
  await mkdir(workdir);
  outside = await mkdtemp("/var/tmp/pc-sandbox-git-outside-");
  marker = path.join(outside, "planted-command-ran");
});

afterEach(async () => {
  for (const folder of [root, outside]) await rm(folder, { recursive: true, force: true });
});

const run = (command: string): Promise<ToolResult> => runSandboxed(workdir, command);

/** Two FIFOs in `outside` through which a running call and the test wait for each other. */
function makeRendezvous(): { planted: string; proceed: string } {
  const planted = path.join(outside, "planted.fifo");
  const proceed = path.join(outside, "proceed.fifo");
  for (const fifo of [planted, proceed]) execFileSync("mkfifo", [fifo]);
  return { planted, proceed };
}

async function repositoryWithTwoCommits(folder: string): Promise<void> {
  setupGit(folder, "init", "-q", "-b", "main");
  await writeFile(path.join(folder, "a.txt"), "a\n");
  setupGit(folder, "add", "a.txt");
  setupGit(folder, "commit", "-qm", "first");
  await writeFile(path.join(folder, "b.txt"), "b\n");
  setupGit(folder, "add", "b.txt");
  setupGit(folder, "commit", "-qm", "second");
}

/** A git config whose fsmonitor runs on the next `git status`, in printf's escapes. */
const plantedConfig = (): string =>
  `[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = .\\n\\tfsmonitor = "echo pwned > ${marker}; false"\\n`;

/** The host's `git status` in each folder runs nothing the agent wrote. */
function expectHostGitRunsNothing(...folders: string[]): void {
  for (const folder of folders) {
    hostGit(folder, "status", "--short");
    expect(existsSync(marker), `git status in ${folder} ran the planted command`).toBe(false);
  }
}

/** The repository git finds from the workdir is still the workdir's own `.git`, with a valid HEAD. */
function expectOwnRepository(): void {
  const found = hostGit(workdir, "rev-parse", "--absolute-git-dir");
  expect(found.output.trim(), found.output).toBe(path.join(workdir, ".git"));
  expect(hostGit(workdir, "rev-parse", "--abbrev-ref", "HEAD").output.trim()).toBe("main");
}

describe("S15: the workdir never becomes a repository the agent configured", () => {
  it("every step a git command (git log --output, git format-patch -o): the host's git status runs nothing", async () => {
    await repositoryWithTwoCommits(workdir);
    const steps = [
      "git log -1 --pretty='tformat:ref: refs/heads/main' --output=HEAD",
      `git log -1 --pretty='tformat:${plantedConfig().replace(/\\n/g, "%n").replace(/\\t/g, "%x09")}' --output=config`,
      "git format-patch -q -o objects -1",
      "git format-patch -q -o refs -1",
      "git log -1 --pretty=tformat:broken --output=.git/HEAD",
    ];
    const results: ToolResult[] = [];
    for (const step of steps) results.push(await run(step));
    expectHostGitRunsNothing(workdir);
    expect(results.some((result) => !result.ok && result.errorType === "sandbox_violation")).toBe(true);
    expectOwnRepository();
  });

  it("one approved `node scripts/setup.js` that plants the bare repository and breaks .git/HEAD fails and is undone", async () => {
    await repositoryWithTwoCommits(workdir);
    await mkdir(path.join(workdir, "scripts"));
    await writeFile(
      path.join(workdir, "scripts", "setup.js"),
      [
        "const fs = require('fs');",
        "fs.writeFileSync('HEAD', 'ref: refs/heads/main\\n');",
        `fs.writeFileSync('config', ${JSON.stringify(plantedConfig().replace(/\\n/g, "\n").replace(/\\t/g, "\t"))});`,
        "fs.mkdirSync('objects'); fs.mkdirSync('refs');",
        "fs.writeFileSync('.git/HEAD', 'garbage\\n');",
        "console.log('setup done');",
      ].join("\n"),
    );
    const result = await run("node scripts/setup.js");
    expectHostGitRunsNothing(workdir);
    expect(result).toMatchObject({ ok: false, errorType: "sandbox_violation" });
    expect(result.content).toContain("setup done");
    expectOwnRepository();
    expect(readFileSync(path.join(workdir, ".git", "HEAD"), "utf8")).toBe("ref: refs/heads/main\n");
  });

  it("a workdir that is not a repository does not become one", async () => {
    const result = await run(
      `mkdir objects refs && echo 'ref: refs/heads/main' > HEAD && printf '${plantedConfig()}' > config`,
    );
    expectHostGitRunsNothing(workdir);
    expect(result).toMatchObject({ ok: false, errorType: "sandbox_violation" });
    expect(hostGit(workdir, "rev-parse", "--git-dir").ok).toBe(false);
  });

  it("a HEAD broken on its own is put back, and the call says so", async () => {
    await repositoryWithTwoCommits(workdir);
    const result = await run("rm .git/HEAD && mkdir .git/HEAD");
    expect(result).toMatchObject({ ok: false, errorType: "sandbox_violation" });
    expect(result.content).toContain(".git/HEAD");
    expectOwnRepository();
  });

  it("objects/ and refs/ of the workdir's repository cannot be moved aside", async () => {
    await repositoryWithTwoCommits(workdir);
    await run("mv .git/objects .git/objects-aside; mv .git/refs .git/refs-aside");
    expect(existsSync(path.join(workdir, ".git", "objects-aside"))).toBe(false);
    expect(existsSync(path.join(workdir, ".git", "refs-aside"))).toBe(false);
    expectOwnRepository();
  });
});

describe("S15: no folder below the workdir becomes a repository the agent configured", () => {
  it("bare-repository markers planted in a subfolder are disarmed", async () => {
    await repositoryWithTwoCommits(workdir);
    const result = await run(
      `mkdir -p src/objects src/refs && echo 'ref: refs/heads/main' > src/HEAD && printf '${plantedConfig()}' > src/config`,
    );
    expectHostGitRunsNothing(workdir, path.join(workdir, "src"));
    expect(result).toMatchObject({ ok: false, errorType: "sandbox_violation" });
    expect(result.content).toContain(path.join("src", "HEAD"));
  });

  it("a copied .git folder with a new config is disarmed", async () => {
    await repositoryWithTwoCommits(workdir);
    const result = await run(
      `mkdir sub && cp -r .git sub/.git && printf '${plantedConfig()}' > sub/.git/config`,
    );
    expectHostGitRunsNothing(path.join(workdir, "sub"));
    expect(result).toMatchObject({ ok: false, errorType: "sandbox_violation" });
  });

  it("`git init` by the agent (a config it controls) is disarmed: repositories are made by the user", async () => {
    await repositoryWithTwoCommits(workdir);
    const result = await run(
      `git init -q sub && git -C sub config core.fsmonitor 'echo pwned > ${marker}; false'`,
    );
    expectHostGitRunsNothing(path.join(workdir, "sub"));
    expect(result).toMatchObject({ ok: false, errorType: "sandbox_violation" });
    expect(result.content).toMatch(/repository/);
  });

  it("a `.git` file with `gitdir:` planted in a subfolder is disarmed", async () => {
    await repositoryWithTwoCommits(workdir);
    const result = await run("mkdir docs && echo 'gitdir: ../.git' > docs/.git");
    expect(result).toMatchObject({ ok: false, errorType: "sandbox_violation" });
    expect(existsSync(path.join(workdir, "docs", ".git"))).toBe(false);
  });

  it("a disarmed repository (as the check after a call leaves one) armed again by a later call is refused", async () => {
    await repositoryWithTwoCommits(workdir);
    await mkdir(path.join(workdir, "lib", "objects"), { recursive: true });
    await mkdir(path.join(workdir, "lib", "refs"));
    await writeFile(path.join(workdir, "lib", "HEAD.disarmed"), "ref: refs/heads/main\n");
    await writeFile(
      path.join(workdir, "lib", "config"),
      plantedConfig().replace(/\\n/g, "\n").replace(/\\t/g, "\t"),
    );
    const again = await run('cd lib && for f in HEAD.*; do mv "$f" HEAD; done');
    expectHostGitRunsNothing(path.join(workdir, "lib"));
    expect(again).toMatchObject({ ok: false, errorType: "sandbox_violation" });
  });

  it("a repository the user keeps in a subfolder keeps its config and hooks read-only", async () => {
    await repositoryWithTwoCommits(workdir);
    const nested = path.join(workdir, "vendor", "lib");
    await mkdir(nested, { recursive: true });
    await repositoryWithTwoCommits(nested);
    const config = await readFile(path.join(nested, ".git", "config"), "utf8");
    const result = await run(
      `git -C vendor/lib config core.fsmonitor 'echo pwned > ${marker}; false'; ` +
        "printf '#!/bin/sh\\necho pwned\\n' > vendor/lib/.git/hooks/pre-commit",
    );
    expectHostGitRunsNothing(nested);
    expect(result.ok).toBe(false);
    expect(await readFile(path.join(nested, ".git", "config"), "utf8")).toBe(config);
    expect(existsSync(path.join(nested, ".git", "hooks", "pre-commit"))).toBe(false);
  });
});

describe("S15: a repository git reaches from the workdir through a gitlink is checked, however large the workdir", () => {
  // `git status` in the workdir also runs `git status` in every submodule its index names (a gitlink, mode
  // 160000), with that folder's `.git` as the repository: a repository planted anywhere in the workdir is
  // reached from the top as soon as the (writable) index names it. The folder scan stops at
  // MAX_SCANNED_FOLDERS, so a plant past it — in a workdir the call itself made large, or in a large
  // node_modules — went unseen, and the user's next plain `git status` in the workdir ran its config.
  const plantBehindGitlink = (folder: string): string =>
    `mkdir -p ${folder}/.git/objects ${folder}/.git/refs && echo 'ref: refs/heads/main' > ${folder}/.git/HEAD && ` +
    `printf '${plantedConfig()}' > ${folder}/.git/config && ` +
    `git update-index --add --cacheinfo 160000,$(git rev-parse HEAD),${folder}`;

  it("past 10,000 folders the call made itself: disarmed, and the host's git status in the workdir runs nothing", async () => {
    await repositoryWithTwoCommits(workdir);
    const result = await run(
      `mkdir a && (cd a && seq 1 ${MAX_SCANNED_FOLDERS + 1} | xargs mkdir) && ${plantBehindGitlink("zz")}`,
    );
    expectHostGitRunsNothing(workdir);
    expect(result).toMatchObject({ ok: false, errorType: "sandbox_violation" });
    expect(result.content).toContain(path.join("zz", ".git", "HEAD"));
  });

  /** More folders than the scan reads, made by the user before the session (a large node_modules). */
  const widenWorkdir = async (): Promise<void> => {
    const wide = path.join(workdir, "node_modules");
    await mkdir(wide);
    await Promise.all(
      Array.from({ length: MAX_SCANNED_FOLDERS + 1 }, (_, index) => mkdir(path.join(wide, `p${index}`))),
    );
  };

  it(`behind more than ${MAX_GITLINKS} gitlinks: the index that hides it is refused (set aside where writes are not held), and the host's git status runs nothing`, async () => {
    await repositoryWithTwoCommits(workdir);
    const decoys = `seq 1 ${MAX_GITLINKS + 1} | sed "s|.*|160000 $(git rev-parse HEAD)\\tg/&|" | git update-index --index-info`;
    const result = await run(
      `mkdir a && (cd a && seq 1 ${MAX_SCANNED_FOLDERS + 1} | xargs mkdir) && ${decoys} && ${plantBehindGitlink("zz")}`,
    );
    expectHostGitRunsNothing(workdir);
    expect(result).toMatchObject({ ok: false, errorType: "sandbox_violation" });
    expect(result.content).toContain(`more than ${MAX_GITLINKS} submodules`);
    // Held until checked, the call's index never reached the workdir (nothing to set aside).
    expect(hostGit(workdir, "ls-files", "--stage", "zz").output).toBe("");
  });

  it("in a folder the workdir already held past the scan's reach (a large node_modules)", async () => {
    await repositoryWithTwoCommits(workdir);
    await widenWorkdir();
    await mkdir(path.join(workdir, "zz", "deep"), { recursive: true });
    const result = await run(plantBehindGitlink("zz/deep"));
    expectHostGitRunsNothing(workdir);
    expect(result).toMatchObject({ ok: false, errorType: "sandbox_violation" });
  });

  it("a submodule the user keeps past the scan's reach stays as it is, its config read-only", async () => {
    await repositoryWithTwoCommits(workdir);
    await widenWorkdir();
    const nested = path.join(workdir, "zz", "lib");
    await mkdir(nested, { recursive: true });
    await repositoryWithTwoCommits(nested);
    setupGit(
      workdir,
      "update-index",
      "--add",
      "--cacheinfo",
      `160000,${setupGit(nested, "rev-parse", "HEAD").trim()},zz/lib`,
    );
    const result = await run(
      `git -C zz/lib config core.fsmonitor 'echo pwned > ${marker}; false'; git -C zz/lib log --oneline | wc -l`,
    );
    expect(result.content).toContain("2");
    expectHostGitRunsNothing(workdir, nested);
    expect(hostGit(nested, "rev-parse", "--abbrev-ref", "HEAD").output.trim()).toBe("main");
  });
});

describe("S15: a host git that runs while the call is still running", () => {
  // A host git runs without the user typing anything: an editor's git integration (VS Code runs `git
  // status` on every file change) or a shell prompt that shows the branch and status. A check after the
  // call cannot protect it; so a call's writes are held apart (an overlay, held-writes.ts) until the call
  // has ended and its result is checked. The call below plants a repository behind a gitlink, then waits:
  // the host's `git status` during the wait sees neither, and afterwards nothing of the call is applied.
  it("a repository planted mid-call is not live for a host git status during the call, nor applied after it", async () => {
    await repositoryWithTwoCommits(workdir);
    const index = await readFile(path.join(workdir, ".git", "index"));
    // The call and the test meet through two FIFOs outside the workdir (a FIFO on the read-only root can
    // still be opened): the call says it has planted, then waits until the test has run its git.
    const { planted, proceed } = makeRendezvous();
    const call = run(
      "mkdir -p zz/.git/objects zz/.git/refs && echo 'ref: refs/heads/main' > zz/.git/HEAD && " +
        `printf '${plantedConfig()}' > zz/.git/config && ` +
        "git update-index --add --cacheinfo 160000,$(git rev-parse HEAD),zz && " +
        `echo planted > ${planted} && read go < ${proceed}`,
    );
    expect(await readFile(planted, "utf8")).toBe("planted\n");
    hostGit(workdir, "status", "--short");
    const ranDuringCall = existsSync(marker);
    const visibleDuringCall = existsSync(path.join(workdir, "zz"));
    await writeFile(proceed, "go\n");
    const result = await call;
    expect(ranDuringCall, "the host's git status during the call ran the planted command").toBe(false);
    expect(visibleDuringCall, "the planted folder was in the workdir during the call").toBe(false);
    expect(result).toMatchObject({ ok: false, errorType: "sandbox_violation" });
    expect(result.content).toContain(path.join("zz", ".git", "HEAD"));
    expect(existsSync(path.join(workdir, "zz"))).toBe(false);
    expect(await readFile(path.join(workdir, ".git", "index"))).toEqual(index);
    expectHostGitRunsNothing(workdir);
  });
});

describe("S15: hooks a repository's own config keeps in the work tree", () => {
  // `core.hooksPath` pointing into the work tree is what husky sets up in most JavaScript projects. Those
  // files are ordinary workdir files, yet git runs them on the user's next plain `git commit`: a folder
  // the repository's config names as its hooks is kept like `.git/hooks` (git-config-paths.ts states the
  // rule; sandbox-git-config.attack.test.ts has its variants).
  it("an agent process cannot rewrite a hook that core.hooksPath names in the work tree", async () => {
    await repositoryWithTwoCommits(workdir);
    await mkdir(path.join(workdir, ".husky"));
    await writeFile(path.join(workdir, ".husky", "pre-commit"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    setupGit(workdir, "config", "core.hooksPath", ".husky");
    await run(`printf '#!/bin/sh\\necho pwned > ${marker}\\n' > .husky/pre-commit`);
    await writeFile(path.join(workdir, "c.txt"), "c\n");
    setupGit(workdir, "add", "c.txt");
    hostGit(workdir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "third");
    expect(existsSync(marker), "the user's git commit ran the hook the agent wrote").toBe(false);
  });
});

describe("git keeps working for the agent in the workdir's repository", () => {
  it("commits, branches, switches and collects garbage", async () => {
    await repositoryWithTwoCommits(workdir);
    const result = await run(
      "git checkout -q -b feature && echo c > c.txt && git add c.txt && " +
        "git -c user.name=t -c user.email=t@example.com commit -qm third && git checkout -q main && " +
        "git gc -q && git log --oneline feature | wc -l",
    );
    expect(result.ok, result.content).toBe(true);
    expect(result.content.trim()).toBe("3");
    expectOwnRepository();
  });
});
