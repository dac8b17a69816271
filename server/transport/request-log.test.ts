// Requests in the session log (format 3): each blob once, by its sha256, requests by reference; reopened
// from the log they resolve to exactly what the browsers saw live (isolated slash runs and canceled runs
// included); the download is the same log; and a long conversation's log stays a fraction of the size it
// would have with every request in full.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RequestSnapshot } from "../protocol/runner-events.ts";
import { RequestReader } from "../protocol/request-model.ts";
import type { SessionEvent } from "../protocol/wire.ts";
import { sessionsDirectory } from "../session/session-hub.ts";
import { readSessionLog } from "../session/session-log.ts";
import { startServer } from "./start-server.ts";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";
import { TEST_SCENARIOS } from "./testing/scenarios.ts";

const NOTES_SKILL = `---
name: notes
description: Summarizes the notes on its own, apart from the conversation.
mode: isolated
history: recent
---

Summarize the notes. $ARGUMENTS
`;

const SCENARIOS = {
  ...TEST_SCENARIOS,
  "30-sleep.yaml": TEST_SCENARIOS["30-sleep.yaml"].replace("sleep 600", "sleep 631"),
  "50-notes.yaml": `name: notes
match: "notes"
turns:
  - text: "The notes are summarized."
`,
};

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer(SCENARIOS, { watch: false });
  const skillDir = path.join(server.workdir, ".PseudoClaude", "skills", "notes");
  await mkdir(skillDir, { recursive: true });
  await writeFile(path.join(skillDir, "SKILL.md"), NOTES_SKILL);
  // A README of realistic size: the review scenario reads it, so it enters the conversation.
  await writeFile(
    path.join(server.workdir, "README.md"),
    `# demo\n\n${"A line of project notes.\n".repeat(120)}`,
  );
});
afterEach(async () => {
  await server.dispose();
});

function logPath(sessionId: string): string {
  return path.join(sessionsDirectory(server.home), `${sessionId}.jsonl`);
}

function liveSnapshots(client: TestClient, sessionId: string): RequestSnapshot[] {
  return client.requests(sessionId);
}

/** The requests of logged or exported events, resolved as every reader does. */
function resolvedRequests(events: readonly SessionEvent[]): RequestSnapshot[] {
  const reader = new RequestReader();
  return events.flatMap((event) => {
    reader.observe(event);
    return event.type === "request" ? [reader.resolve(event.snapshot)] : [];
  });
}

async function runToStop(client: TestClient, sessionId: string, text: string): Promise<string> {
  const from = client.messages.length;
  client.send({ type: "send_message", sessionId, text });
  return (await client.waitForEvent("stop", { sessionId, from, timeoutMs: 15_000 })).event.reason;
}

/** Restarts the server on the same home and opens the session from its log; returns its replayed snapshots. */
async function reopenedSnapshots(sessionId: string): Promise<RequestSnapshot[]> {
  await server.close();
  const restarted = await startServer({
    port: 0,
    home: server.home,
    defaultWorkdir: server.workdir,
    scenariosDir: server.scenariosDir,
    staticDir: path.join(server.root, "out"),
    log: () => undefined,
    watch: false,
  });
  try {
    const client = await TestClient.connect({
      ...server,
      ...restarted,
      origin: `http://127.0.0.1:${restarted.port}`,
    });
    client.send({ type: "open_session", sessionId });
    await client.waitForEvent("session_opened", { sessionId });
    const lastSeq = (await restarted.hub.open(sessionId)).lastSeq;
    await client.waitFor(
      (message) =>
        message.type === "event" && message.seq === lastSeq && message.event.type !== "session_opened",
      "the end of the replay",
    );
    client.close();
    return liveSnapshots(client, sessionId);
  } finally {
    await restarted.close();
  }
}

