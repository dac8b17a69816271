// SECURITY.md S15 for MCP servers (issue #20, class 1), through real bubblewrap, the real published
// @modelcontextprotocol/server-filesystem over stdio and real git: nothing the agent asks a sandboxed MCP
// server to write makes the host's git run a configuration the agent wrote. Each attack is a series of
// the server's own tool calls, as the model would make them; afterwards the host runs a plain
// `git status` where the user would, and the command the attack planted must not have run.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ToolResult } from "../protocol/model.ts";
import { hostGit, runSandboxed, setupGit } from "../tools/fixtures/git-attack.ts";
import { Registry } from "../tools/registry.ts";
import { detectSandbox } from "../tools/sandbox.ts";
import { McpServers } from "./mcp-servers.ts";

const FILESYSTEM_SERVER = fileURLToPath(
  import.meta.resolve("@modelcontextprotocol/server-filesystem/dist/index.js"),
);

let workdir: string;
let home: string;
/** Outside the workdir and outside /tmp: where the planted command leaves its marker when git runs it. */
let outside: string;
let marker: string;
let servers: McpServers | undefined;
let registry: Registry;

beforeAll(() => {
  expect(detectSandbox().available, detectSandbox().reason).toBe(true);
});

beforeEach(async () => {
  workdir = await realpath(await mkdtemp(path.join(tmpdir(), "pc-mcp-git-work-")));
  home = await mkdtemp(path.join(tmpdir(), "pc-mcp-git-home-"));
  outside = await mkdtemp("/var/tmp/pc-mcp-git-outside-");
  marker = path.join(outside, "planted-command-ran");
  // The user's own repository at the workdir's root, with one commit.
  setupGit(workdir, "init", "-q", "-b", "main");
  await writeFile(path.join(workdir, "a.txt"), "a\n");
  setupGit(workdir, "add", "a.txt");
  setupGit(workdir, "commit", "-qm", "first");
  registry = new Registry();
  servers = new McpServers({ registry, workdir, sandbox: { homes: [home] }, clientVersion: "test" });
  await servers.start({
    servers: [
      {
        transport: "stdio",
        name: "fs",
        command: process.execPath,
        args: [FILESYSTEM_SERVER, workdir],
        env: {},
        network: false,
        configFile: path.join(home, ".PseudoClaude", "settings.json"),
        scope: "user",
      },
    ],
    withheld: [],
    warnings: [],
  });
  const view = servers.views()[0]!;
  expect(view.status, `${view.error} ${view.stderrTail}`).toBe("connected");
  expect(view.sandbox?.enabled).toBe(true);
});

afterEach(async () => {
  await servers?.close();
  servers = undefined;
  for (const folder of [workdir, home, outside]) await rm(folder, { recursive: true, force: true });
});

/** One tool call of the filesystem server, as an approved call of the model runs. */
async function call(tool: string, input: Record<string, unknown>): Promise<ToolResult> {
  const prepared = registry.prepare(`mcp__fs__${tool}`, input);
  if (!prepared.ok) throw new Error(prepared.result.content);
  const execution = await prepared.call.execute({
    workdir,
    callId: "mcp-git-attack",
    signal: new AbortController().signal,
  });
  return execution.result;
}

/** A git config whose fsmonitor runs on the next `git status` in its work tree. */
const plantedConfig = (): string =>
  `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "echo pwned > ${marker}; false"\n`;

/** The server's calls that make `sub/` a repository whose config runs the planted command. */
async function plantRepository(folder: string): Promise<ToolResult[]> {
  const git = path.join(workdir, folder, ".git");
  return [
    await call("create_directory", { path: path.join(git, "objects") }),
    await call("create_directory", { path: path.join(git, "refs", "heads") }),
    await call("write_file", { path: path.join(git, "config"), content: plantedConfig() }),
    await call("write_file", { path: path.join(git, "HEAD"), content: "ref: refs/heads/main\n" }),
  ];
}

/** The host's `git status` in each folder runs nothing the agent wrote. */
function expectHostGitRunsNothing(...folders: string[]): void {
  for (const folder of folders) {
    hostGit(folder, "status", "--short");
    expect(existsSync(marker), `git status in ${folder} ran the planted command`).toBe(false);
  }
}

