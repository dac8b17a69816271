// X11: `kill -9` of the real server process while a tool runs, then a restart on the same --home.
// The run in the log is closed with `stop: interrupted` (found at the next start), the reopened session
// shows it ended, and no tool process of the old server is left. That last assertion holds only when the
// tool ran in the sandbox's PID namespace with --die-with-parent (server/tools/sandbox.ts): without the
// sandbox a SIGKILLed parent cannot take its children along.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionEvent } from "./protocol/wire.ts";
import { INTERRUPTED_MESSAGE } from "./session/interrupted-runs.ts";
import { sessionsDirectory } from "./session/session-hub.ts";
import { readSessionLog } from "./session/session-log.ts";
import { eventually, processesMatching, spawnServer, type SpawnedServer } from "./testing/spawned-server.ts";
import { TestClient } from "./transport/testing/harness.ts";

// A duration no other test uses, so pgrep finds only this test's tool processes.
const SLEEP = "sleep 653";

let root: string;
let home: string;
let workdir: string;
let scenarios: string;
const servers: SpawnedServer[] = [];
let sessionId: string;
let toolPids: number[] = [];
let restarted: SpawnedServer;

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), "crash-restart-")));
  home = path.join(root, "home");
  workdir = path.join(root, "work");
  scenarios = path.join(root, "scenarios");
  await mkdir(workdir, { recursive: true });
  await mkdir(scenarios, { recursive: true });
  await writeFile(
    path.join(scenarios, "sleep.yaml"),
    `name: sleep\nmatch: "sleep"\nturns:\n  - text: "Sleeping."\n    tool_calls:\n      - { name: run_command, input: { command: "${SLEEP}" } }\n  - text: "never"\n`,
  );

  const first = await spawnServer({ home, workdir, scenarios });
  servers.push(first);
  const client = await TestClient.connect(first.target);
  sessionId = await client.createSession();
  client.send({ type: "send_message", sessionId, text: "sleep now" });
  await client.answerNextApproval(sessionId);
  await client.waitForEvent("tool_started", { sessionId });
  expect(await eventually(() => processesMatching(SLEEP).length > 0, 5_000)).toBe(true);
  toolPids = processesMatching(SLEEP);
  client.close();

  first.child.kill("SIGKILL");
  await first.exited;
  restarted = await spawnServer({ home, workdir, scenarios });
  servers.push(restarted);
}, 60_000);

afterAll(async () => {
  for (const server of servers) {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill("SIGKILL");
      await server.exited;
    }
  }
  // Tool processes this test started that outlived their server are ended here, by their own PIDs.
  for (const pid of toolPids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
    }
  }
  await rm(root, { recursive: true, force: true });
});

describe("X11: kill -9 of the server during a tool call, then a restart", () => {
  it("the next start closes the run in the log with stop: interrupted", async () => {
    const file = path.join(sessionsDirectory(home), `${sessionId}.jsonl`);
    const lastEvent = async () => (await readSessionLog(file)).events.at(-1)?.event;
    expect(await eventually(async () => (await lastEvent())?.type === "stop", 10_000)).toBe(true);
    const log = await readSessionLog(file);
    const runId = log.events.find((record) => record.event.type === "run_started")!.event;
    expect(log.events.at(-1)!.event).toEqual({
      type: "stop",
      runId: runId.type === "run_started" ? runId.runId : "",
      reason: "interrupted",
      message: INTERRUPTED_MESSAGE,
      iterations: 1,
    });
    // The stop continues the seq numbers where the killed server stopped writing (text deltas take
    // seq numbers but are not logged, so earlier records may have gaps).
    const seqs = log.events.map((record) => record.seq);
    expect(seqs.at(-1)).toBe(seqs.at(-2)! + 1);
    expect([...seqs].sort((left, right) => left - right)).toEqual(seqs);

    // Reopened through the restarted server, the session is not running and shows the stop.
    const client = await TestClient.connect(restarted.target);
    client.send({ type: "open_session", sessionId });
    const stop = await client.waitForEvent("stop", { sessionId });
    expect((stop.event as Extract<SessionEvent, { type: "stop" }>).reason).toBe("interrupted");
    const opened = await client.waitForEvent("session_opened", { sessionId });
    expect(opened.event.session.running).toBe(false);
    client.close();
    expect(restarted.stderr()).toContain("was interrupted; closed it with stop: interrupted");
  }, 30_000);

  it("no tool process of the old server is left (sandbox PID namespace, --die-with-parent)", async () => {
    expect(toolPids.length).toBeGreaterThan(0);
    // The processes this server started (not any `sleep 653` another test run on the machine may have);
    // the kernel delivers the parent-death signal at once, but a loaded machine may take seconds to reap.
    const alive = () => toolPids.filter((pid) => processesMatching(SLEEP).includes(pid));
    const gone = await eventually(() => alive().length === 0, 10_000);
    expect(gone, `still running: ${alive().join(", ")}`).toBe(true);
  }, 20_000);
});
