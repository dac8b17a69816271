// SECURITY.md S15 (issue #20, class 1), the configuration half, through real bubblewrap and real git: a
// file or folder a repository's configuration names as something git runs or reads as configuration — a
// hooks folder (core.hooksPath, as husky sets up), an included config file, a filter or diff driver's
// script — is kept like `.git/hooks` even where it lies in the work tree. Each attack runs as an approved
// run_command call; afterwards the host runs what the user would (`git commit`, `git status`, `git diff`),
// and the command the attack planted must not have run.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ToolResult } from "../protocol/model.ts";
import { detectSandbox } from "./sandbox.ts";
import { hostGit, runSandboxed, setupGit } from "./fixtures/git-attack.ts";

let root: string;
/** The repository's work tree; the session's workdir unless a test says otherwise. */
let repository: string;
let workdir: string;
/** Outside the workdir and outside /tmp: where the planted command leaves its marker when git runs it. */
let outside: string;
let marker: string;

beforeAll(() => {
  expect(detectSandbox().available, detectSandbox().reason).toBe(true);
});

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "pc-sandbox-git-config-"));
  repository = path.join(root, "work");
  workdir = repository;
  await mkdir(repository);
  outside = await mkdtemp("/var/tmp/pc-sandbox-git-config-outside-");
  marker = path.join(outside, "planted-command-ran");
});

afterEach(async () => {
  for (const folder of [root, outside]) await rm(folder, { recursive: true, force: true });
});

const run = (command: string): Promise<ToolResult> => runSandboxed(workdir, command);

const IDENTITY = ["-c", "user.name=t", "-c", "user.email=t@example.com"];

async function repositoryWithOneCommit(folder: string): Promise<void> {
  setupGit(folder, "init", "-q", "-b", "main");
  await writeFile(path.join(folder, "a.txt"), "a\n");
  setupGit(folder, "add", "a.txt");
  setupGit(folder, "commit", "-qm", "first");
}

/** A shell line that leaves the marker: what the attack plants. */
const payload = (): string => `echo pwned > ${marker}`;

/** What the user does next in `folder`: change a file, look at it, commit it. Nothing planted may run. */
async function expectUsersGitRunsNothing(folder: string, file = "a.txt"): Promise<void> {
  await writeFile(path.join(folder, file), `changed ${Date.now()}\n`);
  hostGit(folder, "status", "--short");
  hostGit(folder, "diff");
  hostGit(folder, "add", "-A");
  hostGit(folder, ...IDENTITY, "commit", "-qm", "after the call");
  hostGit(folder, "log", "-1", "-p");
  expect(existsSync(marker), `the user's git in ${folder} ran what the agent wrote`).toBe(false);
}

