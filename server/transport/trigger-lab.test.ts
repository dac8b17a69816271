// The trigger lab over the real socket: a lab on the session's workdir with the scripted model answering
// from the eval file's own scenarios, progress as events, scores at the end, nothing added to the
// conversation or the log; an eval path outside the workdir is refused; the catalog budget is answered.
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({}, { watch: false });
  const evals = path.join(server.workdir, ".PseudoClaude", "evals");
  await mkdir(path.join(evals, "scenarios"), { recursive: true });
  await writeFile(
    path.join(evals, "triggers.yaml"),
    `queries:\n  - { query: "profile data.csv", expect: csv-report, kind: implicit }\n  - { query: "hi", expect: none, kind: negative }\nscenarios: scenarios\n`,
  );
  await writeFile(
    path.join(evals, "scenarios", "csv.yaml"),
    `name: csv\nmatch: "^profile data"\nturns:\n  - tool_calls:\n      - { name: load_skill, input: { name: csv-report } }\n`,
  );
  await writeFile(path.join(evals, "scenarios", "other.yaml"), `name: other\nturns:\n  - text: "hello"\n`);
});
afterEach(async () => {
  await server.dispose();
});

describe("trigger lab over the socket", () => {
  it("runs, streams progress, scores, saves next to the eval file, and leaves the conversation alone", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    await client.waitForEvent("catalog_snapshot", { sessionId });
    const from = client.messages.length;
    client.send({ type: "start_trigger_lab", sessionId, runs: 3, concurrency: 2 });
    const started = await client.waitForEvent("trigger_lab_started", { sessionId, from });
    expect(started.event.total).toBe(6);
    expect(started.event.info).toMatchObject({ provider: "scripted", runs: 3, concurrency: 2 });
    const finished = await client.waitForEvent("trigger_lab_finished", { sessionId, from });
    const progress = client.messages
      .slice(from)
      .filter((message) => message.type === "event" && message.event.type === "trigger_lab_progress");
    expect(progress).toHaveLength(6);
    const csv = finished.event.result.a.skills.find((skill) => skill.name === "csv-report");
    expect(csv).toMatchObject({ precision: 1, recall: 1, truePositives: 3 });
    expect(finished.event.result.a.queries[1]).toMatchObject({ expect: "none", passRate: 1 });
    expect(finished.event.result.files?.jsonl).toBe(
      path.join(server.workdir, ".PseudoClaude", "evals", "triggers.results.jsonl"),
    );
    // No request, no message: the probes are not the session's conversation, and not in its log.
    expect(
      client.messages
        .slice(from)
        .some((message) => message.type === "event" && message.event.type === "request"),
    ).toBe(false);
    const logs = path.join(server.home, ".PseudoClaude", "playground", "sessions");
    const logFiles = await readdir(logs);
    expect(logFiles.length).toBeGreaterThan(0);
    for (const file of logFiles)
      expect(await readFile(path.join(logs, file), "utf8")).not.toContain("trigger_lab");
    client.close();
  });

  it("refuses an eval file outside the workdir and writes nothing there", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    await client.waitForEvent("catalog_snapshot", { sessionId });
    const outside = path.join(server.root, "outside.yaml");
    await writeFile(outside, `queries:\n  - { query: "hi", expect: none, kind: negative }\n`);
    for (const evalPath of ["../outside.yaml", outside]) {
      const from = client.messages.length;
      client.send({ type: "start_trigger_lab", sessionId, runs: 1, evalPath });
      const error = await client.waitFor((message) => message.type === "error", "refusal", { from });
      expect(error).toMatchObject({ code: "path_refused" });
      expect((error as { message: string }).message).toContain("the eval file must be inside the workdir");
    }
    expect(existsSync(path.join(server.root, "outside.results.jsonl"))).toBe(false);
    client.close();
  });

  it("answers catalog_budget with the prediction for the session's catalog", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    await client.waitForEvent("catalog_snapshot", { sessionId });
    const from = client.messages.length;
    client.send({ type: "catalog_budget", sessionId, profile: "codex", contextWindow: 1_000 });
    const report = await client.waitForEvent("catalog_budget_report", { sessionId, from });
    expect(report.event.report).toMatchObject({ profile: "codex", limit: 20, unit: "approx_tokens" });
    expect(report.event.report.entries.some((entry) => !entry.listed)).toBe(true);
    client.close();
  });
});
