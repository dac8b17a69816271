// Live reload: a change in any skill layer reaches the browser as catalog_diff + catalog_snapshot within
// a second; a manual reload does the same; a body edit is seen by the next load_skill without a reload.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";

const LOCAL_SCENARIO = `name: local
match: "local"
turns:
  - tool_calls:
      - { name: load_skill, input: { name: local-steps } }
  - text: "done"
`;

function skillText(name: string, body: string, description = `The ${name} skill for tests.`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
}

let server: TestServer;
let projectSkills: string;
beforeEach(async () => {
  server = await startTestServer({ "local.yaml": LOCAL_SCENARIO });
  projectSkills = path.join(server.workdir, ".PseudoClaude", "skills");
  await mkdir(path.join(projectSkills, "local-steps"), { recursive: true });
  await writeFile(
    path.join(projectSkills, "local-steps", "SKILL.md"),
    skillText("local-steps", "FIRST-BODY"),
  );
});
afterEach(async () => {
  await server.dispose();
});

describe("live reload", () => {
  it("pushes a diff and a snapshot within a second of a change in the project layer", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    await client.waitForEvent("catalog_snapshot", { sessionId });
    let from = client.messages.length;
    let changedAt = Date.now();
    await mkdir(path.join(projectSkills, "fresh"), { recursive: true });
    await writeFile(path.join(projectSkills, "fresh", "SKILL.md"), skillText("fresh", "Fresh steps."));
    const added = await client.waitForEvent("catalog_diff", {
      sessionId,
      from,
      where: (event) => event.diff.added.includes("fresh"),
    });
    expect(Date.now() - changedAt).toBeLessThan(1_000);
    expect(added.event.trigger).toBe("watch");
    const snapshot = await client.waitForEvent("catalog_snapshot", {
      sessionId,
      from: client.messages.indexOf(added),
    });
    expect(snapshot.event.catalog.skills.map((skill) => skill.name)).toContain("fresh");

    from = client.messages.length;
    changedAt = Date.now();
    await writeFile(path.join(projectSkills, "fresh", "SKILL.md"), "---\nname: fresh\n---\nno description\n");
    const broken = await client.waitForEvent("catalog_diff", {
      sessionId,
      from,
      where: (event) => event.diff.removed.includes("fresh"),
    });
    expect(Date.now() - changedAt).toBeLessThan(1_000);
    expect(broken.event.warnings.map((warning) => warning.path).join()).toContain("fresh");
    client.close();
  });

  it("notices a user layer that did not exist when the session started", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    const from = client.messages.length;
    const userSkill = path.join(server.home, ".PseudoClaude", "skills", "from-home");
    await mkdir(userSkill, { recursive: true });
    await writeFile(path.join(userSkill, "SKILL.md"), skillText("from-home", "Home steps."));
    const diff = await client.waitForEvent("catalog_diff", {
      sessionId,
      from,
      where: (event) => event.diff.added.includes("from-home"),
    });
    expect(diff.event.trigger).toBe("watch");
    client.close();
  });

  it("reload_catalog answers with a manual diff and a snapshot", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    const from = client.messages.length;
    client.send({ type: "reload_catalog", sessionId });
    const diff = await client.waitForEvent("catalog_diff", {
      sessionId,
      from,
      where: (event) => event.trigger === "manual",
    });
    expect(diff.event.diff).toEqual({ added: [], removed: [], updated: [] });
    await client.waitForEvent("catalog_snapshot", { sessionId, from: client.messages.indexOf(diff) });
    client.close();
  });

  it("a body edit is seen by the next load_skill without any reload", async () => {
    const quiet = await startTestServer({ "local.yaml": LOCAL_SCENARIO }, { watch: false });
    try {
      const skillDir = path.join(quiet.workdir, ".PseudoClaude", "skills", "local-steps");
      await mkdir(skillDir, { recursive: true });
      await writeFile(path.join(skillDir, "SKILL.md"), skillText("local-steps", "FIRST-BODY"));
      const client = await TestClient.connect(quiet);
      const sessionId = await client.createSession();
      await writeFile(path.join(skillDir, "SKILL.md"), skillText("local-steps", "EDITED-BODY"));
      client.send({ type: "send_message", sessionId, text: "local steps please" });
      await client.waitForEvent("stop", { sessionId });
      const requests = client.requests(sessionId);
      expect(requests[1].system.environment).toContain("EDITED-BODY");
      expect(requests[1].system.environment).not.toContain("FIRST-BODY");
      expect(client.events(sessionId).some((message) => message.event.type === "catalog_diff")).toBe(false);
      client.close();
    } finally {
      await quiet.dispose();
    }
  });
});
