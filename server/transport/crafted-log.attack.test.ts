// A session log is a user file (~/.PseudoClaude/sessions/*.jsonl, or imported): its blobs are data of any
// shape, checked only against their sha256, which whoever crafts the log computes. Through the real server
// and a real WebSocket client, a crafted log must open, answer its next message and never end the server:
//  - a request's frame blob whose parts are not parts (null, a number, no hash) failed every command for
//    the session with an internal error;
//  - an isolated request's message blob that is no message (an assistant message without its tool calls)
//    threw out of the timer that restores a reopened session's cache ledger in the background
//    (LEDGER_RESTORE_DELAY_MS after the open), which ends the server process;
//  - a request's cache prediction that names no model (a number, null; the log's schema does not check
//    the prediction's fields) failed every later message of the session.
import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sessionsDirectory } from "../session/session-hub.ts";
import { rewriteEvents } from "../session/request-writer.ts";
import { LEDGER_RESTORE_DELAY_MS } from "../session/session.ts";
import { LOG_FORMAT_VERSION, readSessionLog } from "../session/session-log.ts";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";

const DEMO = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "session",
  "fixtures",
  "format-3-inline-cache.jsonl",
);
const SESSION_ID = "20261203-152628-3dc0bbbb";

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

interface Blob {
  hash: string;
  json?: Record<string, unknown>;
}
interface RequestRecord {
  event: { snapshot: Record<string, unknown>; blobs: Blob[] };
}

/**
 * The demo's log for `workdir`, its first request record changed by `edit`; returns the log's text with
 * each renamed blob's old hash replaced everywhere (edit returns the renames).
 */
async function craftedLog(
  workdir: string,
  edit: (record: RequestRecord) => [string, string][],
): Promise<string> {
  const lines = (await readFile(DEMO, "utf8")).split("\n");
  const header = JSON.parse(lines[0]) as { id: string; settings: { workdir: string } };
  header.id = SESSION_ID;
  header.settings.workdir = workdir;
  lines[0] = JSON.stringify(header);
  const index = lines.findIndex((line) => line.includes('"type":"request"'));
  const record = JSON.parse(lines[index]) as RequestRecord;
  const renames = edit(record);
  lines[index] = JSON.stringify(record);
  let text = lines.join("\n");
  for (const [from, to] of renames) text = text.split(from).join(to);
  return text;
}

/** The request's prompt prefix changed by `mutate`, and its frame's hash and the prefix's made to fit. */
function prefixChanged(mutate: (prefix: { segments: unknown[] }) => void) {
  return (record: RequestRecord): [string, string][] => {
    const prefix = record.event.blobs.find((blob) => Array.isArray(blob.json?.segments))!;
    const frame = record.event.blobs.find((blob) => typeof blob.json?.prefix === "string")!;
    const [oldPrefix, oldFrame] = [prefix.hash, frame.hash];
    mutate(prefix.json as { segments: unknown[] });
    prefix.hash = sha256(JSON.stringify(prefix.json));
    frame.json!.prefix = prefix.hash;
    frame.hash = sha256(JSON.stringify(frame.json));
    return [
      [oldFrame, frame.hash],
      [oldPrefix, prefix.hash],
    ];
  };
}

/** The request made an isolated one (its messages from blobs) whose only message is `message`. */
function isolatedWith(message: unknown) {
  return (record: RequestRecord): [string, string][] => {
    const hash = sha256(JSON.stringify(message));
    delete record.event.snapshot.historyLength;
    record.event.snapshot.messageSegments = [{ kind: "message", name: "0", hash, tokens: 1 }];
    record.event.blobs.push({ hash, json: message as Record<string, unknown> });
    return [];
  };
}

let server: TestServer;
/** Exceptions nothing caught (in production they end the server process: it has no handler for them). */
const uncaught: unknown[] = [];
const recordUncaught = (error: unknown): void => void uncaught.push(error);
beforeEach(async () => {
  uncaught.length = 0;
  process.on("uncaughtException", recordUncaught);
  server = await startTestServer({ "hello.yaml": "name: hello\nturns:\n  - text: hello again\n" });
});
afterEach(async () => {
  process.off("uncaughtException", recordUncaught);
  await server.dispose();
});

async function openCrafted(
  edit: (record: RequestRecord) => [string, string][],
): Promise<{ client: TestClient; from: number }> {
  await mkdir(sessionsDirectory(server.home), { recursive: true });
  await writeFile(
    path.join(sessionsDirectory(server.home), `${SESSION_ID}.jsonl`),
    await craftedLog(server.workdir, edit),
  );
  const client = await TestClient.connect(server);
  const from = client.messages.length;
  client.send({ type: "open_session", sessionId: SESSION_ID });
  await client.waitForEvent("session_opened", { sessionId: SESSION_ID, from });
  return { client, from };
}

