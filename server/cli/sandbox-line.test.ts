// `cli run` says in one stderr line whether the agent's processes are sandboxed (text mode only).
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunnerEvent } from "../protocol/runner-events.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
let home: string;
let workdir: string;

beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "cli-sandbox-home-"));
  workdir = await mkdtemp(path.join(os.tmpdir(), "cli-sandbox-work-"));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(workdir, { recursive: true, force: true });
});

function cli(args: string[], env: NodeJS.ProcessEnv = process.env) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "server/cli.ts", ...args], {
      cwd: repoRoot,
      env,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const runArgs = () => [
  "run",
  "--workdir",
  workdir,
  "--home",
  home,
  "--scenario",
  "scenarios/default.yaml",
  "--message",
  "hello",
];

describe("cli run: the sandbox line", () => {
  it("says the sandbox is on, network off; run_started carries the same state", async () => {
    const text = await cli(runArgs());
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toContain("sandbox: on (bubblewrap, network off)\n");
    const json = await cli([...runArgs(), "--json"]);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).not.toContain("sandbox");
    const started = JSON.parse(json.stdout.split("\n")[0]!) as RunnerEvent;
    expect(started).toMatchObject({
      type: "run_started",
      sandbox: { enabled: true, mechanism: "bubblewrap", network: false },
    });
  });

  it("--allow-network gives the run's commands a network, and says so", async () => {
    const json = await cli([...runArgs(), "--allow-network", "--json"]);
    expect(json.code, json.stderr).toBe(0);
    const started = JSON.parse(json.stdout.split("\n")[0]!) as RunnerEvent;
    expect(started).toMatchObject({ type: "run_started", sandbox: { enabled: true, network: true } });
    const text = await cli([...runArgs(), "--allow-network"]);
    expect(text.stderr).toContain("sandbox: on (bubblewrap, network on)\n");
  });

  it("says `sandbox off: <reason>` when bubblewrap is missing", async () => {
    const result = await cli(runArgs(), { ...process.env, PSEUDOCLAUDE_BWRAP: "/nonexistent/bwrap" });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("sandbox off: /nonexistent/bwrap not found");
  });
});
