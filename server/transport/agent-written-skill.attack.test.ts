// SECURITY P10, fresh-eyes attack: the skill folder the agent writes is shared by every session of the
// workdir, so a skill one session's agent writes must not be live-reloaded by another session either
// (whose own tool calls were idle meanwhile): it waits for the user's Reload there too.
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

describe("a skill written by one session's agent", () => {
  it("is held back from live reload in the workdir's other sessions too", async () => {
    const client = await TestClient.connect(server);
    const bystander = await client.createSession({});
    await client.waitForEvent("catalog_snapshot", { sessionId: bystander });
    const writer = await client.createSession({ permissionMode: "bypassPermissions" }, [
      "bypass_permissions",
    ]);
    await client.waitForEvent("catalog_snapshot", { sessionId: writer });
    const from = client.messages.length;
    client.send({ type: "send_message", sessionId: writer, text: "make a skill" });
    const asked = await client.waitForEvent("permission_request", { sessionId: writer, from });
    client.send({
      type: "approval_answer",
      sessionId: writer,
      callId: asked.event.request.callId,
      answer: { kind: "allow_once" },
    });
    await client.waitForEvent("stop", { sessionId: writer, from });
    // The bystander is told, as the writer is, and its catalog does not gain the skill.
    const held = await client.waitForEvent("session_error", {
      sessionId: bystander,
      from,
      where: (event) => event.code === "catalog_reload_held",
    });
    expect(held.event.message).toMatch(/Reload/);
    expect(
      client
        .events(bystander)
        .some(
          (message) =>
            message.event.type === "catalog_diff" && message.event.diff.added.includes("agent-made"),
        ),
    ).toBe(false);
    const manualFrom = client.messages.length;
    client.send({ type: "reload_catalog", sessionId: bystander });
    const diff = await client.waitForEvent("catalog_diff", { sessionId: bystander, from: manualFrom });
    expect(diff.event.diff.added).toContain("agent-made");
    client.close();
  });
});
