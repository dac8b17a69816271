// An approval answer and a Stop sent back to back, in either order and from two tabs at once: the tool
// runs at most once, never after a Stop that arrived first, and the server keeps serving.
import { access } from "node:fs/promises";
import path from "node:path";
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

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

async function askedWrite(client: TestClient): Promise<{ sessionId: string; callId: string }> {
  const sessionId = await client.createSession();
  client.send({ type: "send_message", sessionId, text: "write a note" });
  const asked = await client.waitForEvent("permission_request", { sessionId });
  return { sessionId, callId: asked.event.request.callId };
}

describe("approval answers racing a Stop", () => {
  it("Stop first, then allow: the write never happens and the late answer is refused", async () => {
    const client = await TestClient.connect(server);
    const { sessionId, callId } = await askedWrite(client);
    const from = client.messages.length;
    client.send({ type: "cancel", sessionId });
    client.send({ type: "approval_answer", sessionId, callId, answer: { kind: "allow_once" } });
    const stop = await client.waitForEvent("stop", { sessionId, from });
    expect(stop.event.reason).toBe("canceled");
    const late = await client.waitFor((message) => message.type === "error", "late answer refused", { from });
    if (late.type === "error") expect(late.message).toMatch(/no approval is waiting/);
    expect(await exists(path.join(server.workdir, "note.txt"))).toBe(false);
    client.close();
  });

  it("two tabs answer allow and deny at the same moment: exactly one answer counts", async () => {
    const first = await TestClient.connect(server);
    const { sessionId, callId } = await askedWrite(first);
    const second = await TestClient.connect(server);
    second.send({ type: "open_session", sessionId });
    await second.waitForEvent("session_opened", { sessionId });
    const fromFirst = first.messages.length;
    const fromSecond = second.messages.length;
    first.send({ type: "approval_answer", sessionId, callId, answer: { kind: "allow_once" } });
    second.send({ type: "approval_answer", sessionId, callId, answer: { kind: "deny" } });
    second.send({ type: "cancel", sessionId });
    await first.waitForEvent("stop", { sessionId, from: fromFirst });
    const results = first.events(sessionId).filter((message) => message.event.type === "tool_result");
    expect(results).toHaveLength(1);
    const errors = [...first.messages.slice(fromFirst), ...second.messages.slice(fromSecond)].filter(
      (message) => message.type === "error",
    );
    expect(errors.length).toBeLessThanOrEqual(1);
    const other = await TestClient.connect(server);
    other.send({ type: "list_sessions" });
    await other.waitFor((message) => message.type === "session_list", "session_list");
    for (const client of [first, second, other]) client.close();
  });
});
