// Each test gets its own real playground server: a copy of examples/demo-workdir in a temp dir, a temp
// home, the e2e scenarios, started (the server's bundle, server/testing/server-bundle.ts) as a child process
// in its own process group and killed (the whole group) afterwards. The page is opened at the URL the server printed.
import { test as base, expect } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serverBundle } from "../server/testing/server-bundle.ts";
import { WorkspacePage } from "./pages/workspace-page.ts";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const startDeadlineMs = 45_000;
const stopDeadlineMs = 10_000;

export interface Playground {
  /** The URL the server printed, token fragment included. */
  url: string;
  origin: string;
  token: string;
  workdir: string;
  home: string;
  /** Everything the server wrote to stdout and stderr so far (for failure messages). */
  output: () => string;
}

/** A project skill named like a builtin one, so the catalog has an override with a shadowed builtin. */
const overrideSkill = `---
name: review
description: Project review checklist for Acme Orders (overrides the builtin review skill).
---

# Review (project rules)

Check that amounts stay in integer cents until src/format.js, then review as usual.
`;

function waitForUrl(child: ChildProcess, output: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(new Error(`the server printed no PLAYGROUND_URL within ${startDeadlineMs} ms:\n${output()}`)),
      startDeadlineMs,
    );
    const onData = () => {
      const match = /PLAYGROUND_URL=(\S+)/.exec(output());
      if (match) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        resolve(match[1]);
      }
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(`the server exited (code ${code}, signal ${signal}) before printing its URL:\n${output()}`),
      );
    });
  });
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(-child.pid, "SIGTERM");
  const timedOut = await Promise.race([
    exited.then(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(true), stopDeadlineMs)),
  ]);
  if (timedOut) {
    process.kill(-child.pid, "SIGKILL");
    await exited;
  }
}

/** The e2e scenarios by default; the walk-through spec plays the repo's own demo scenarios instead. */
export const e2eScenarios = path.join(repoRoot, "e2e", "fixtures", "scenarios");
export const demoScenarios = path.join(repoRoot, "scenarios");

export async function startPlayground(
  scenariosDir = e2eScenarios,
  serverEnv: Record<string, string> = {},
  options: {
    /** Keep the demo's MCP server (.mcp.json): the copy is not trusted, so the session opens on a trust prompt. */
    demoMcp?: boolean;
    /** A restart: the same port, home and workdir as `again` (a new token, as on every start). */
    again?: Playground;
  } = {},
): Promise<{ playground: Playground; stop: () => Promise<void>; kill: () => Promise<void> }> {
  const { demoMcp = false, again } = options;
  const root = again ? path.dirname(again.home) : await mkdtemp(path.join(tmpdir(), "playground-e2e-"));
  const workdir = path.join(root, "work");
  const home = path.join(root, "home");
  if (!again) {
    await cp(path.join(repoRoot, "examples", "demo-workdir"), workdir, { recursive: true });
    // The copy is passed as --workdir, so unlike npm start's own demo copy it is not trusted: its MCP
    // server (.mcp.json) would make every test open on a trust prompt. Only tests that ask keep it.
    if (!demoMcp) await rm(path.join(workdir, ".mcp.json"));
  }
  await mkdir(home, { recursive: true });
  const overridePath = path.join(workdir, ".PseudoClaude", "skills", "review", "SKILL.md");
  if (!existsSync(overridePath)) {
    await mkdir(path.dirname(overridePath), { recursive: true });
    await writeFile(overridePath, overrideSkill);
  }
  let output = "";
  // The server bundled once per state of its sources (about 1 s to start instead of tsx's 4 to 6).
  const child = spawn(
    process.execPath,
    [
      serverBundle(),
      "--port",
      again ? new URL(again.origin).port : "0",
      "--home",
      home,
      "--workdir",
      workdir,
      "--scenarios",
      scenariosDir,
    ],
    {
      cwd: repoRoot,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_ENV: "production", ...serverEnv },
    },
  );
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  /** Stops the server (SIGTERM to its process group) and keeps its files, for a restart. */
  const kill = () => stopGroup(child);
  const stop = async () => {
    await stopGroup(child);
    await rm(root, { recursive: true, force: true });
  };
  try {
    const url = await waitForUrl(child, () => output);
    const parsed = new URL(url);
    const token = /token=([0-9a-f]+)/.exec(parsed.hash)?.[1] ?? "";
    return {
      playground: { url, origin: parsed.origin, token, workdir, home, output: () => output },
      stop,
      kill,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export const test = base.extend<{
  scenariosDir: string;
  serverEnv: Record<string, string>;
  demoMcp: boolean;
  playground: Playground;
  workspace: WorkspacePage;
}>({
  scenariosDir: [e2eScenarios, { option: true }],
  /** Extra environment for the server process, e.g. a provider's base URL pointing at a local fake. */
  serverEnv: [{}, { option: true }],
  /** Keep the demo's .mcp.json (its tickets MCP server starts once the test trusts the folder). */
  demoMcp: [false, { option: true }],
  playground: async ({ scenariosDir, serverEnv, demoMcp }, use, testInfo) => {
    const { playground, stop } = await startPlayground(scenariosDir, serverEnv, { demoMcp });
    await use(playground);
    if (testInfo.status !== testInfo.expectedStatus)
      await testInfo.attach("server-output", { body: playground.output(), contentType: "text/plain" });
    await stop();
  },
  workspace: async ({ page, playground }, use) => {
    const workspace = new WorkspacePage(page);
    await workspace.open(playground.url);
    await use(workspace);
  },
});

export async function editFile(file: string, change: (text: string) => string): Promise<void> {
  await writeFile(file, change(await readFile(file, "utf8")));
}

export { expect };
