// D7: session logs are 0600 files in a 0700 folder — new ones, and ones an older version left wider.
// S11 for logs written before the fix: a key already in a log never comes back out through a reopened
// session (history, replay) or an export. Real SessionHub, real files, real modes.
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProcessRunner } from "../tools/process-runner.ts";
import type { SessionEvent, SessionSettings } from "../protocol/wire.ts";
import { listProviders, loadProvidersConfig, settingsFilePath } from "../providers/config.ts";
import { REDACTED, SecretRedactor } from "../providers/redact.ts";
import { defaultSessionParts } from "./default-parts.ts";
import { SessionHub, sessionsDirectory } from "./session-hub.ts";
import { LOG_FORMAT_VERSION, SessionLogWriter } from "./session-log.ts";
import { exportSession, readExportedSession } from "../export/index.ts";

/** This file's own process runner (its tools' processes), ended after each test. */
const processes = new ProcessRunner();

let root: string;
let home: string;
let workdir: string;
let hubs: SessionHub[] = [];

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), "log-privacy-")));
  home = path.join(root, "home");
  workdir = path.join(root, "work");
  await mkdir(workdir, { recursive: true });
});
afterEach(async () => {
  await processes.killAll();
  for (const hub of hubs) await hub.shutdown();
  hubs = [];
  await rm(root, { recursive: true, force: true });
});

function startHub(log: (line: string) => void = () => undefined): SessionHub {
  const hub = new SessionHub({
    processes,
    home,
    defaultWorkdir: workdir,
    parts: defaultSessionParts({ scenariosDir: path.join(root, "scenarios"), home }),
    providers: () => listProviders(loadProvidersConfig({ home })),
    log,
    watch: false,
  });
  hubs.push(hub);
  return hub;
}

async function modeOf(target: string): Promise<string> {
  return ((await stat(target)).mode & 0o777).toString(8);
}

const settings = (): SessionSettings => ({
  workdir,
  provider: "scripted",
  model: "scripted",
  permissionMode: "default",
  disclosure: "progressive",
});

async function writeOldLog(id: string, events: SessionEvent[]): Promise<string> {
  const file = path.join(sessionsDirectory(home), `${id}.jsonl`);
  await mkdir(sessionsDirectory(home), { recursive: true });
  const writer = new SessionLogWriter(file);
  writer.append({
    kind: "header",
    version: LOG_FORMAT_VERSION,
    id,
    createdAt: "2026-01-01T00:00:00.000Z",
    title: "old",
    settings: settings(),
  });
  events.forEach((event, index) =>
    writer.append({ kind: "event", seq: index + 1, at: "2026-01-01T00:00:01.000Z", event }),
  );
  await writer.close();
  return file;
}

describe("D7: log file and folder modes", () => {
  it("creates new logs 0600 in a 0700 folder", async () => {
    const hub = startHub();
    const session = await hub.create({});
    const file = path.join(sessionsDirectory(home), `${session.id}.jsonl`);
    expect(await modeOf(file)).toBe("600");
    expect(await modeOf(sessionsDirectory(home))).toBe("700");
  });

  it("narrows a folder and logs an older version left world-readable, at start and on open", async () => {
    const file = await writeOldLog("20260101-000000-widemode", []);
    const other = await writeOldLog("20260101-000000-wideother", []);
    await chmod(sessionsDirectory(home), 0o755);
    await chmod(file, 0o644);
    await chmod(other, 0o666);
    const hub = startHub();
    await hub.ready();
    expect(await modeOf(sessionsDirectory(home))).toBe("700");
    expect(await modeOf(file)).toBe("600");
    expect(await modeOf(other)).toBe("600");

    // Widened again while the server runs: the writer narrows it when it opens the file.
    await chmod(file, 0o644);
    await chmod(sessionsDirectory(home), 0o755);
    const session = await hub.open("20260101-000000-widemode");
    await session.flushForExport();
    expect(await modeOf(file)).toBe("600");
    expect(await modeOf(sessionsDirectory(home))).toBe("700");
  });
});

describe("S11: keys in logs written before the fix", () => {
  it("are redacted from the reopened history, the replay, the export and server log lines", async () => {
    const key = "pre-fix-logged-key-2b7d4e";
    await mkdir(path.dirname(settingsFilePath(home)), { recursive: true });
    await writeFile(settingsFilePath(home), JSON.stringify({ anthropic: { apiKey: key } }));
    const printed = `ANTHROPIC_API_KEY=${key}\nPATH=/usr/bin`;
    const id = "20260101-000000-oldleaks";
    const file = await writeOldLog(id, [
      { type: "run_started", runId: "r1", userMessage: "show env" },
      {
        type: "tool_result",
        runId: "r1",
        callId: "c1",
        result: { ok: true, tool: "run_command", content: printed },
        durationMs: 3,
      },
      {
        type: "history_appended",
        runId: "r1",
        message: {
          role: "tool",
          toolCallId: "c1",
          toolName: "run_command",
          content: printed,
          isError: false,
        },
      },
      { type: "stop", runId: "r1", reason: "completed", iterations: 1 },
    ]);
    await writeFile(file, (await readFile(file, "utf8")) + "garbled line with " + key + "\n");
    expect(await readFile(file, "utf8")).toContain(key);

    const lines: string[] = [];
    const hub = startHub((line) => lines.push(line));
    const exported = {
      jsonl: exportSession(await readExportedSession(home, id, new SecretRedactor()), "jsonl").text,
    };
    expect(exported.jsonl).toContain(`ANTHROPIC_API_KEY=${REDACTED}`);
    expect(exported.jsonl).toContain(`garbled line with ${REDACTED}`);
    expect(exported.jsonl).not.toContain(key);

    const session = await hub.open(id);
    // A client resuming after seq 1 gets the history in the snapshot (from the start, the replay has it).
    const opened = JSON.stringify(session.openedSnapshot(1));
    expect(opened).toContain(`ANTHROPIC_API_KEY=${REDACTED}`);
    const replay = (await session.eventsAfter(0)).map((entry) => entry.json).join("\n");
    expect(replay).toContain(`ANTHROPIC_API_KEY=${REDACTED}`);
    for (const text of [opened, replay, lines.join("\n")]) expect(text).not.toContain(key);
    expect(lines.join("\n")).toContain("unreadable record"); // the garbled line was reported, redacted
  });
});
