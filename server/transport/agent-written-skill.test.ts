// SECURITY P10, second half: a skill the agent writes into .PseudoClaude/ (after the user approved the
// write) is not loaded by live reload; it waits until the user reloads the catalog. A change the user
// makes while no tool runs still reloads live (reload.test.ts). Nor is it live-reloaded by the workdir's
// other sessions, whose own tool calls were idle meanwhile.
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

/** The agent of `sessionId` writes the skill, the user approving the write; returns where that began. */
async function agentWritesSkill(client: TestClient, sessionId: string): Promise<number> {
  const from = client.messages.length;
  client.send({ type: "send_message", sessionId, text: "make a skill" });
  await client.answerNextApproval(sessionId, { kind: "allow_once" }, { from });
  await client.waitForEvent("stop", { sessionId, from });
  return from;
}

/** `sessionId` was told its reload is held, did not gain the skill, and gains it on the user's Reload. */
async function heldUntilReload(client: TestClient, sessionId: string, from: number): Promise<void> {
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
        (message) => message.event.type === "catalog_diff" && message.event.diff.added.includes("agent-made"),
      ),
  ).toBe(false);
  const manualFrom = client.messages.length;
  client.send({ type: "reload_catalog", sessionId });
  const diff = await client.waitForEvent("catalog_diff", { sessionId, from: manualFrom });
  expect(diff.event.trigger).toBe("manual");
  expect(diff.event.diff.added).toContain("agent-made");
}

const bypass = { permissionMode: "bypassPermissions" } as const;

describe("a skill written by the agent", () => {
  it("is held back from live reload until the user reloads the catalog", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession(bypass, ["bypass_permissions"]);
    await client.waitForEvent("catalog_snapshot", { sessionId });
    await heldUntilReload(client, sessionId, await agentWritesSkill(client, sessionId));
    client.close();
  });

  // Stage 3 attack: the skill folder is shared by the workdir's sessions (agent-write-guard.ts, the
  // shared-folder rule), so the one that did not write it must not live-reload it either.
  it("is held back from live reload in the workdir's other sessions too", async () => {
    const client = await TestClient.connect(server);
    const bystander = await client.createSession({});
    await client.waitForEvent("catalog_snapshot", { sessionId: bystander });
    const writer = await client.createSession(bypass, ["bypass_permissions"]);
    await client.waitForEvent("catalog_snapshot", { sessionId: writer });
    await heldUntilReload(client, bystander, await agentWritesSkill(client, writer));
    client.close();
  });
});
