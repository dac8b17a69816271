// X11 (log half): a real session log left by a crash (a run started, no stop, a torn last line) is closed
// with `stop: interrupted` when a real SessionHub starts on that home; the record goes through the log
// writer (next seq, on its own line), a second start adds nothing, and a log without runs is untouched.
import { appendFile, mkdir, mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProcessRunner } from "../tools/process-runner.ts";
import type { RequestSnapshot } from "../protocol/runner-events.ts";
import type { SessionEvent, SessionSettings } from "../protocol/wire.ts";
import { listProviders, loadProvidersConfig } from "../providers/config.ts";
import { defaultSessionParts } from "./default-parts.ts";
import { INTERRUPTED_MESSAGE, findInterruptedRuns } from "./interrupted-runs.ts";
import { SessionHub, sessionsDirectory } from "./session-hub.ts";
import { LOG_FORMAT_VERSION, SessionLogWriter, readSessionLog } from "./session-log.ts";
import type { StreamInput } from "./request-writer.ts";
import { loggedEvents } from "./testing/logged-events.ts";

/** This file's own process runner (its tools' processes), ended after each test. */
const processes = new ProcessRunner();

let root: string;
let home: string;
let workdir: string;
let hubs: SessionHub[] = [];
const lines: string[] = [];

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), "interrupted-runs-")));
  home = path.join(root, "home");
  workdir = path.join(root, "work");
  await mkdir(sessionsDirectory(home), { recursive: true });
  await mkdir(workdir, { recursive: true });
  lines.length = 0;
});
afterEach(async () => {
  await processes.killAll();
  for (const hub of hubs) await hub.shutdown();
  hubs = [];
  await rm(root, { recursive: true, force: true });
});

function startHub(): SessionHub {
  const hub = new SessionHub({
    processes,
    home,
    defaultWorkdir: workdir,
    parts: defaultSessionParts({ scenariosDir: path.join(root, "scenarios"), home }),
    providers: () => listProviders(loadProvidersConfig({ home })),
    log: (line) => lines.push(line),
    watch: false,
  });
  hubs.push(hub);
  return hub;
}

function snapshot(runId: string, requestIndex: number): RequestSnapshot {
  return {
    runId,
    requestIndex,
    iteration: requestIndex,
    provider: "scripted",
    model: "scripted-sleep",
    disclosure: "progressive",
    system: { stable: "stable", environment: "environment" },
    stableHash: "0".repeat(64),
    messages: [{ role: "user", content: "sleep" }],
    tools: [],
    registeredNotVisible: [],
    listedSkills: [],
    activeSkills: [],
    at: "2026-01-01T00:00:00.000Z",
  };
}

/** What a server writes up to the moment it is killed during a tool call. */
async function writeCrashedLog(id: string, events: StreamInput[]): Promise<string> {
  const file = path.join(sessionsDirectory(home), `${id}.jsonl`);
  const settings: SessionSettings = {
    workdir,
    provider: "scripted",
    model: "scripted",
    permissionMode: "default",
    disclosure: "progressive",
  };
  const writer = new SessionLogWriter(file);
  writer.append({
    kind: "header",
    version: LOG_FORMAT_VERSION,
    id,
    createdAt: "2026-01-01T00:00:00.000Z",
    title: "t",
    settings,
  });
  loggedEvents(events).forEach((event, index) =>
    writer.append({ kind: "event", seq: index + 1, at: "2026-01-01T00:00:01.000Z", event }),
  );
  await writer.close();
  return file;
}

const completedRun: StreamInput[] = [
  { type: "run_started", runId: "run-1", userMessage: "hello" },
  { type: "request", runId: "run-1", snapshot: snapshot("run-1", 1) },
  { type: "stop", runId: "run-1", reason: "completed", iterations: 1 },
];
const crashedRun: StreamInput[] = [
  { type: "run_started", runId: "run-2", userMessage: "sleep" },
  { type: "request", runId: "run-2", snapshot: snapshot("run-2", 2) },
  {
    type: "tool_call",
    runId: "run-2",
    requestIndex: 2,
    call: { id: "c1", name: "run_command", input: { command: "sleep 600" } },
    known: true,
    visible: true,
  },
  { type: "tool_started", runId: "run-2", callId: "c1", tool: "run_command" },
];

describe("findInterruptedRuns", () => {
  it("finds runs with no later stop and counts their requests", () => {
    const records = loggedEvents([...completedRun, ...crashedRun]).map((event, index) => ({
      kind: "event" as const,
      seq: index + 1,
      at: "",
      event,
    }));
    expect(findInterruptedRuns(records)).toEqual([{ runId: "run-2", iterations: 1 }]);
    expect(findInterruptedRuns(records.slice(0, 3))).toEqual([]);
  });
});

describe("closing interrupted runs at hub start", () => {
  it("appends stop: interrupted after a torn tail; the reopened session shows the run ended", async () => {
    const id = "20260101-000000-crashed1";
    const file = await writeCrashedLog(id, [...completedRun, ...crashedRun]);
    await appendFile(
      file,
      '{"kind":"event","seq":8,"at":"2026-01-01T00:00:02.000Z","event":{"type":"tool_res',
    ); // kill -9 mid-append

    const hub = startHub();
    await hub.ready();
    const log = await readSessionLog(file);
    // The torn line stays as it was, skipped; the stop starts on a line of its own after it.
    expect(log.warnings).toEqual([expect.stringContaining(":9: skipped unreadable record")]);
    const last = log.events.at(-1)!;
    expect(last.seq).toBe(completedRun.length + crashedRun.length + 1);
    expect(last.event).toEqual({
      type: "stop",
      runId: "run-2",
      reason: "interrupted",
      message: INTERRUPTED_MESSAGE,
      iterations: 1,
    });
    expect(lines.join("\n")).toContain("run run-2 was interrupted");

    const session = await hub.open(id);
    expect(session.isRunning).toBe(false);
    const replayed = (await session.eventsAfter(0)).map((entry) => JSON.parse(entry.json) as SessionEvent);
    expect(
      replayed.filter((event) => event.type === "stop").map((event) => event.type === "stop" && event.reason),
    ).toEqual(["completed", "interrupted"]);
    await hub.shutdown();
    hubs = [];

    // The next start finds nothing more to close.
    const before = await readFile(file);
    const again = startHub();
    await again.ready();
    expect((await readSessionLog(file)).events.filter((record) => record.event.type === "stop")).toHaveLength(
      2,
    );
    expect((await readFile(file)).subarray(0, before.length).equals(before)).toBe(true);
  });

  it("leaves a log without an open run byte for byte as it was", async () => {
    const file = await writeCrashedLog("20260101-000000-complete", completedRun);
    const before = await readFile(file);
    const hub = startHub();
    await hub.ready();
    expect((await readFile(file)).equals(before)).toBe(true);
    expect(await hub.list()).toHaveLength(1);
  });
});
