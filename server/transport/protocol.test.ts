// Protocol over the real socket: hello, invalid frames (N12), oversize frames, bursts, seq and replay.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_FRAME_BYTES } from "./start-server.ts";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";
import { TEST_SCENARIOS } from "./testing/scenarios.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(TEST_SCENARIOS, { watch: false });
});
afterAll(async () => {
  await server.dispose();
});

describe("protocol", () => {
  it("says hello with the server version, providers and the default workdir", async () => {
    const client = await TestClient.connect(server);
    const hello = client.messages[0];
    expect(hello.type).toBe("hello");
    if (hello.type !== "hello") return;
    expect(hello.defaultWorkdir).toBe(server.workdir);
    const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    expect(hello.serverVersion).toBe(packageJson.version);
    // bubblewrap is installed wherever the tests run (.ci/run installs it).
    expect(hello.sandbox).toEqual({ available: true });
    expect(hello.providers.map((provider) => provider.name)).toContain("scripted");
    client.close();
  });

  it("N12: invalid JSON, unknown types and schema failures get invalid_frame errors; the connection stays open", async () => {
    const client = await TestClient.connect(server);
    const cases: [string, RegExp][] = [
      ["{not json", /not valid JSON/],
      ["[1,2]", /JSON object/],
      [JSON.stringify({ type: "launch_missiles" }), /unknown command type "launch_missiles"/],
      [JSON.stringify({ type: "send_message", sessionId: "x" }), /invalid send_message: .*text/],
      [
        JSON.stringify({ type: "send_message", sessionId: "x", text: "hi", extra: 1 }),
        /unknown field "extra"/,
      ],
      [
        JSON.stringify({
          type: "approval_answer",
          sessionId: "x",
          callId: "c",
          answer: { kind: "allow_forever" },
        }),
        /invalid approval_answer/,
      ],
      [JSON.stringify({ type: "open_session", sessionId: "x", lastSeq: -1 }), /lastSeq/],
    ];
    for (const [frame, expected] of cases) {
      const from = client.messages.length;
      client.sendRaw(frame);
      const error = await client.waitFor((message) => message.type === "error", `error for ${frame}`, {
        from,
      });
      expect(error).toMatchObject({ type: "error", code: "invalid_frame" });
      if (error.type === "error") expect(error.message).toMatch(expected);
    }
    const from = client.messages.length;
    client.send({ type: "list_sessions" });
    await client.waitFor((message) => message.type === "session_list", "session_list", { from });
    client.close();
  });

  it("rejects unknown session ids and ids that could be paths", async () => {
    const client = await TestClient.connect(server);
    for (const sessionId of ["does-not-exist", "../../etc/passwd", "A B"]) {
      const from = client.messages.length;
      client.send({ type: "open_session", sessionId });
      const error = await client.waitFor((message) => message.type === "error", "error", { from });
      expect(error).toMatchObject({ type: "error", command: "open_session" });
    }
    client.close();
  });

  it("N12: a frame over 1 MiB closes the connection with 1009; other clients keep being served", async () => {
    const other = await TestClient.connect(server);
    const client = await TestClient.connect(server);
    client.sendRaw(
      JSON.stringify({ type: "send_message", sessionId: "x", text: "a".repeat(MAX_FRAME_BYTES) }),
    );
    await client
      .waitFor(() => false, "close", { timeoutMs: 5_000 })
      .catch((error: Error) => {
        expect(error.message).toMatch(/socket closed \(1009\)/);
      });
    expect(client.closeCode).toBe(1009);
    const from = other.messages.length;
    other.send({ type: "list_providers" });
    await other.waitFor((message) => message.type === "providers", "providers", { from });
    other.close();
  });

  it("N12: a burst of 1,000 frames does not stall another session's run", async () => {
    const busy = await TestClient.connect(server);
    const calm = await TestClient.connect(server);
    const sessionId = await calm.createSession();
    const started = Date.now();
    for (let index = 0; index < 1000; index++) {
      busy.sendRaw(index % 2 === 0 ? "{broken" : JSON.stringify({ type: "list_providers" }));
    }
    calm.send({ type: "send_message", sessionId, text: "hello" });
    const stop = await calm.waitForEvent("stop", { sessionId, timeoutMs: 15_000 });
    expect(stop.event.reason).toBe("completed");
    expect(Date.now() - started).toBeLessThan(10_000);
    await busy.waitFor(
      () =>
        busy.messages.filter((message) => message.type === "error" || message.type === "providers").length >=
        1000,
      "1,000 answers",
      { timeoutMs: 15_000 },
    );
    busy.close();
    calm.close();
  }, 30_000);

  it("numbers events per session and replays what a reconnecting client missed (lastSeq)", async () => {
    const first = await TestClient.connect(server);
    const sessionId = await first.createSession();
    first.send({ type: "send_message", sessionId, text: "hello" });
    await first.waitForEvent("stop", { sessionId });
    const seen = first.events(sessionId);
    const seqs = seen.map((message) => message.seq);
    // session_opened is a snapshot at the current seq; everything after it strictly increases.
    const live = seqs.slice(1);
    for (let index = 1; index < live.length; index++) expect(live[index]).toBeGreaterThan(live[index - 1]);
    const lastSeq = live[Math.floor(live.length / 2)];
    first.close();

    // More happens while nobody is connected.
    const second = await TestClient.connect(server);
    second.send({ type: "open_session", sessionId, lastSeq: live.at(-1) });
    await second.waitForEvent("session_opened", { sessionId });
    second.send({ type: "send_message", sessionId, text: "hello again" });
    await second.waitForEvent("stop", { sessionId });
    second.close();

    const third = await TestClient.connect(server);
    third.send({ type: "open_session", sessionId, lastSeq });
    const opened = await third.waitForEvent("session_opened", { sessionId });
    expect(
      (await third.openedConversation(opened)).filter((message) => message.role === "user"),
    ).toHaveLength(2);
    const finalSeq = (await server.hub.open(sessionId)).lastSeq;
    await third.waitFor(
      () =>
        third
          .events(sessionId)
          .some((message) => message.seq === finalSeq && message.event.type !== "session_opened"),
      "the replay up to the last seq",
    );
    const replayed = third.events(sessionId).slice(1);
    // From the first event after lastSeq; an answer's text deltas are left out once its message is in.
    const firstStored = seen.find((message) => message.seq > lastSeq && message.event.type !== "text_delta");
    expect(replayed[0].seq).toBe(firstStored!.seq);
    expect(replayed.some((message) => message.event.type === "text_delta")).toBe(false);
    // The assistant's message: one history_appended naming its request (assistant_message before format 2).
    expect(
      replayed.some(
        (message) =>
          message.event.type === "history_appended" &&
          message.event.message.role === "assistant" &&
          message.event.requestIndex !== undefined,
      ),
    ).toBe(true);
    expect(replayed.filter((message) => message.event.type === "stop")).toHaveLength(2);
    // In order, with a gap only where deltas were left out.
    for (let index = 1; index < replayed.length; index++)
      expect(replayed[index].seq).toBeGreaterThan(replayed[index - 1].seq);
    third.close();
  });

  it("with batchReplay, replays the same stored events in one events frame, then streams live events", async () => {
    const first = await TestClient.connect(server);
    const sessionId = await first.createSession();
    first.send({ type: "send_message", sessionId, text: "hello" });
    await first.waitForEvent("stop", { sessionId });
    first.close();
    const finalSeq = (await server.hub.open(sessionId)).lastSeq;

    const plain = await TestClient.connect(server);
    plain.send({ type: "open_session", sessionId });
    await plain.waitFor(
      () =>
        plain
          .events(sessionId)
          .some((message) => message.seq === finalSeq && message.event.type !== "session_opened"),
      "the per-event replay",
    );
    const perEvent = plain.events(sessionId).slice(1);
    plain.close();

    const batched = await TestClient.connect(server);
    const from = batched.messages.length;
    batched.send({ type: "open_session", sessionId, batchReplay: true });
    const frame = await batched.waitFor((message) => message.type === "events", "an events frame", { from });
    if (frame.type !== "events") throw new Error("not an events frame");
    expect(frame.sessionId).toBe(sessionId);
    expect(frame.events).toEqual(perEvent.map(({ seq, event }) => ({ seq, event })));
    // The replay is not sent twice: no per-event copy of it follows.
    expect(batched.events(sessionId).map((message) => message.event.type)).toEqual(["session_opened"]);
    batched.send({ type: "send_message", sessionId, text: "hello again" });
    const stop = await batched.waitForEvent("stop", { sessionId });
    expect(stop.seq).toBeGreaterThan(finalSeq);
    batched.close();
  });
});
