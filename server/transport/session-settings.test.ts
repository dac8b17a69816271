// Changing a session's settings over the socket: a provider switch without a model takes the new
// provider's default model (the old provider's model name means nothing to the new one).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";
import { TEST_SCENARIOS } from "./testing/scenarios.ts";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer(TEST_SCENARIOS, { watch: false });
});
afterEach(async () => {
  await server.dispose();
});

describe("update_session", () => {
  it("switching provider without a model picks the new provider's default model", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    const opened = await client.waitForEvent("session_opened", { sessionId });
    expect(opened.event.session.settings.model).toBe("scripted");
    const anthropic = server.hub.providers().find((info) => info.name === "anthropic");
    expect(anthropic?.defaultModel).toBeTruthy();

    let from = client.messages.length;
    client.send({ type: "update_session", sessionId, settings: { provider: "anthropic" } });
    let changed = await client.waitForEvent("settings_changed", { sessionId, from });
    expect(changed.event.settings).toMatchObject({ provider: "anthropic", model: anthropic?.defaultModel });

    // A model given with the provider is kept; a change that keeps the provider keeps the model.
    from = client.messages.length;
    client.send({
      type: "update_session",
      sessionId,
      settings: { provider: "openai", model: "my-own-model" },
    });
    changed = await client.waitForEvent("settings_changed", { sessionId, from });
    expect(changed.event.settings).toMatchObject({ provider: "openai", model: "my-own-model" });
    from = client.messages.length;
    client.send({ type: "update_session", sessionId, settings: { provider: "openai", disclosure: "eager" } });
    changed = await client.waitForEvent("settings_changed", { sessionId, from });
    expect(changed.event.settings).toMatchObject({
      provider: "openai",
      model: "my-own-model",
      disclosure: "eager",
    });

    from = client.messages.length;
    client.send({ type: "update_session", sessionId, settings: { provider: "scripted" } });
    changed = await client.waitForEvent("settings_changed", { sessionId, from });
    expect(changed.event.settings).toMatchObject({ provider: "scripted", model: "scripted" });
    from = client.messages.length;
    client.send({ type: "send_message", sessionId, text: "hello" });
    const request = await client.waitForEvent("request", { sessionId, from });
    expect(request.event.snapshot).toMatchObject({ provider: "scripted", model: "scripted" });
    expect((await client.waitForEvent("stop", { sessionId, from })).event.reason).toBe("completed");
    client.close();
  });
});
