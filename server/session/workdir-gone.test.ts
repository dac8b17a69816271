// A session whose working folder was removed (a demo copy its server removed on stop, a folder deleted by
// hand) still opens from its log, says so at once (the list entry and session_opened carry
// `workdirMissing`), and refuses a message up front with create_session's workdir refusal instead of a
// run whose every tool fails.
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProcessRunner } from "../tools/process-runner.ts";
import { ServerError } from "../transport/protocol-client.ts";
import { connectClient, hubFolders, startHub, type HubFolders } from "./testing/hub-harness.ts";

let folders: HubFolders;
let processes: ProcessRunner;
beforeEach(async () => {
  folders = await hubFolders("pc-workdir-gone-");
  processes = new ProcessRunner();
});
afterEach(async () => {
  await processes.killAll();
  await rm(folders.root, { recursive: true, force: true });
});

describe("a session whose workdir is gone", () => {
  it("reopens readable, is marked in the list and on open, and refuses a message with the reason", async () => {
    const gone = path.join(folders.root, "gone-work");
    await mkdir(gone);
    const first = await startHub(folders, processes);
    const creator = await connectClient(first);
    const goneId = await creator.createSession({
      provider: "scripted",
      scenario: "10-hello.yaml",
      workdir: gone,
    });
    await creator.sendMessage(goneId, "hello");
    const keptId = await creator.createSession({ provider: "scripted", scenario: "10-hello.yaml" });
    await creator.close();
    await first.shutdown();
    await rm(gone, { recursive: true });

    const hub = await startHub(folders, processes);
    const listed = await hub.list();
    expect(listed.find((item) => item.id === goneId)?.workdirMissing).toBe(true);
    expect(listed.find((item) => item.id === keptId)?.workdirMissing).toBeUndefined();

    const client = await connectClient(hub);
    const replayed = client.next(
      (message) =>
        message.type === "events" &&
        message.sessionId === goneId &&
        message.events.some((entry) => entry.event.type === "history_appended"),
      { sessionId: goneId },
    );
    client.send({ type: "open_session", sessionId: goneId, batchReplay: true });
    // The conversation is still there to read.
    await replayed;
    const opened = (await hub.open(goneId)).openedSnapshot().event;
    expect(opened.type === "session_opened" && opened.session.workdirMissing).toBe(true);

    const refused = client.next(() => false, { sessionId: goneId });
    client.send({ type: "send_message", sessionId: goneId, text: "hello again" });
    const error = await refused.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).code).toBe("not_found");
    expect((error as ServerError).message).toContain(`workdir ${gone} cannot be used`);
    expect((error as ServerError).message).toContain("New session…");
    await client.close();
    await hub.shutdown();
  });
});
