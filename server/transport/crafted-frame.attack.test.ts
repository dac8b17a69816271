// A session log is a user file (~/.PseudoClaude/sessions/*.jsonl, or imported): its blobs are data of any
// shape, checked only against their sha256, which whoever crafts the log computes. A request's frame blob
// whose segments are not segments (null, a number, a count of tokens that is no number) must leave the
// session openable and usable, through the real server and a real WebSocket client — not an "internal"
// error on every command for that session.
import { createHash } from "node:crypto";
import { readFile, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sessionsDirectory } from "../session/session-hub.ts";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";

const DEMO = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "session",
  "fixtures",
  "format-3-inline-cache.jsonl",
);
const SESSION_ID = "20261203-152628-3dc0aaaa";

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

interface Blob {
  hash: string;
  json?: Record<string, unknown>;
}

/** The demo's log for `workdir`, its first request's prompt prefix changed by `mutate`, hashes made to fit. */
async function craftedLog(
  workdir: string,
  mutate: (prefix: { segments: unknown[] }) => void,
): Promise<string> {
  const lines = (await readFile(DEMO, "utf8")).split("\n");
  const header = JSON.parse(lines[0]) as { id: string; settings: { workdir: string } };
  header.id = SESSION_ID;
  header.settings.workdir = workdir;
  lines[0] = JSON.stringify(header);
  const index = lines.findIndex((line) => line.includes('"type":"request"'));
  const record = JSON.parse(lines[index]) as { event: { blobs: Blob[] } };
  const prefix = record.event.blobs.find((blob) => Array.isArray(blob.json?.segments))!;
  const frame = record.event.blobs.find((blob) => typeof blob.json?.prefix === "string")!;
  const [oldPrefix, oldFrame] = [prefix.hash, frame.hash];
  mutate(prefix.json as { segments: unknown[] });
  prefix.hash = sha256(JSON.stringify(prefix.json));
  frame.json!.prefix = prefix.hash;
  frame.hash = sha256(JSON.stringify(frame.json));
  lines[index] = JSON.stringify(record);
  return lines.join("\n").split(oldFrame).join(frame.hash).split(oldPrefix).join(prefix.hash);
}

const SCENARIO = `name: hello
turns:
  - text: "hello again"
`;

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ "hello.yaml": SCENARIO });
});
afterEach(async () => {
  await server.dispose();
});

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
      await mkdir(sessionsDirectory(server.home), { recursive: true });
      await writeFile(
        path.join(sessionsDirectory(server.home), `${SESSION_ID}.jsonl`),
        await craftedLog(server.workdir, mutate),
      );
      const client = await TestClient.connect(server);
      const from = client.messages.length;
      client.send({ type: "open_session", sessionId: SESSION_ID });
      await client.waitForEvent("session_opened", { sessionId: SESSION_ID, from });
      const sent = client.messages.length;
      client.send({ type: "send_message", sessionId: SESSION_ID, text: "hello" });
      const stop = await client.waitForEvent("stop", { sessionId: SESSION_ID, from: sent });
      expect(stop.event.reason).toBe("completed");
      // Nothing the server could not handle was answered to any command.
      expect(
        client.messages
          .slice(from)
          .filter((message) => message.type === "error" && message.code === "internal"),
      ).toEqual([]);
      client.close();
    }, 30_000);
});
