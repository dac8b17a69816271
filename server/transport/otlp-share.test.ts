// The page's Share menu asks for an OpenTelemetry trace over the WebSocket (`export_session` with format
// otlp): the answer is a `session_file` holding the session as an OTLP/JSON trace request, the run's
// spans in it and no prompt text (the page exports without content).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { OtlpTraceRequest } from "../export/otlp-json.ts";
import { TEST_SCENARIOS } from "./testing/scenarios.ts";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer(TEST_SCENARIOS, { watch: false });
});
afterEach(async () => {
  await server.dispose();
});

describe("export_session with format otlp", () => {
  it("answers with the session as an OTLP/JSON trace, without the conversation's text", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    await client.waitForEvent("catalog_snapshot", { sessionId });
    client.send({ type: "send_message", sessionId, text: "please review" });
    expect((await client.waitForEvent("stop", { sessionId })).event.reason).toBe("completed");
    const from = client.messages.length;
    client.send({ type: "export_session", sessionId, format: "otlp" });
    const file = await client.waitFor((message) => message.type === "session_file", "otlp export", { from });
    if (file.type !== "session_file") throw new Error("not a session_file");
    expect(file).toMatchObject({ format: "otlp", mimeType: "application/json" });
    // Named after the session, as every export is (its title and the end of its id).
    expect(file.fileName).toMatch(new RegExp(`${sessionId.slice(-8)}\\.otlp\\.json$`));
    const trace = JSON.parse(file.text) as OtlpTraceRequest;
    const names = trace.resourceSpans[0]!.scopeSpans[0]!.spans.map((span) => span.name);
    expect(names).toContain("invoke_agent PseudoClaude Playground");
    expect(names).toContain("execute_tool load_skill");
    expect(names.filter((name) => name.startsWith("chat "))).not.toHaveLength(0);
    expect(file.text).not.toContain("please review");
    client.close();
  });
});
