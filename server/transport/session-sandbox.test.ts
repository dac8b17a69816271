// A session's sandbox over the real socket: the state in the summary and in run_started, the
// allow-network setting taking effect from the next run, and the session's home secrets hidden (S11).
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";
import { TEST_SCENARIOS } from "./testing/scenarios.ts";

const PROVIDER_KEY = "sk-ant-session-sandbox-key-must-not-leak";
let server: TestServer;

beforeEach(async () => {
  server = await startTestServer(TEST_SCENARIOS, { watch: false });
});
afterEach(async () => {
  await server.dispose();
});

describe("a session's sandbox", () => {
  it("is in the summary and in run_started; allowNetwork takes effect from the next run", async () => {
    const client = await TestClient.connect(server);
    let from = client.messages.length;
    client.send({ type: "create_session", settings: {} });
    const opened = await client.waitForEvent("session_opened", { from });
    const sessionId = opened.sessionId;
    expect(opened.event.session.sandbox).toEqual({
      enabled: true,
      mechanism: "bubblewrap",
      network: false,
      writesHeld: true,
    });

    client.send({ type: "send_message", sessionId, text: "hello" });
    const first = await client.waitForEvent("run_started", { sessionId });
    expect(first.event.sandbox).toEqual({
      enabled: true,
      mechanism: "bubblewrap",
      network: false,
      writesHeld: true,
    });
    await client.waitForEvent("stop", { sessionId });

    from = client.messages.length;
    client.send({ type: "update_session", sessionId, settings: { allowNetwork: true } });
    await client.waitForEvent("settings_changed", { sessionId, from });
    from = client.messages.length;
    client.send({ type: "send_message", sessionId, text: "hello again" });
    const second = await client.waitForEvent("run_started", { sessionId, from });
    expect(second.event.sandbox).toMatchObject({ enabled: true, network: true });
    await client.waitForEvent("stop", { sessionId, from });
    client.close();
  });

  it("S11: an approved command cannot read the session home's providers.json", async () => {
    const providers = path.join(server.home, ".PseudoClaude", "providers.json");
    await mkdir(path.dirname(providers), { recursive: true });
    await writeFile(providers, JSON.stringify({ anthropic: { apiKey: PROVIDER_KEY } }));
    await writeFile(
      path.join(server.scenariosDir, "50-secrets.yaml"),
      `name: secrets
match: "secrets"
turns:
  - tool_calls:
      - { name: run_command, input: { command: "cat ${providers}; echo read-done" } }
  - text: "done"
`,
    );
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    client.send({ type: "send_message", sessionId, text: "show me the secrets" });
    const asked = await client.waitForEvent("permission_request", { sessionId });
    const callId = asked.event.request.callId;
    client.send({ type: "approval_answer", sessionId, callId, answer: { kind: "allow_once" } });
    const result = await client.waitForEvent("tool_result", {
      sessionId,
      where: (event) => event.callId === callId,
    });
    expect(result.event.result.content).toContain("read-done");
    expect(JSON.stringify(client.events(sessionId))).not.toContain(PROVIDER_KEY);
    // The test server's home lies under /tmp, which the sandbox replaces by a private, empty one.
    expect(result.event.result.content).toContain("No such file or directory");
    await client.waitForEvent("stop", { sessionId });
    client.close();
  });
});