/** The session answers its next message, and nothing was answered with an internal error or left uncaught. */
async function answersNextMessage(client: TestClient, from: number): Promise<void> {
  const sent = client.messages.length;
  client.send({ type: "send_message", sessionId: SESSION_ID, text: "hello" });
  // This message's run (the replay of the logged run, with its own stop, may still be arriving).
  const started = await client.waitForEvent("run_started", {
    sessionId: SESSION_ID,
    from: sent,
    where: (event) => event.userMessage === "hello",
  });
  const stop = await client.waitForEvent("stop", {
    sessionId: SESSION_ID,
    from: sent,
    where: (event) => event.runId === started.event.runId,
  });
  expect(stop.event.reason).toBe("completed");
  expect(client.messages.slice(from).filter((m) => m.type === "error" && m.code === "internal")).toEqual([]);
  expect(uncaught).toEqual([]);
  client.close();
}

describe("a crafted log's frame blob", () => {
  for (const [name, mutate] of [
    ["a null segment", (prefix: { segments: unknown[] }) => prefix.segments.push(null)],
    ["a number for a segment", (prefix: { segments: unknown[] }) => prefix.segments.push(5)],
    ["a segment without a hash", (prefix: { segments: unknown[] }) => prefix.segments.push({ kind: "tool" })],
    [
      "a segment whose tokens are text",
      (prefix: { segments: unknown[] }) => ((prefix.segments[0] as { tokens: unknown }).tokens = "many"),
    ],
  ] as const)
    it(`with ${name} opens, and the session answers its next message`, async () => {
      const { client, from } = await openCrafted(prefixChanged(mutate));
      await answersNextMessage(client, from);
    }, 30_000);
});

describe("a crafted log's deferred restore", () => {
  for (const [name, message] of [
    ["an assistant message without tool calls", { role: "assistant", content: "x" }],
    ["a user message whose content is a number", { role: "user", content: 5 }],
    ["a tool message without its tool's name", { role: "tool", toolCallId: "c", content: "x" }],
  ] as const) {
    it(`with ${name}: the session's first message is answered`, async () => {
      const { client, from } = await openCrafted(isolatedWith(message));
      await answersNextMessage(client, from);
    }, 30_000);

    it(`with ${name}: the background restore does not end the server`, async () => {
      const { client, from } = await openCrafted(isolatedWith(message));
      const openedAt = Date.now();
      // The condition is the background restore's deadline: no command may come first and do it instead.
      while (Date.now() < openedAt + LEDGER_RESTORE_DELAY_MS * 2)
        await new Promise((resolve) => setTimeout(resolve, LEDGER_RESTORE_DELAY_MS / 4));
      await answersNextMessage(client, from);
    }, 30_000);
  }
});

/**
 * The demo's log as this version writes it (predictions by reference: stored-cache.ts), its first
 * request's shared prediction blob given `fields`, its hash made to fit.
 */
async function withPredictionFields(workdir: string, fields: Record<string, unknown>): Promise<string> {
  const log = await readSessionLog(DEMO);
  const written = rewriteEvents(log.events, (event) => event) as unknown as {
    event: { type: string; snapshot?: { cacheRef?: { fixed: string } }; blobs?: Blob[] };
  }[];
  const request = written.find((record) => record.event.type === "request")!;
  const fixed = request.event.snapshot!.cacheRef!.fixed;
  const blob = request.event.blobs!.find((candidate) => candidate.hash === fixed)!;
  Object.assign(blob.json!.fields as Record<string, unknown>, fields);
  const header = {
    ...JSON.parse((await readFile(DEMO, "utf8")).split("\n")[0]),
    id: SESSION_ID,
    version: LOG_FORMAT_VERSION,
  };
  header.settings = { ...header.settings, workdir };
  const lines = [
    JSON.stringify(header),
    ...written.map((record) => JSON.stringify({ kind: "event", ...record })),
  ];
  return `${lines
    .join("\n")
    .split(fixed)
    .join(sha256(JSON.stringify(blob.json)))}\n`;
}

describe("a crafted log's cache prediction", () => {
  for (const [name, model] of [
    ["a number for its model", 5],
    ["null for its model", null],
  ] as const)
    it(`with ${name}: the session answers its next message`, async () => {
      await mkdir(sessionsDirectory(server.home), { recursive: true });
      await writeFile(
        path.join(sessionsDirectory(server.home), `${SESSION_ID}.jsonl`),
        await withPredictionFields(server.workdir, { model }),
      );
      const client = await TestClient.connect(server);
      const from = client.messages.length;
      client.send({ type: "open_session", sessionId: SESSION_ID });
      await client.waitForEvent("session_opened", { sessionId: SESSION_ID, from });
      await answersNextMessage(client, from);
    }, 30_000);
});
