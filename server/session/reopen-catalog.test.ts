// A reopen logs the catalog only when it changed: a page reload (each one reopens a session nobody else
// has open) must not add a copy of a snapshot tens of KB long to the log, and a catalog that did change
// while the session was closed is still announced and logged.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProcessRunner } from "../tools/process-runner.ts";
import { connectClient, hubFolders, startHub, type HubFolders } from "./testing/hub-harness.ts";
import { sessionsDirectory } from "./session-hub.ts";

let folders: HubFolders;
let processes: ProcessRunner;
beforeEach(async () => {
  folders = await hubFolders("pc-reopen-catalog-");
  processes = new ProcessRunner();
});
afterEach(async () => {
  await processes.killAll();
});

/** Starts a hub on the folders, opens the session with a replay, and shuts the hub down again. */
async function reopen(sessionId: string): Promise<void> {
  const hub = await startHub(folders, processes);
  const client = await connectClient(hub);
  const replayed = client.next((message) => message.type === "events" && message.sessionId === sessionId, {
    sessionId,
  });
  client.send({ type: "open_session", sessionId, batchReplay: true });
  await replayed;
  await client.close();
  await hub.shutdown();
}

async function loggedCatalogs(sessionId: string): Promise<number> {
  const log = await readFile(path.join(sessionsDirectory(folders.home), `${sessionId}.jsonl`), "utf8");
  return log.split("\n").filter((line) => line.includes('"type":"catalog_snapshot"')).length;
}

describe("a reopen and the catalog", () => {
  it("logs no second snapshot when the catalog is as the log left it, and one when it changed", async () => {
    const hub = await startHub(folders, processes);
    const client = await connectClient(hub);
    const sessionId = await client.createSession({ provider: "scripted", scenario: "10-hello.yaml" });
    await client.sendMessage(sessionId, "hello");
    await client.close();
    await hub.shutdown();
    const created = await loggedCatalogs(sessionId);
    expect(created).toBeGreaterThan(0);

    await reopen(sessionId);
    await reopen(sessionId);
    expect(await loggedCatalogs(sessionId)).toBe(created);

    // A project skill added while the session was closed: the reopen announces (and logs) the new catalog.
    const skill = path.join(folders.workdir, ".PseudoClaude", "skills", "added-later");
    await mkdir(skill, { recursive: true });
    await writeFile(
      path.join(skill, "SKILL.md"),
      "---\nname: added-later\ndescription: A skill added while the session was closed.\n---\nBody.\n",
    );
    await reopen(sessionId);
    const log = await readFile(path.join(sessionsDirectory(folders.home), `${sessionId}.jsonl`), "utf8");
    expect(await loggedCatalogs(sessionId)).toBe(created + 1);
    expect(log.split("\n").findLast((line) => line.includes('"type":"catalog_snapshot"'))).toContain(
      "added-later",
    );
  });
});
