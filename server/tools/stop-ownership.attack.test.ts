// Attacks on the stop (process-group.ts's freeze rule, process-runner.ts): an agent's sandboxed command knows
// its call's run marker (it is in its environment) and can write it into a file the user's tools load as
// environment (a `.env`, an `.envrc`) while the call runs, when its writes are not held. A process outside the sandbox that carries the marker is not the
// call's: stopping the call must neither freeze nor kill it.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HOLD_WRITES_VARIABLE } from "./held-writes.ts";
import { detectSandbox } from "./sandbox.ts";
import { createRunCommandTool } from "./system/run-command.ts";
import { ProcessRunner } from "./process-runner.ts";

const processes = new ProcessRunner();
let root: string;
let workdir: string;
let home: string;
const victims: ChildProcess[] = [];

const holdWrites = process.env[HOLD_WRITES_VARIABLE];

beforeAll(() => {
  expect(detectSandbox().available, detectSandbox().reason).toBe(true);
  // Writes reach the workdir while the call runs: held writes off, or no overlay on this machine.
  process.env[HOLD_WRITES_VARIABLE] = "off";
});

afterAll(() => {
  if (holdWrites === undefined) delete process.env[HOLD_WRITES_VARIABLE];
  else process.env[HOLD_WRITES_VARIABLE] = holdWrites;
});

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "pc-stop-owner-"));
  workdir = path.join(root, "work");
  await mkdir(workdir);
  home = await mkdtemp("/var/tmp/pc-stop-owner-home-");
});

afterEach(async () => {
  for (const victim of victims.splice(0)) victim.kill("SIGKILL");
  for (const folder of [root, home]) await rm(folder, { recursive: true, force: true });
});

/** The state letter of /proc/<pid>/stat (R, S, T, Z...), or undefined once it is gone. */
function stateOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
  } catch {
    return undefined;
  }
}

async function waitForFile(file: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const text = await readFile(file, "utf8").then(
      (content) => content.trim(),
      (error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
        return "";
      },
    );
    if (text !== "") return text;
    if (Date.now() > deadline) throw new Error(`${file} was never written`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("stopping a sandboxed call spares processes outside its sandbox", () => {
  for (const [name, environment] of [
    [
      "the marker variable itself (a .env the agent wrote)",
      (marker: string) => ({ PSEUDOCLAUDE_RUN_ID: marker }),
    ],
    [
      "the marker inside another variable's value",
      (marker: string) => ({ NOTE: `PSEUDOCLAUDE_RUN_ID=${marker}` }),
    ],
  ] as const)
    it(`a user's process carrying ${name} is neither frozen nor killed`, async () => {
      const controller = new AbortController();
      const call = createRunCommandTool().execute(
        { command: 'printf %s "$PSEUDOCLAUDE_RUN_ID" > marker.txt; sleep 60' },
        {
          workdir,
          processes,
          callId: "stop-owner",
          signal: controller.signal,
          sandbox: { network: false, homes: [home] },
        },
      );
      const marker = await waitForFile(path.join(workdir, "marker.txt"));
      // The user's process, started after the call from a shell that loaded the agent's file.
      const victim = spawn("sleep", ["60"], {
        // NODE_ENV: the pages' types (Next) make it a required key of ProcessEnv.
        env: { NODE_ENV: "test", PATH: process.env.PATH ?? "/usr/bin:/bin", ...environment(marker) },
        stdio: "ignore",
      });
      victims.push(victim);
      expect(victim.pid).toBeDefined();
      const exited = new Promise<string | null>((resolve) =>
        victim.once("exit", (_code, signal) => resolve(signal)),
      );
      controller.abort();
      await call;
      // The stop is over: the victim must still be running, neither stopped (T) nor ended.
      expect(stateOf(victim.pid!)).toMatch(/^[RS]$/);
      victim.kill("SIGTERM");
      expect(await exited).toBe("SIGTERM");
    }, 30_000);
});
