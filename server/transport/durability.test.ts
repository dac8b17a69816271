// D6 through the whole server, and the manual provider's turns over the socket.
import { appendFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sessionsDirectory } from "../session/session-hub.ts";
import { nodeLogFileSystem, readSessionLog, type LogFileSystem } from "../session/session-log.ts";
import { startServer } from "./start-server.ts";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";
import { TEST_SCENARIOS } from "./testing/scenarios.ts";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

describe("session logs through the server", () => {
  it("D6: a full disk is shown to the user and the log catches up when space returns", async () => {
    // A real full disk cannot be made safely in a test, so the log writer's file-system seam fails every
    // write with ENOSPC while `diskFull` is set.
    let diskFull = false;
    const fileSystem: LogFileSystem = {
      async openForAppend(target) {
        const real = await nodeLogFileSystem.openForAppend(target);
        return {
          ...real,
          async write(data) {
            if (diskFull)
              throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
            await real.write(data);
          },
        };
      },
    };
    server = await startTestServer(TEST_SCENARIOS, { watch: false, logFileSystem: fileSystem });
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    diskFull = true;
    client.send({ type: "send_message", sessionId, text: "hello" });
    const failure = await client.waitForEvent("session_error", {
      sessionId,
      where: (event) => event.code === "io_error",
    });
    expect(failure.event.message).toMatch(/cannot write the session log .*ENOSPC/);
    expect((await client.waitForEvent("stop", { sessionId })).event.reason).toBe("completed");
    diskFull = false;
    await client.waitForEvent("session_error", {
      sessionId,
      where: (event) => event.code === "log_recovered",
      timeoutMs: 5_000,
    });
    const log = await readSessionLog(path.join(sessionsDirectory(server.home), `${sessionId}.jsonl`));
    expect(log.events.map((record) => record.event.type)).toContain("stop");
    expect(log.events.map((record) => record.event.type)).not.toContain("session_error");
    client.close();
  });
});

describe("reopening a damaged log", () => {
  it("keeps the complete records and tells the client which part was skipped", async () => {
    server = await startTestServer(TEST_SCENARIOS, { watch: false });
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    client.send({ type: "send_message", sessionId, text: "hello" });
    await client.waitForEvent("stop", { sessionId });
    client.close();
    await server.close();
    const logFile = path.join(sessionsDirectory(server.home), `${sessionId}.jsonl`);
    await appendFile(logFile, '{"kind":"event","seq":999,"at":"2026-');

    const restarted = await startServer({
      port: 0,
      home: server.home,
      defaultWorkdir: server.workdir,
      scenariosDir: server.scenariosDir,
      log: () => undefined,
      watch: false,
    });
    try {
      const again = await TestClient.connect({
        ...server,
        ...restarted,
        origin: `http://127.0.0.1:${restarted.port}`,
      });
      again.send({ type: "open_session", sessionId });
      const opened = await again.waitForEvent("session_opened", { sessionId });
      expect((await again.openedConversation(opened)).map((message) => message.role)).toEqual([
        "user",
        "assistant",
      ]);
      const warning = await again.waitForEvent("session_error", {
        sessionId,
        where: (event) => event.code === "log_damaged",
      });
      expect(warning.event.message).toMatch(/torn last record/);
      const from = again.messages.length;
      again.send({ type: "send_message", sessionId, text: "hello" });
      await again.waitForEvent("stop", { sessionId, from });
      again.close();
    } finally {
      await restarted.close();
    }
    const reloaded = await readSessionLog(logFile);
    expect(reloaded.warnings).toHaveLength(1); // the torn fragment, now followed by records on their own lines
    expect(reloaded.events.filter((record) => record.event.type === "stop")).toHaveLength(2);
  });
});

describe("manual provider", () => {
  it("asks the person for each model turn and plays their answer", async () => {
    server = await startTestServer(TEST_SCENARIOS, { watch: false });
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession({ provider: "manual" });
    client.send({ type: "send_message", sessionId, text: "what is in the readme?" });
    const first = await client.waitForEvent("manual_turn_requested", { sessionId });
    expect(first.event.requestIndex).toBe(1);
    expect(client.resolveRequest(sessionId, first.event.snapshot).system.stable.length).toBeGreaterThan(0);

    let from = client.messages.length;
    client.send({ type: "manual_response", sessionId, requestIndex: 7, text: "wrong turn", toolCalls: [] });
    const wrong = await client.waitFor((message) => message.type === "error", "wrong turn error", { from });
    if (wrong.type === "error") expect(wrong.message).toMatch(/request #1 is waiting/);

    client.send({
      type: "manual_response",
      sessionId,
      requestIndex: 1,
      text: "Reading it.",
      toolCalls: [{ name: "read_file", input: { path: "README.md" } }],
    });
    const second = await client.waitForEvent("manual_turn_requested", {
      sessionId,
      where: (event) => event.requestIndex === 2,
    });
    expect(JSON.stringify(client.snapshotMessages(sessionId, second.event.snapshot))).toContain("# demo");
    from = client.messages.length;
    client.send({
      type: "manual_response",
      sessionId,
      requestIndex: 2,
      text: "It is a demo.",
      toolCalls: [],
    });
    expect((await client.waitForEvent("stop", { sessionId, from })).event.reason).toBe("completed");
    client.close();
  });
});
