// A branch exported: its first run continues the conversation copied from the origin and adds no user
// message of its own, so every export names the message that run answers — the copy's last one — instead
// of an empty bubble (HTML) or a scenario that matches only an empty message.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SecretRedactor } from "../providers/redact.ts";
import { TestClient, startTestServer, type TestServer } from "../transport/testing/harness.ts";
import { TEST_SCENARIOS } from "../transport/testing/scenarios.ts";
import { exportSession, readExportedSession } from "./index.ts";

let server: TestServer;
let client: TestClient;
beforeEach(async () => {
  server = await startTestServer(TEST_SCENARIOS, { watch: false });
  client = await TestClient.connect(server);
});
afterEach(async () => {
  await client.close();
  await server.dispose();
});

describe("exporting a branch", () => {
  it("shows and replays the copied message its first run answers", async () => {
    const origin = await client.createSession({ provider: "scripted" });
    expect((await client.sendMessage(origin, "please review the README")).reason).toBe("completed");
    const from = client.messages.length;
    const branchId = await client.forkRequest({
      sessionId: origin,
      requestIndex: 1,
      kind: "rerun",
      edits: [],
    });
    await client.waitForEvent("stop", { sessionId: branchId, from });

    const session = await readExportedSession(server.home, branchId, new SecretRedactor());
    const html = exportSession(session, "html").text;
    expect(html).not.toContain("<pre></pre>");
    expect(html).toMatch(
      /<div class="who">user · copied from the original session[^<]*<\/div><pre>please review the README<\/pre>/,
    );

    const scenario = exportSession(session, "scenario").text;
    expect(scenario).toContain("- please review the README");
    expect(scenario).not.toMatch(/^match: \^\\s\*\\s\*\$$/m);
  });
});
