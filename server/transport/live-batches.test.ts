// `batchLive` over the real socket: an unpaced answer's burst of text deltas reaches a client that asked
// for it in a few `events` frames, with exactly the events, seqs and order a client without it sees one
// frame at a time.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerMessage, SessionEvent } from "../protocol/wire.ts";
import { loadScenario } from "../providers/scenario.ts";
import { ScriptedProvider } from "../providers/scripted.ts";
import { defaultSessionParts } from "../session/default-parts.ts";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";

const WORDS = 2000;
const ANSWER = Array.from({ length: WORDS }, (_, index) => `word${index}`).join(" ");

let dirs: string;
let server: TestServer;
beforeAll(async () => {
  dirs = await realpath(await mkdtemp(path.join(tmpdir(), "live-batches-")));
  const home = path.join(dirs, "home");
  const scenariosDir = path.join(dirs, "scenarios");
  const workdir = path.join(dirs, "work");
  for (const folder of [home, scenariosDir, workdir]) await mkdir(folder, { recursive: true });
  await writeFile(
    path.join(scenariosDir, "long.yaml"),
    `name: long\nturns:\n  - text: ${JSON.stringify(ANSWER)}\n`,
  );
  const real = defaultSessionParts({ scenariosDir, home });
  server = await startTestServer(
    {},
    {
      home,
      scenariosDir,
      defaultWorkdir: workdir,
      watch: false,
      // As a provider that streams as fast as it can (the demo's 15 ms a word would send a frame a word).
      parts: {
        ...real,
        createProvider: async () =>
          new ScriptedProvider(await loadScenario(path.join(scenariosDir, "long.yaml")), { chunkDelayMs: 0 }),
      },
    },
  );
});
afterAll(async () => {
  await server.dispose();
  await rm(dirs, { recursive: true, force: true });
});

/** A session's events as the client received them, `events` frames unpacked, in arrival order. */
function eventsOf(messages: ServerMessage[], sessionId: string): { seq: number; event: SessionEvent }[] {
  return messages.flatMap((message) => {
    if (message.type === "event" && message.sessionId === sessionId)
      return [{ seq: message.seq, event: message.event }];
    if (message.type === "events" && message.sessionId === sessionId) return message.events;
    return [];
  });
}

const stopped = (client: TestClient, sessionId: string) => () =>
  eventsOf(client.messages, sessionId).some(({ event }) => event.type === "stop");

describe("batchLive", () => {
  it("sends a burst of live events as a few events frames, the same events in the same order", async () => {
    const batched = await TestClient.connect(server);
    batched.send({ type: "create_session", settings: { provider: "scripted" }, batchLive: true });
    const opened = await batched.waitFor(
      (message) => message.type === "event" && message.event.type === "session_opened",
      "session_opened",
    );
    if (opened.type !== "event") throw new Error("not an event");
    const sessionId = opened.sessionId;
    const plain = await TestClient.connect(server);
    const from = plain.messages.length;
    plain.send({ type: "open_session", sessionId });
    await plain.waitFor(
      (message) => message.type === "event" && message.event.type === "session_opened",
      "open",
      {
        from,
      },
    );

    const start = batched.messages.length;
    batched.send({ type: "send_message", sessionId, text: "stream" });
    await batched.waitFor(stopped(batched, sessionId), "the batched client's stop", { timeoutMs: 30_000 });
    await plain.waitFor(stopped(plain, sessionId), "the plain client's stop", { timeoutMs: 30_000 });

    const received = eventsOf(batched.messages.slice(start), sessionId);
    const live = eventsOf(plain.messages, sessionId).filter(({ seq }) => seq > received[0].seq - 1);
    expect(received).toEqual(live);
    const deltas = received.filter(({ event }) => event.type === "text_delta");
    expect(deltas.map(({ event }) => (event.type === "text_delta" ? event.text : "")).join("")).toBe(ANSWER);
    expect(deltas).toHaveLength(WORDS);
    // The plain client had a frame per event; the batched one far fewer.
    const frames = batched.messages.slice(start).filter((message) => "sessionId" in message);
    expect(plain.messages.filter((message) => message.type === "events")).toHaveLength(0);
    expect(frames.length).toBeLessThan(WORDS / 10);
    batched.close();
    plain.close();
  });
});
