// A reopen replays exactly what the log holds, byte for byte, whatever version wrote it: for every fixture
// log (formats 1 to 3, as logged and as exported) the replayed events' JSON texts and the problems the
// reopen reports are compared with digests recorded from the server before the reopen was made faster
// (fixtures/replay-digests.json). A change that alters any replayed text fails here, naming the fixture.
import { createHash } from "node:crypto";
import { readFile, readdir, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerMessage } from "../protocol/wire.ts";
import { ProcessRunner } from "../tools/process-runner.ts";
import type { ProtocolClient } from "../transport/protocol-client.ts";
import { connectClient, hubFolders, startHub, type HubFolders } from "./testing/hub-harness.ts";
import { sessionsDirectory, type SessionHub } from "./session-hub.ts";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const RECORDED_WORKDIR = "/tmp/pc-bench-server-S09slz/workdir";

interface ReplayDigest {
  /** Replayed events with a logged seq. */
  events: number;
  /** sha256 of their JSON texts, one a line, the test's folders written back as placeholders, hashes numbered. */
  sha256: string;
  /** What the reopen reported about the log (session_error messages), placeholders restored. */
  problems: string[];
}

let folders: HubFolders;
let processes: ProcessRunner;
let hub: SessionHub;
let client: ProtocolClient;
beforeAll(async () => {
  folders = await hubFolders("pc-reopen-replay-");
  processes = new ProcessRunner();
  hub = await startHub(folders, processes);
  client = await connectClient(hub);
});
afterAll(async () => {
  await client.close();
  await hub.shutdown();
  await processes.killAll();
});

/** The text with the test's folders named by the fixtures' placeholders again. */
function placeholders(text: string): string {
  return text
    .split(folders.workdir)
    .join("__WORKDIR__")
    .split(folders.scenariosDir)
    .join("__SCENARIOS__")
    .split(folders.root)
    .join("__ROOT__");
}

/** Installs fixture `name` as a session, opens it with a batched replay and digests what came back. */
async function replayDigest(name: string, index: number): Promise<ReplayDigest> {
  const log = (await readFile(path.join(FIXTURES, name), "utf8"))
    .split("__WORKDIR__")
    .join(folders.workdir)
    // One fixture names the bench folder it was recorded in: in the test's, its blobs that hold that name
    // no longer match their hashes, which the reopen must report (and replay) the same way.
    .split(RECORDED_WORKDIR)
    .join(folders.workdir)
    .split("__SCENARIOS__")
    .join(folders.scenariosDir);
  const sessionId = `20261203-000000-replay${index}`;
  await mkdir(sessionsDirectory(folders.home), { recursive: true });
  await writeFile(path.join(sessionsDirectory(folders.home), `${sessionId}.jsonl`), log, { mode: 0o600 });
  const lastLoggedSeq = Math.max(
    ...log
      .split("\n")
      .filter((line) => line.includes('"kind":"event"'))
      .map((line) => (JSON.parse(line) as { seq: number }).seq),
  );
  const replayed = client.next((message) => message.type === "events" && message.sessionId === sessionId, {
    sessionId,
  });
  client.send({ type: "open_session", sessionId, batchReplay: true });
  const frame = (await replayed) as Extract<ServerMessage, { type: "events" }>;
  const logged = frame.events.filter((entry) => entry.seq <= lastLoggedSeq);
  // A blob's hash covers the folder names it holds, which differ from run to run: each hash is named by
  // the order it first appears in (which events refer to the same blob is kept).
  const hashes = new Map<string, string>();
  const texts = logged
    .map((entry) =>
      placeholders(JSON.stringify(entry.event)).replace(/\b[0-9a-f]{64}\b/g, (hash) => {
        if (!hashes.has(hash)) hashes.set(hash, `#${hashes.size + 1}`);
        return hashes.get(hash)!;
      }),
    )
    .join("\n");
  return {
    events: logged.length,
    sha256: createHash("sha256").update(texts).digest("hex"),
    problems: frame.events.flatMap((entry) =>
      entry.event.type === "session_error" ? [placeholders(entry.event.message)] : [],
    ),
  };
}

describe("reopening a logged session", () => {
  it("replays every fixture log's events byte for byte as before, with the same problems reported", async () => {
    const expected = JSON.parse(await readFile(path.join(FIXTURES, "replay-digests.json"), "utf8")) as Record<
      string,
      ReplayDigest
    >;
    const names = (await readdir(FIXTURES)).filter((name) => name.endsWith(".jsonl")).sort();
    expect(names.length).toBeGreaterThanOrEqual(8);
    const actual: Record<string, ReplayDigest> = {};
    for (const [index, name] of names.entries()) actual[name] = await replayDigest(name, index);
    // Recording them anew (from a server whose replay is known good): REPLAY_DIGESTS_OUT=<file>.
    const out = process.env.REPLAY_DIGESTS_OUT;
    if (out) await writeFile(out, `${JSON.stringify(actual, null, 2)}\n`);
    for (const name of names) expect({ name, ...actual[name] }).toEqual({ name, ...expected[name] });
  });
});
