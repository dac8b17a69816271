// Frames that are valid JSON (or nearly) but hostile: deep nesting, prototype keys, unknown ids. The
// server must answer with an error event and keep serving; nothing may crash the process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";
import { TEST_SCENARIOS } from "./testing/scenarios.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(TEST_SCENARIOS, { watch: false });
});
afterAll(async () => {
  await server.dispose();
});

function nested(depth: number): string {
  return "[".repeat(depth) + "]".repeat(depth);
}

describe("hostile frames", () => {
  it("a run_tool input nested 200,000 levels deep is refused as invalid_frame and the server keeps serving", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession({ provider: "scripted" });
    const from = client.messages.length;
    client.sendRaw(
      `{"type":"run_tool","sessionId":"${sessionId}","requestId":"deep","tool":"read_file","input":{"path":${nested(200_000)}}}`,
    );
    const error = await client.waitFor((message) => message.type === "error", "error for a deep frame", {
      from,
    });
    expect(error).toMatchObject({ type: "error", code: "invalid_frame" });
    if (error.type === "error") expect(error.message).toMatch(/nested deeper than 64/);
    const other = await TestClient.connect(server);
    other.send({ type: "list_sessions" });
    await other.waitFor((message) => message.type === "session_list", "session_list");
    other.close();
    client.close();
  });

  it("nesting inside strings does not count, and 64 levels are accepted", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession({ provider: "scripted" });
    const from = client.messages.length;
    const input = `{"path":"${"[".repeat(10_000)}","deep":${nested(60)}}`;
    client.sendRaw(
      `{"type":"run_tool","sessionId":"${sessionId}","requestId":"ok","tool":"read_file","input":${input}}`,
    );
    const result = await client.waitForEvent("tool_console_result", { sessionId, from });
    expect(result.event.requestId).toBe("ok");
    expect(client.messages.slice(from).some((message) => message.type === "error")).toBe(false);
    client.close();
  });

  it("__proto__ and constructor keys neither pollute prototypes nor name tools", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession({ provider: "scripted" });
    const from = client.messages.length;
    client.sendRaw(
      `{"type":"run_tool","sessionId":"${sessionId}","requestId":"p","tool":"read_file","input":{"__proto__":{"path":"/etc/passwd"}}}`,
    );
    client.sendRaw(
      `{"type":"run_tool","sessionId":"${sessionId}","requestId":"c","tool":"constructor","input":{}}`,
    );
    const first = await client.waitForEvent("tool_console_result", {
      sessionId,
      from,
      where: (event) => event.requestId === "p",
    });
    expect(first.event.result.ok).toBe(false);
    const second = await client.waitForEvent("tool_console_result", {
      sessionId,
      from,
      where: (event) => event.requestId === "c",
    });
    expect(second.event.result.ok).toBe(false);
    expect(({} as Record<string, unknown>).path).toBeUndefined();
    client.close();
  });
});
