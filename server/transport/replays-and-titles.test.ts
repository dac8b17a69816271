// Sessions that read well in the picker and a replay that starts clean, over the real socket:
// - a session's title is the first line the user typed (a slash invocation's `/skill args`, not its SOP);
// - importing a recorded scenario opens a new session on the same workdir that carries the recorded
//   messages, and leaves the open session as it was; a broken file creates no session.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SessionSummary } from "../protocol/wire.ts";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";
import { TEST_SCENARIOS } from "./testing/scenarios.ts";
import { isEvent } from "./protocol-client.ts";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer(TEST_SCENARIOS, { watch: false });
});
afterEach(async () => {
  await server.dispose();
});

async function listed(client: TestClient): Promise<SessionSummary[]> {
  const answer = client.next((message) => message.type === "session_list");
  client.send({ type: "list_sessions" });
  const message = await answer;
  return message.type === "session_list" ? message.sessions : [];
}

const recording = `name: Replay of a review
recorded:
  session: 20261203-101500-abcd
  messages:
    - "hello there"
    - "and now the details"
turns:
  - text: "Hi there, nice to meet you."
  - text: "Here are the details."
`;

describe("titles and replays", () => {
  it("titles a session with the first line the user typed: the slash command, not the SOP below it", async () => {
    const client = await TestClient.connect(server);
    const slash = await client.createSession();
    await client.waitForEvent("catalog_snapshot", { sessionId: slash });
    await client.sendMessage(slash, "/csv-report hello.csv");
    const spaced = await client.createSession();
    await client.waitForEvent("catalog_snapshot", { sessionId: spaced });
    await client.sendMessage(spaced, "   hello   from\tthe user\n\nwith more lines below");
    const titles = Object.fromEntries((await listed(client)).map((item) => [item.id, item.title]));
    expect(titles[slash]).toBe("/csv-report hello.csv");
    expect(titles[spaced]).toBe("hello from the user");
    await client.close();
  });

  it("imports a recording into a new session that offers its messages; the open session is unchanged", async () => {
    const client = await TestClient.connect(server);
    const original = await client.createSession({ permissionMode: "strict", disclosure: "eager" });
    await client.waitForEvent("catalog_snapshot", { sessionId: original });
    const before = (await listed(client)).find((item) => item.id === original)!;

    const opened = client.next(
      (message) => isEvent(message, "session_opened") && message.sessionId !== original,
    );
    client.send({
      type: "import_scenario",
      sessionId: original,
      fileName: "replay.yaml",
      yaml: recording,
      newSession: true,
    });
    const replayOpened = await opened;
    const replayId = replayOpened.type === "event" ? replayOpened.sessionId : "";
    expect(replayId).not.toBe("");
    const changed = await client.waitForEvent("settings_changed", { sessionId: replayId });
    expect(changed.event.settings).toMatchObject({
      workdir: before.settings.workdir,
      provider: "scripted",
      permissionMode: "strict",
      disclosure: "eager",
      replayOf: "20261203-101500-abcd",
      replayMessages: ["hello there", "and now the details"],
    });
    const stop = await client.sendMessage(replayId, "hello there");
    expect(stop.reason).toBe("completed");

    const after = await listed(client);
    expect(after.find((item) => item.id === original)!.settings).toEqual(before.settings);
    expect(after).toHaveLength(2);

    // A file with a mistake is refused with its name and field, and no session is made for it.
    await expect(
      (async () => {
        const refused = client.next(() => false, { sessionId: original });
        client.send({
          type: "import_scenario",
          sessionId: original,
          fileName: "broken.yaml",
          yaml: "name: x\nturns:\n  - txt: hi\n",
          newSession: true,
        });
        await refused;
      })(),
    ).rejects.toThrow("broken.yaml: turns[0].txt is not a known field");
    expect(await listed(client)).toHaveLength(2);
    await client.close();
  });
});
