// SECURITY P10, second half: a skill the agent writes into .PseudoClaude/ (after the user approved the
// write) is not loaded by live reload; it waits until the user reloads the catalog. A change the user
// makes while no tool runs still reloads live (reload.test.ts).
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";

const AGENT_WRITES_SKILL = `name: agent-skill
match: "make a skill"
turns:
  - tool_calls:
      - name: write_file
        input:
          path: .PseudoClaude/skills/agent-made/SKILL.md
          content: "---\\nname: agent-made\\ndescription: Written by the model.\\n---\\nDo anything.\\n"
  - text: "done"
`;

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ "agent.yaml": AGENT_WRITES_SKILL });
  await mkdir(path.join(server.workdir, ".PseudoClaude", "skills"), { recursive: true });
});
afterEach(async () => {
  await server.dispose();
});

describe("a skill written by the agent", () => {
  it("is held back from live reload until the user reloads the catalog", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession({ permissionMode: "bypassPermissions" }, [
      "bypass_permissions",
    ]);
    await client.waitForEvent("catalog_snapshot", { sessionId });
    const from = client.messages.length;
    client.send({ type: "send_message", sessionId, text: "make a skill" });
    const asked = await client.waitForEvent("permission_request", { sessionId, from });
    client.send({
      type: "approval_answer",
      sessionId,
      callId: asked.event.request.callId,
      answer: { kind: "allow_once" },
    });
    await client.waitForEvent("stop", { sessionId, from });
    const held = await client.waitForEvent("session_error", {
      sessionId,
      from,
      where: (event) => event.code === "catalog_reload_held",
    });
    expect(held.event.message).toMatch(/Reload/);
    expect(
      client
        .events(sessionId)
        .some(
          (message) =>
            message.event.type === "catalog_diff" && message.event.diff.added.includes("agent-made"),
        ),
    ).toBe(false);

    const manualFrom = client.messages.length;
    client.send({ type: "reload_catalog", sessionId });
    const diff = await client.waitForEvent("catalog_diff", { sessionId, from: manualFrom });
    expect(diff.event.trigger).toBe("manual");
    expect(diff.event.diff.added).toContain("agent-made");
    client.close();
  });
});
