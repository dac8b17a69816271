// The description optimizer over the real socket, offline: the router scores, the person proposes.
// The proposal request shows train data only (never a test query); the loop stops when every train query
// passes; Apply writes the chosen description into the SKILL.md — only the description — and the
// catalog reloads with it, so the router's next choice follows it.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { splitQueries } from "../eval/split.ts";
import { parseSkillCreatorEvals } from "../eval/triggers-file.ts";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";

const ORIGINAL = "Handles documents.";
const BETTER =
  "Draft and send invoices, credit notes and payment reminders; compute VAT, late fees and what is unpaid or overdue. Use when the user asks to bill a client, prepare a billing run, or chase an unpaid invoice.";
const EVALS = [
  ["draft an invoice for the March consulting work", true],
  ["how much VAT do we owe on invoice 42?", true],
  ["send a payment reminder for the overdue invoice", true],
  ["bill the client for 12 hours of support", true],
  ["create a credit note for the refunded order", true],
  ["what is still unpaid from last quarter?", true],
  ["prepare the billing run for this month", true],
  ["add late fees to the overdue bills", true],
  ["summarise the meeting notes from monday", false],
  ["write a haiku about spring", false],
  ["what is two plus two?", false],
  ["commit my changes", false],
  ["rename the app's page title", false],
  ["format src/app.js with prettier", false],
].map(([query, should_trigger]) => ({ query: query as string, should_trigger: should_trigger as boolean }));
const SKILL_MD = `---\n# kept: a comment in the frontmatter\nname: billing\ndescription: ${ORIGINAL}\nmetadata:\n  owner: finance\n---\n\n# Billing\nBILLING-SOP: one invoice per client.\n`;

let server: TestServer;
let skillFile: string;
beforeEach(async () => {
  server = await startTestServer({}, { watch: false });
  skillFile = path.join(server.workdir, ".PseudoClaude", "skills", "billing", "SKILL.md");
  await mkdir(path.dirname(skillFile), { recursive: true });
  await writeFile(skillFile, SKILL_MD);
  await writeFile(path.join(server.workdir, "billing-evals.json"), JSON.stringify(EVALS));
});
afterEach(async () => {
  await server.dispose();
});

describe("description optimizer over the socket", () => {
  it("router scores, the person proposes from train data only, Apply writes only the description", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession({ provider: "router", model: "description-router" });
    await client.waitForEvent("catalog_snapshot", { sessionId });
    const from = client.messages.length;
    client.send({
      type: "start_optimizer",
      sessionId,
      skill: "billing",
      evalPath: "billing-evals.json",
      runs: 1,
      iterations: 3,
      maxCalls: 200,
    });
    const started = await client.waitForEvent("optimizer_started", { sessionId, from });
    expect(started.event.plan).toMatchObject({ trainSize: 9, testSize: 5, probeCalls: 42, improverCalls: 2 });
    expect(started.event.plan.estimate.usd).toBe(0);
    expect(started.event.plan.improver).toContain("manual");
    const first = await client.waitForEvent("optimizer_iteration", { sessionId, from });
    expect(first.event.iteration).toMatchObject({ iteration: 1, description: ORIGINAL, train_passed: 4 });

    const asked = await client.waitForEvent("optimizer_proposal_requested", { sessionId, from });
    const split = splitQueries(
      parseSkillCreatorEvals(JSON.stringify(EVALS), "billing-evals.json", "billing").queries,
      "billing",
      0.4,
      42,
    );
    for (const index of split.test) expect(asked.event.prompt).not.toContain(EVALS[index].query);
    expect(asked.event.prompt).toContain("BILLING-SOP");
    expect(asked.event.description).toBe(ORIGINAL);
    client.send({ type: "optimizer_proposal", sessionId, description: BETTER });

    const finished = await client.waitForEvent("optimizer_finished", { sessionId, from });
    const result = finished.event.result;
    expect(result.best_description).toBe(BETTER);
    expect(result.history[1].test_passed).toBeGreaterThan(result.history[0].test_passed);
    expect(result.exit_reason).toMatch(/all 9 train queries pass/);
    // Nothing written until Apply.
    expect(await readFile(skillFile, "utf8")).toBe(SKILL_MD);

    const before = client.messages.length;
    client.send({ type: "apply_description", sessionId, skill: "billing", description: BETTER });
    const applied = await client.waitForEvent("description_applied", { sessionId, from: before });
    expect(applied.event).toMatchObject({ file: skillFile, before: ORIGINAL, after: BETTER });
    expect(await readFile(skillFile, "utf8")).toBe(SKILL_MD.replace(ORIGINAL, BETTER));
    const reloaded = await client.waitForEvent("catalog_diff", { sessionId, from: before });
    expect(reloaded.event.diff).toBeDefined();
    client.close();
  }, 60_000);

  it("refuses to write a builtin skill's description, and says why", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession({ provider: "router" });
    const snapshot = await client.waitForEvent("catalog_snapshot", { sessionId });
    const builtin = snapshot.event.catalog.skills.find((skill) => skill.source === "builtin");
    expect(builtin).toBeDefined();
    const from = client.messages.length;
    client.send({ type: "apply_description", sessionId, skill: builtin!.name, description: "Other words." });
    const error = await client.waitFor((message) => message.type === "error", "refusal", { from });
    expect((error as { message: string }).message).toContain("is a builtin skill of the playground");
    client.close();
  });
});
