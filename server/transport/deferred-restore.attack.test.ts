// A reopened session restores its cache's requests and ledger later (on first use, or in the background
// LEDGER_RESTORE_DELAY_MS after the open): work from a user file (the log) that runs outside any command's
// error handling. A crafted log whose isolated request carries a message blob that is no message (an
// assistant message without its tool calls, its sha256 made to fit) must neither throw out of that timer —
// which ends the server process — nor leave the session failing every message with an internal error.
import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sessionsDirectory } from "../session/session-hub.ts";
import { LEDGER_RESTORE_DELAY_MS } from "../session/session.ts";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";

const DEMO = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "session",
  "fixtures",
  "format-3-inline-cache.jsonl",
);
const SESSION_ID = "20261203-152628-3dc0bbbb";

/** The demo's log for `workdir`, its first request made an isolated one whose only message is `message`. */
async function craftedLog(workdir: string, message: unknown): Promise<string> {
  const lines = (await readFile(DEMO, "utf8")).split("\n");
  const header = JSON.parse(lines[0]) as { id: string; settings: { workdir: string } };
  header.id = SESSION_ID;
  header.settings.workdir = workdir;
  lines[0] = JSON.stringify(header);
  const index = lines.findIndex((line) => line.includes('"type":"request"'));
  const record = JSON.parse(lines[index]) as {
    event: { snapshot: Record<string, unknown>; blobs: unknown[] };
  };
  const json = JSON.stringify(message);
  const hash = createHash("sha256").update(json).digest("hex");
  delete record.event.snapshot.historyLength;
  record.event.snapshot.messageSegments = [{ kind: "message", name: "0", hash, tokens: 1 }];
  record.event.blobs.push({ hash, json: message });
  lines[index] = JSON.stringify(record);
  return lines.join("\n");
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
  message: unknown,
): Promise<{ client: TestClient; from: number; openedAt: number }> {
  await mkdir(sessionsDirectory(server.home), { recursive: true });
  await writeFile(
    path.join(sessionsDirectory(server.home), `${SESSION_ID}.jsonl`),
    await craftedLog(server.workdir, message),
  );
  const client = await TestClient.connect(server);
  const from = client.messages.length;
  client.send({ type: "open_session", sessionId: SESSION_ID });
  await client.waitForEvent("session_opened", { sessionId: SESSION_ID, from });
  return { client, from, openedAt: Date.now() };
}

async function answersNextMessage(client: TestClient): Promise<void> {
  const sent = client.messages.length;
  client.send({ type: "send_message", sessionId: SESSION_ID, text: "hello" });
  const stop = await client.waitForEvent("stop", { sessionId: SESSION_ID, from: sent });
  expect(stop.event.reason).toBe("completed");
}

const NOT_MESSAGES: [string, unknown][] = [
  ["an assistant message without tool calls", { role: "assistant", content: "x" }],
  ["a user message whose content is a number", { role: "user", content: 5 }],
  ["a tool message without its tool's name", { role: "tool", toolCallId: "c", content: "x" }],
];

describe("a crafted log's deferred restore", () => {
  for (const [name, message] of NOT_MESSAGES) {
    it(`with ${name}: the session's first message is answered`, async () => {
      const { client, from } = await openCrafted(message);
      await answersNextMessage(client);
      expect(client.messages.slice(from).filter((m) => m.type === "error" && m.code === "internal")).toEqual(
        [],
      );
      expect(uncaught).toEqual([]);
      client.close();
    }, 30_000);

    it(`with ${name}: the background restore does not end the server`, async () => {
      const { client, from, openedAt } = await openCrafted(message);
      // The condition is the background restore's deadline: no command may come first and do it instead.
      while (Date.now() < openedAt + LEDGER_RESTORE_DELAY_MS * 2)
        await new Promise((resolve) => setTimeout(resolve, LEDGER_RESTORE_DELAY_MS / 4));
      await answersNextMessage(client);
      expect(client.messages.slice(from).filter((m) => m.type === "error" && m.code === "internal")).toEqual(
        [],
      );
      expect(uncaught).toEqual([]);
      client.close();
    }, 30_000);
  }
});