describe("S15: a sandboxed MCP server's tool calls never leave a repository the agent configured", () => {
  it("a repository planted through write_file and create_directory is disarmed, and the call that armed it fails", async () => {
    const results = await plantRepository("sub");
    // The call that made git take sub/ for a repository (its HEAD) fails, saying what was undone.
    const last = results.at(-1)!;
    expect(last.ok, last.content).toBe(false);
    expect(last.errorType).toBe("sandbox_violation");
    expect(last.content).toContain("the sandbox undid what the call must not do");
    expect(last.content).toContain(path.join("sub", ".git", "HEAD"));
    expectHostGitRunsNothing(path.join(workdir, "sub"), workdir);
    // The server keeps running, and a call that plants nothing passes.
    const after = await call("write_file", { path: path.join(workdir, "b.txt"), content: "b\n" });
    expect(after.ok, after.content).toBe(true);
  });

  it("a gitlink the agent then adds to the root's index (through run_command) reaches nothing armed", async () => {
    await plantRepository("sub");
    const head = setupGit(workdir, "rev-parse", "HEAD").trim();
    const linked = await runSandboxed(workdir, `git update-index --add --cacheinfo 160000,${head},sub`);
    expect(linked.ok, linked.content).toBe(true);
    expectHostGitRunsNothing(workdir, path.join(workdir, "sub"));
  });

  it("a HEAD the server breaks in the user's repository is put back", async () => {
    const result = await call("write_file", {
      path: path.join(workdir, ".git", "HEAD"),
      content: "garbage\n",
    });
    expect(result.errorType, result.content).toBe("sandbox_violation");
    expect(hostGit(workdir, "rev-parse", "--abbrev-ref", "HEAD").output.trim()).toBe("main");
  });

  it("a repository the user makes between two calls is left alone; the server is asked to restart before it can write there", async () => {
    const mine = path.join(workdir, "mine");
    setupGit(workdir, "init", "-q", "-b", "main", "mine");
    // The server's binds date from its start: mine/.git/config would be writable to it, so no call is sent.
    const refused = await call("write_file", { path: path.join(workdir, "c.txt"), content: "c\n" });
    expect(refused.errorType, refused.content).toBe("mcp_error");
    expect(refused.content).toContain(path.join("mine", ".git", "config"));
    expect(refused.content).toContain("reconnect");
    expect(existsSync(path.join(workdir, "c.txt"))).toBe(false);
    // Started again, its sandbox keeps mine's configuration read-only, and its calls pass.
    await servers!.reconnect("fs");
    const passed = await call("write_file", { path: path.join(workdir, "c.txt"), content: "c\n" });
    expect(passed.ok, passed.content).toBe(true);
    const config = await call("write_file", {
      path: path.join(mine, ".git", "config"),
      content: plantedConfig(),
    });
    expect(config.ok, config.content).toBe(false);
    expectHostGitRunsNothing(mine, workdir);
    // Left alone throughout: still the user's repository.
    expect(hostGit(mine, "rev-parse", "--absolute-git-dir").output.trim()).toBe(path.join(mine, ".git"));
  });

  it("calls running at once are checked as one: each fails when one of them planted a repository", async () => {
    const git = path.join(workdir, "sub", ".git");
    await call("create_directory", { path: path.join(git, "objects") });
    await call("create_directory", { path: path.join(git, "refs", "heads") });
    await call("write_file", { path: path.join(git, "config"), content: plantedConfig() });
    const [planting, innocent] = await Promise.all([
      call("write_file", { path: path.join(git, "HEAD"), content: "ref: refs/heads/main\n" }),
      call("write_file", { path: path.join(workdir, "d.txt"), content: "d\n" }),
    ]);
    expect(planting.errorType, planting.content).toBe("sandbox_violation");
    // The two calls overlapped; which one armed the repository cannot be told, so neither passes.
    expect([innocent.ok, innocent.errorType]).toEqual([false, "sandbox_violation"]);
    expectHostGitRunsNothing(path.join(workdir, "sub"), workdir);
  });
});

describe("the workdir's `.PseudoClaude/` under a sandboxed MCP server (absent when it started)", () => {
  it("the server's start makes no mount point; one its call makes is removed; one the user makes is not written through it", async () => {
    const folder = path.join(workdir, ".PseudoClaude");
    expect(existsSync(folder)).toBe(false);
    const made = await call("create_directory", { path: path.join(folder, "skills", "evil") });
    expect(made.errorType, made.content).toBe("sandbox_violation");
    expect(made.content).toContain(
      ".PseudoClaude: the playground reads its settings, skills and evals from it",
    );
    expect(existsSync(folder)).toBe(false);
    // The user (or the playground: Add skill) makes it: the server's binds, fixed at its start, do not
    // keep it read-only, so no call is sent until the server is started again.
    await mkdir(folder);
    const refused = await call("write_file", { path: path.join(folder, "settings.json"), content: "{}\n" });
    expect(refused.errorType, refused.content).toBe("mcp_error");
    expect(refused.content).toContain("a protected path made after this server started (.PseudoClaude)");
    expect(existsSync(path.join(folder, "settings.json"))).toBe(false);
    await servers!.reconnect("fs");
    const after = await call("write_file", { path: path.join(folder, "settings.json"), content: "{}\n" });
    expect(after.ok).toBe(false);
    expect(existsSync(path.join(folder, "settings.json"))).toBe(false);
  });
});
