// `cli run` says in one stderr line whether the agent's processes are sandboxed (text mode only); in-process
// (cli-process.test.ts has the "sandbox off" line: which bwrap to use is read from the process's environment).
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunnerEvent } from "../protocol/runner-events.ts";
import { HOLD_WRITES_VARIABLE } from "../tools/held-writes.ts";
import { runCli as cli, runFlags } from "./testing/run-cli.ts";

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

const runArgs = () => [...runFlags(workdir, home, "scenarios/default.yaml"), "--message", "hello"];

describe("cli run: the sandbox line", () => {
  it("says the sandbox is on, network off; run_started carries the same state", async () => {
    const text = await cli(runArgs());
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toContain("sandbox: on (bubblewrap, network off)\n");
    expect(text.stderr).toContain("writes held until checked: yes");
    const json = await cli([...runArgs(), "--json"]);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).not.toContain("sandbox");
    const started = JSON.parse(json.stdout.split("\n")[0]!) as RunnerEvent;
    expect(started).toMatchObject({
      type: "run_started",
      sandbox: { enabled: true, mechanism: "bubblewrap", network: false, writesHeld: true },
    });
  });

  it("where writes cannot be held, says so and why", async () => {
    process.env[HOLD_WRITES_VARIABLE] = "off";
    try {
      const text = await cli(runArgs());
      expect(text.code, text.stderr).toBe(0);
      expect(text.stderr).toContain(
        `writes held until checked: no — turned off by ${HOLD_WRITES_VARIABLE}=off (each command is checked after it ends)\n`,
      );
    } finally {
      delete process.env[HOLD_WRITES_VARIABLE];
    }
  });

  it("--allow-network gives the run's commands a network, and says so", async () => {
    const json = await cli([...runArgs(), "--allow-network", "--json"]);
    expect(json.code, json.stderr).toBe(0);
    const started = JSON.parse(json.stdout.split("\n")[0]!) as RunnerEvent;
    expect(started).toMatchObject({ type: "run_started", sandbox: { enabled: true, network: true } });
    const text = await cli([...runArgs(), "--allow-network"]);
    expect(text.stderr).toContain("sandbox: on (bubblewrap, network on)\n");
  });
});
