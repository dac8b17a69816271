// The ProcessRunner seam: each owner (a server, a CLI run) ends its own calls at shutdown, and only
// those; tools reach the owner's runner through their ToolContext. Real processes, found by group.
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isGroupAlive, signalGroup, waitForGroupExit } from "./process-group.ts";
import { ProcessRunner } from "./process-runner.ts";
import { createRunCommandTool } from "./system/run-command.ts";

let workdir: string;
const startedGroups: number[] = [];

beforeAll(async () => {
  workdir = await realpath(await mkdtemp(path.join(tmpdir(), "pc-owner-")));
});

afterAll(async () => {
  for (const pgid of startedGroups) signalGroup(pgid, "SIGKILL");
  await rm(workdir, { recursive: true, force: true });
});

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("ProcessRunner", () => {
  it("killAll ends the calls of its own runner and leaves another runner's running", async () => {
    const mine = new ProcessRunner();
    const other = new ProcessRunner();
    const pids: Record<string, number> = {};
    const start = (runner: ProcessRunner, name: string) =>
      runner.run({
        shellCommand: "sleep 600",
        cwd: workdir,
        timeoutMs: 60_000,
        onStart: (pid) => {
          pids[name] = pid;
          startedGroups.push(pid);
        },
      });
    const mineRun = start(mine, "mine");
    const otherRun = start(other, "other");
    await until(() => pids.mine !== undefined && pids.other !== undefined, "both calls to start");
    await mine.killAll();
    expect((await mineRun).canceled).toBe(true);
    expect(await waitForGroupExit(pids.mine!, 500)).toBe(true);
    expect(isGroupAlive(pids.other!)).toBe(true);
    await other.killAll();
    expect((await otherRun).canceled).toBe(true);
  });

  it("run_command starts its process through the runner its ToolContext carries", async () => {
    const runner = new ProcessRunner();
    const tool = createRunCommandTool();
    const call = tool.execute(
      { command: "sleep 600" },
      { workdir, callId: "c1", signal: new AbortController().signal, processes: runner },
    );
    // Nothing else would end it for ten minutes: only this runner's killAll can.
    await until(() => runner.running === 1, "the call to start in this runner");
    await runner.killAll();
    const execution = await call;
    expect(execution.result).toMatchObject({ ok: false });
  });
});