describe("request snapshots in the session log", () => {
  it("reopened snapshots equal the live ones, after an isolated slash run and a cancel too", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    expect(await runToStop(client, sessionId, "please review")).toBe("completed");
    expect(await runToStop(client, sessionId, "/notes from today")).toBe("completed");

    let from = client.messages.length;
    client.send({ type: "send_message", sessionId, text: "sleep a while" });
    const asked = await client.waitForEvent("permission_request", { sessionId, from });
    client.send({
      type: "approval_answer",
      sessionId,
      callId: asked.event.request.callId,
      answer: { kind: "allow_once" },
    });
    await client.waitForEvent("tool_started", { sessionId, from });
    client.send({ type: "cancel", sessionId });
    expect((await client.waitForEvent("stop", { sessionId, from, timeoutMs: 15_000 })).event.reason).toBe(
      "canceled",
    );
    expect(await runToStop(client, sessionId, "hello")).toBe("completed");
    from = client.messages.length;
    client.send({ type: "export_session", sessionId });
    const exported = await client.waitFor((message) => message.type === "session_export", "export", { from });
    const live = liveSnapshots(client, sessionId);
    client.close();

    const isolatedRunId = client
      .events(sessionId)
      .flatMap((message) =>
        message.event.type === "run_started" && message.event.skill === "notes" ? [message.event.runId] : [],
      )[0];
    expect(isolatedRunId).toBeDefined();
    const lines = (await readFile(logPath(sessionId), "utf8"))
      .split("\n")
      .filter((line) => line.includes('"type":"request"'));
    expect(lines).toHaveLength(live.length);
    const referenced = lines.filter((line) => line.includes('"historyLength"'));
    // Every request but the isolated run's refers to the conversation; none carries a message in full.
    expect(referenced.length).toBeGreaterThanOrEqual(live.length - 1);
    for (const line of referenced) expect(line).not.toContain(`"runId":"${isolatedRunId}"`);
    for (const line of lines)
      expect((JSON.parse(line) as { event: { snapshot: object } }).event.snapshot).not.toHaveProperty(
        "messages",
      );
    // The download is the log in the same shape, and resolves to the same requests.
    if (exported.type !== "session_export") throw new Error("no export");
    const exportedEvents = exported.jsonl
      .split("\n")
      .filter(Boolean)
      .slice(1)
      .map((line) => (JSON.parse(line) as { event: SessionEvent }).event);
    expect(JSON.parse(exported.jsonl.split("\n")[0])).toMatchObject({ kind: "header", version: 3 });
    expect(resolvedRequests(exportedEvents)).toEqual(live);

    expect(await reopenedSnapshots(sessionId)).toEqual(live);
  }, 60_000);

  it("carries each blob once in a 30-request conversation, and its log is a fraction of the requests in full", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    // The review scenario makes three requests per message (load_skill, read_file, answer).
    for (let round = 0; round < 10; round++)
      expect(await runToStop(client, sessionId, "please review")).toBe("completed");
    const live = liveSnapshots(client, sessionId);
    expect(live).toHaveLength(30);
    client.close();

    const logged = await readSessionLog(logPath(sessionId));
    expect(logged.warnings).toEqual([]);
    const events = logged.events.map((record) => record.event);
    expect(resolvedRequests(events)).toEqual(live);
    const hashes = events.flatMap((event) =>
      "blobs" in event && event.blobs ? event.blobs.map((blob) => blob.hash) : [],
    );
    expect(new Set(hashes).size).toBe(hashes.length);
    // What the log spends on the requests' content (their records and the blobs they carry) against the
    // requests in full, as the Runner built them. The cache prediction (`snapshot.cache`: figures the
    // cache model computed for this request, not prompt content) is left out on both sides; the bench
    // (request-bytes) measures the whole records on the demo, against the target.
    const withoutCache = <T extends { cache?: unknown }>(snapshot: T) => {
      const { cache: _cache, ...rest } = snapshot;
      return rest;
    };
    const requestBytes = (await readFile(logPath(sessionId), "utf8"))
      .split("\n")
      .filter((line) => line.includes('"type":"request"'))
      .map((line) => JSON.parse(line) as { event: { snapshot: { cache?: unknown } } })
      .map((record) => ({
        ...record,
        event: { ...record.event, snapshot: withoutCache(record.event.snapshot) },
      }))
      .reduce((sum, record) => sum + Buffer.byteLength(JSON.stringify(record)), 0);
    const fullBytes = live.reduce(
      (sum, snapshot) => sum + Buffer.byteLength(JSON.stringify(withoutCache(snapshot))),
      0,
    );
    expect(fullBytes / requestBytes).toBeGreaterThanOrEqual(15);
  }, 60_000);
});