describe("S15: hooks a repository's config keeps in the work tree (core.hooksPath)", () => {
  it("husky 5–8 (core.hooksPath = .husky): an agent process cannot rewrite .husky/pre-commit", async () => {
    await repositoryWithOneCommit(repository);
    await mkdir(path.join(repository, ".husky"));
    await writeFile(path.join(repository, ".husky", "pre-commit"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    setupGit(repository, "config", "core.hooksPath", ".husky");
    const result = await run(`printf '#!/bin/sh\\n${payload()}\\n' > .husky/pre-commit`);
    expect(result.ok).toBe(false);
    expect(await readFile(path.join(repository, ".husky", "pre-commit"), "utf8")).toBe("#!/bin/sh\nexit 0\n");
    await expectUsersGitRunsNothing(repository);
  });

  it("husky 9 (core.hooksPath = .husky/_, whose stubs run .husky/<hook>): the hook beside it is kept too", async () => {
    await repositoryWithOneCommit(repository);
    const husky = path.join(repository, ".husky");
    await mkdir(path.join(husky, "_"), { recursive: true });
    // husky 9's layout: `_/h` runs `<dirname of _>/<hook name>`, and each `_/<hook>` sources `_/h`.
    await writeFile(
      path.join(husky, "_", "h"),
      '#!/bin/sh\nn=$(basename "$0")\ns=$(dirname "$(dirname "$0")")/$n\n[ ! -f "$s" ] && exit 0\nsh -e "$s" "$@"\n',
      { mode: 0o755 },
    );
    await writeFile(path.join(husky, "_", "pre-commit"), '#!/bin/sh\n. "${0%/*}/h"\n', { mode: 0o755 });
    await writeFile(path.join(husky, "pre-commit"), "exit 0\n");
    setupGit(repository, "config", "core.hooksPath", ".husky/_");
    const results = [
      await run(`echo '${payload()}' > .husky/pre-commit`),
      await run(`echo '${payload()}' > .husky/post-commit`),
      await run(
        `rm -rf .husky/_ && mkdir .husky/_ && printf '#!/bin/sh\\n${payload()}\\n' > .husky/_/pre-commit && chmod +x .husky/_/pre-commit`,
      ),
    ];
    for (const result of results) expect(result.ok, result.content).toBe(false);
    await expectUsersGitRunsNothing(repository);
  });

  it("a hooks folder the config names that does not exist yet stays absent", async () => {
    await repositoryWithOneCommit(repository);
    setupGit(repository, "config", "core.hooksPath", ".githooks");
    const result = await run(
      `mkdir .githooks && printf '#!/bin/sh\\n${payload()}\\n' > .githooks/pre-commit && chmod +x .githooks/pre-commit`,
    );
    expect(result).toMatchObject({ ok: false, errorType: "sandbox_violation" });
    expect(result.content).toContain(".githooks");
    expect(existsSync(path.join(repository, ".githooks"))).toBe(false);
    await expectUsersGitRunsNothing(repository);
  });

  it("a submodule's own core.hooksPath (its config in .git/modules) is kept in its work tree", async () => {
    const source = path.join(root, "lib-source");
    await mkdir(source);
    await repositoryWithOneCommit(source);
    await repositoryWithOneCommit(repository);
    setupGit(repository, "-c", "protocol.file.allow=always", "submodule", "add", "-q", source, "lib");
    setupGit(repository, "commit", "-qm", "submodule");
    const submodule = path.join(repository, "lib");
    await mkdir(path.join(submodule, ".hooks"));
    await writeFile(path.join(submodule, ".hooks", "pre-commit"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    setupGit(submodule, "config", "core.hooksPath", ".hooks");
    const result = await run(`printf '#!/bin/sh\\n${payload()}\\n' > lib/.hooks/pre-commit`);
    expect(result.ok).toBe(false);
    await expectUsersGitRunsNothing(submodule);
  });

  it("a workdir inside the repository: the hooks folder the enclosing repository's config names there", async () => {
    await repositoryWithOneCommit(repository);
    workdir = path.join(repository, "packages", "app");
    await mkdir(path.join(workdir, ".husky"), { recursive: true });
    await writeFile(path.join(workdir, ".husky", "pre-commit"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    setupGit(repository, "config", "core.hooksPath", "packages/app/.husky");
    const result = await run(`printf '#!/bin/sh\\n${payload()}\\n' > .husky/pre-commit`);
    expect(result.ok).toBe(false);
    await expectUsersGitRunsNothing(repository);
  });
});

describe("S15: config files a repository's config includes from the work tree", () => {
  /** A config that runs the payload on the user's next `git status`. */
  const plantedConfig = (): string => `[core]\\n\\tfsmonitor = "${payload()}; false"\\n`;

  it("include.path naming a tracked file: an agent process cannot rewrite it", async () => {
    await repositoryWithOneCommit(repository);
    await mkdir(path.join(repository, "git"));
    await writeFile(path.join(repository, "git", "shared.gitconfig"), "[pull]\n\trebase = true\n");
    setupGit(repository, "config", "include.path", "../git/shared.gitconfig");
    const result = await run(`printf '${plantedConfig()}' >> git/shared.gitconfig`);
    expect(result.ok).toBe(false);
    await expectUsersGitRunsNothing(repository);
  });

  it("include.path naming an optional file that is not there (git skips it): it stays absent", async () => {
    await repositoryWithOneCommit(repository);
    setupGit(repository, "config", "include.path", "../.gitconfig.local");
    const result = await run(`printf '${plantedConfig()}' > .gitconfig.local`);
    expect(result).toMatchObject({ ok: false, errorType: "sandbox_violation" });
    expect(existsSync(path.join(repository, ".gitconfig.local"))).toBe(false);
    await expectUsersGitRunsNothing(repository);
  });

  it("includeIf naming a file for another branch (not read until a checkout) is kept too", async () => {
    await repositoryWithOneCommit(repository);
    await writeFile(path.join(repository, "release.gitconfig"), "[pull]\n\trebase = false\n");
    setupGit(repository, "config", "includeIf.onbranch:release.path", "../release.gitconfig");
    const result = await run(`printf '${plantedConfig()}' >> release.gitconfig`);
    expect(result.ok).toBe(false);
    hostGit(repository, "checkout", "-q", "-b", "release");
    await expectUsersGitRunsNothing(repository);
  });

  it("an include in .git/ itself (writable there, outside config and hooks) is kept", async () => {
    await repositoryWithOneCommit(repository);
    await writeFile(path.join(repository, ".git", "extra.config"), "[pull]\n\trebase = true\n");
    setupGit(repository, "config", "include.path", "extra.config");
    const result = await run(`printf '${plantedConfig()}' >> .git/extra.config`);
    expect(result.ok).toBe(false);
    await expectUsersGitRunsNothing(repository);
  });
});

describe("S15: programs a repository's config runs from the work tree (filters, diff drivers)", () => {
  it("a clean filter's script: an agent process cannot rewrite it", async () => {
    await repositoryWithOneCommit(repository);
    await mkdir(path.join(repository, "tools"));
    await writeFile(path.join(repository, "tools", "tidy.sh"), "#!/bin/sh\ncat\n", { mode: 0o755 });
    await writeFile(path.join(repository, ".gitattributes"), "*.txt filter=tidy\n");
    setupGit(repository, "config", "filter.tidy.clean", "sh tools/tidy.sh");
    setupGit(repository, "config", "filter.tidy.smudge", "cat");
    setupGit(repository, "add", ".gitattributes", "tools");
    setupGit(repository, "commit", "-qm", "filter");
    const result = await run(`printf '#!/bin/sh\\n${payload()}\\ncat\\n' > tools/tidy.sh`);
    expect(result.ok).toBe(false);
    await expectUsersGitRunsNothing(repository);
  });

  it("a diff driver's textconv script: an agent process cannot rewrite it", async () => {
    await repositoryWithOneCommit(repository);
    await mkdir(path.join(repository, "tools"));
    await writeFile(path.join(repository, "tools", "show.sh"), '#!/bin/sh\ncat "$1"\n', { mode: 0o755 });
    await writeFile(path.join(repository, ".gitattributes"), "*.txt diff=show\n");
    setupGit(repository, "config", "diff.show.textconv", "./tools/show.sh");
    setupGit(repository, "add", ".gitattributes", "tools");
    setupGit(repository, "commit", "-qm", "textconv");
    const result = await run(`printf '#!/bin/sh\\n${payload()}\\ncat "$1"\\n' > tools/show.sh`);
    expect(result.ok).toBe(false);
    await expectUsersGitRunsNothing(repository);
  });

  it("a driver's program that is not there yet (a path the config names) stays absent", async () => {
    await repositoryWithOneCommit(repository);
    await writeFile(path.join(repository, ".gitattributes"), "*.txt diff=show\n");
    setupGit(repository, "config", "diff.show.textconv", "./tools/show.sh");
    const result = await run(
      `mkdir -p tools && printf '#!/bin/sh\\n${payload()}\\ncat "$1"\\n' > tools/show.sh && chmod +x tools/show.sh`,
    );
    expect(result).toMatchObject({ ok: false, errorType: "sandbox_violation" });
    expect(existsSync(path.join(repository, "tools", "show.sh"))).toBe(false);
    await expectUsersGitRunsNothing(repository);
  });
});

describe("S15: any key whose value names a work-tree program (not a list of keys)", () => {
  // The rule reads every value as a possible command line: these keys are named nowhere in the code.
  const cases = [
    { key: "core.fsmonitor", value: "./tools/watch.sh", file: "tools/watch.sh" },
    { key: "alias.lint", value: "!sh scripts/lint.sh", file: "scripts/lint.sh" },
    { key: "core.sshCommand", value: "tools/ssh-wrapper --quiet", file: "tools/ssh-wrapper" },
    { key: "filter.tidy.clean", value: "sh tidy.sh", file: "tidy.sh" },
  ];
  for (const { key, value, file } of cases) {
    it(`${key} = ${value}: an agent process cannot rewrite ${file}`, async () => {
      await repositoryWithOneCommit(repository);
      await mkdir(path.dirname(path.join(repository, file)), { recursive: true });
      await writeFile(path.join(repository, file), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
      setupGit(repository, "config", key, value);
      const result = await run(`printf '#!/bin/sh\\n${payload()}\\n' > ${file}`);
      expect(result.ok).toBe(false);
      expect(await readFile(path.join(repository, file), "utf8")).toBe("#!/bin/sh\nexit 0\n");
      // Nor move its folder aside and put another in its place.
      const folder = path.dirname(file);
      if (folder !== ".") {
        const moved = await run(
          `mv ${folder} ${folder}.old && mkdir ${folder} && echo '${payload()}' > ${file}`,
        );
        expect(moved.ok).toBe(false);
        expect(await readFile(path.join(repository, file), "utf8")).toBe("#!/bin/sh\nexit 0\n");
      }
    });
  }
});

describe("what a repository's config names stays usable for the agent", () => {
  it("files the config does not name stay writable; URLs, refspecs and plain words name nothing", async () => {
    await repositoryWithOneCommit(repository);
    await mkdir(path.join(repository, "src"));
    setupGit(repository, "config", "remote.origin.url", "git@example.com:team/src.git");
    setupGit(repository, "config", "remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*");
    setupGit(repository, "config", "branch.main.merge", "refs/heads/main");
    setupGit(repository, "config", "core.hooksPath", ".husky");
    const result = await run(
      "echo x > src/app.js && mkdir -p refs/heads && echo y > refs/heads/main && echo z > a.txt && cat src/app.js",
    );
    expect(result.ok, result.content).toBe(true);
    expect(result.content).toContain("x");
  });

  it("git commit in a repository with husky runs the hooks (read-only) and succeeds", async () => {
    await repositoryWithOneCommit(repository);
    await mkdir(path.join(repository, ".husky"));
    await writeFile(path.join(repository, ".husky", "pre-commit"), "#!/bin/sh\necho hook ran\n", {
      mode: 0o755,
    });
    setupGit(repository, "config", "core.hooksPath", ".husky");
    const result = await run(
      "echo c > c.txt && git add c.txt && git -c user.name=t -c user.email=t@example.com commit -qm third && git log --oneline | wc -l",
    );
    expect(result.ok, result.content).toBe(true);
    expect(result.content).toContain("hook ran");
    expect(result.content).toMatch(/^2$/m);
  });
});
