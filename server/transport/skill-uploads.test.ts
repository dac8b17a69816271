// "Add skill" over a real server and WebSocket: a zip sent in chunks is planned (nothing written), then
// installed into the session's user layer, and the catalog reload reaches the tab; a same-name install is
// refused without force; a hostile archive is refused with its entry and rule; bad chunks are errors.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ServerMessage } from "../protocol/wire.ts";
import { simpleSkill } from "../skills/testing/skill-fixtures.ts";
import { zipOf } from "../skills/testing/zip-fixtures.ts";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";

type InstallMessage = Extract<ServerMessage, { type: "skill_install" }>;
const CHUNK = 512 * 1024;

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.dispose();
});

function upload(client: TestClient, sessionId: string, uploadId: string, zip: Buffer): void {
  const count = Math.max(1, Math.ceil(zip.length / CHUNK));
  for (let index = 0; index < count; index++) {
    const data = zip.subarray(index * CHUNK, (index + 1) * CHUNK).toString("base64");
    client.send({ type: "skill_upload", sessionId, uploadId, index, count, data });
  }
}

async function install(
  client: TestClient,
  sessionId: string,
  uploadId: string,
  options: { dryRun: boolean; force?: boolean },
): Promise<InstallMessage> {
  const from = client.messages.length;
  client.send({
    type: "install_skill",
    sessionId,
    uploadId,
    fileName: `${uploadId}.zip`,
    layer: "user",
    dryRun: options.dryRun,
    force: options.force ?? false,
  });
  return client.waitFor<InstallMessage>(
    (message) => message.type === "skill_install" && message.uploadId === uploadId,
    `skill_install ${uploadId}`,
    { from, timeoutMs: 20_000 },
  );
}

describe("Add skill over the WebSocket", { timeout: 60_000 }, () => {
  it("plans, then installs a chunked zip into the user layer; the catalog reload shows it", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    await client.waitForEvent("catalog_snapshot", { sessionId });
    // Over one chunk (random bytes do not compress), so the archive really travels in pieces.
    const padding = randomBytes(700 * 1024);
    const zip = zipOf({
      "uploaded/SKILL.md": simpleSkill("uploaded", "Uploaded from the browser."),
      "uploaded/reference.md": "# Reference\n",
      "uploaded/blob.bin": { data: padding },
    });
    expect(zip.length).toBeGreaterThan(CHUNK);
    upload(client, sessionId, "up1", zip);
    const plan = await install(client, sessionId, "up1", { dryRun: true });
    expect(plan.outcome).toMatchObject({
      ok: true,
      installed: false,
      plan: { name: "uploaded", layer: "user", files: 3, needsForce: false },
    });
    const userSkills = path.join(server.home, ".PseudoClaude", "skills");
    expect(existsSync(userSkills)).toBe(false);

    const from = client.messages.length;
    const done = await install(client, sessionId, "up1", { dryRun: false });
    expect(done.outcome).toMatchObject({ ok: true, installed: true });
    expect(await readdir(path.join(userSkills, "uploaded"))).toEqual([
      "SKILL.md",
      "blob.bin",
      "reference.md",
    ]);
    const snapshot = await client.waitForEvent("catalog_snapshot", {
      sessionId,
      from,
      where: (event) => event.catalog.skills.some((skill) => skill.name === "uploaded"),
    });
    expect(snapshot.event.catalog.skills.find((skill) => skill.name === "uploaded")?.source).toBe("user");

    // The same name again: the plan says it replaces, and without force it is refused.
    upload(client, sessionId, "up2", zipOf({ "uploaded/SKILL.md": simpleSkill("uploaded", "Second.") }));
    const replacePlan = await install(client, sessionId, "up2", { dryRun: true });
    expect(replacePlan.outcome).toMatchObject({
      ok: true,
      plan: { needsForce: true, replaces: [{ path: path.join(userSkills, "uploaded") }] },
    });
    const refused = await install(client, sessionId, "up2", { dryRun: false });
    expect(refused.outcome).toMatchObject({ ok: false, refusal: { rule: expect.stringMatching(/--force/) } });
    await client.close();
  });

  it("refuses a zip-slip archive with its entry and rule, and writes nothing", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    upload(client, sessionId, "slip", zipOf({ "s/SKILL.md": simpleSkill("s"), "s/../../x": "x" }));
    const answer = await install(client, sessionId, "slip", { dryRun: true });
    expect(answer.outcome).toMatchObject({ ok: false, refusal: { entry: "s/../../x" } });
    expect(existsSync(path.join(server.home, ".PseudoClaude", "skills"))).toBe(false);
    await client.close();
  });

  it("answers an install of a missing upload or chunk with an error, and the connection stays usable", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    let from = client.messages.length;
    client.send({ type: "skill_upload", sessionId, uploadId: "half", index: 0, count: 2, data: "UEsFBg==" });
    client.send({
      type: "install_skill",
      sessionId,
      uploadId: "half",
      fileName: "half.zip",
      layer: "user",
      dryRun: true,
      force: false,
    });
    const missing = await client.waitFor(
      (message) => message.type === "error" && message.command === "install_skill",
      "install_skill error",
      { from },
    );
    expect(missing).toMatchObject({
      code: "invalid_arguments",
      message: expect.stringMatching(/chunk 1 of 2/),
    });
    from = client.messages.length;
    client.send({ type: "skill_upload", sessionId, uploadId: "half", index: 1, count: 3, data: "" });
    const mismatch = await client.waitFor(
      (message) => message.type === "error" && message.command === "skill_upload",
      "skill_upload error",
      { from },
    );
    expect(mismatch).toMatchObject({ code: "invalid_arguments" });
    await client.close();
  });
});
