// Attacks on the trigger lab through a hostile workdir's own eval file, over the real socket: the file's
// `scenarios:` may not lead the server outside the workdir (by `..`, an absolute path or a symlink), and
// saving the results never writes through a symlink planted where the temp file goes.
import { existsSync } from "node:fs";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";

let server: TestServer;
let evals: string;
beforeEach(async () => {
  server = await startTestServer({}, { watch: false });
  evals = path.join(server.workdir, ".PseudoClaude", "evals");
  await mkdir(evals, { recursive: true });
  // A scenario folder outside the workdir that would make every probe load csv-report.
  const outside = path.join(server.root, "outside-scenarios");
  await mkdir(outside, { recursive: true });
  await writeFile(
    path.join(outside, "csv.yaml"),
    `name: outside\nturns:\n  - tool_calls:\n      - { name: load_skill, input: { name: csv-report } }\n`,
  );
  await symlink(outside, path.join(evals, "linked"));
});
afterEach(async () => {
  await server.dispose();
});

const QUERIES = `queries:\n  - { query: "profile data.csv", expect: csv-report, kind: implicit }\n`;

describe("trigger lab: a hostile eval file", () => {
  it("cannot name scenarios outside the workdir (.., absolute, symlink)", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    await client.waitForEvent("catalog_snapshot", { sessionId });
    const outside = path.join(server.root, "outside-scenarios");
    for (const scenarios of ["../../../outside-scenarios", outside, "linked"]) {
      await writeFile(
        path.join(evals, "triggers.yaml"),
        `${QUERIES}scenarios: ${JSON.stringify(scenarios)}\n`,
      );
      const from = client.messages.length;
      client.send({ type: "start_trigger_lab", sessionId, runs: 1 });
      const ended = await client.waitFor(
        (message) =>
          message.type === "event" &&
          (message.event.type === "trigger_lab_failed" || message.event.type === "trigger_lab_finished"),
        "the lab's end",
        { from },
      );
      expect(ended.type === "event" && ended.event.type).toBe("trigger_lab_failed");
      expect(JSON.stringify(ended)).toContain("must be inside the workdir");
    }
    client.close();
  });

  it("saves its results without following a symlink planted at the temp file's name", async () => {
    await mkdir(path.join(evals, "scenarios"));
    await writeFile(
      path.join(evals, "scenarios", "csv.yaml"),
      `name: csv\nturns:\n  - tool_calls:\n      - { name: load_skill, input: { name: csv-report } }\n`,
    );
    await writeFile(path.join(evals, "triggers.yaml"), `${QUERIES}scenarios: scenarios\n`);
    const victim = path.join(server.root, "victim.txt");
    await writeFile(victim, "precious\n");
    // The server runs in this process: its temp name would be `<results>.<pid>.tmp`.
    for (const name of ["triggers.results.jsonl", "triggers.summary.json"])
      await symlink(victim, path.join(evals, `${name}.${process.pid}.tmp`));
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    await client.waitForEvent("catalog_snapshot", { sessionId });
    const from = client.messages.length;
    client.send({ type: "start_trigger_lab", sessionId, runs: 1 });
    const finished = await client.waitForEvent("trigger_lab_finished", { sessionId, from });
    expect(await readFile(victim, "utf8")).toBe("precious\n");
    expect(finished.event.result.saveError).toBeUndefined();
    expect(existsSync(path.join(evals, "triggers.results.jsonl"))).toBe(true);
    client.close();
  });
});
