// `cli eval optimize` (in-process, main(argv, io)) against a local OpenAI-format server whose answers the test
// scripts: as the probed model it reads the skills index it is sent (the router's scoring stands in for
// its judgement), as the improving model it answers with a <new_description>. The optimizer finds a
// better description, the improver never receives a test query, and both caps stop it with the reason.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { splitQueries } from "../eval/split.ts";
import { parseSkillCreatorEvals } from "../eval/triggers-file.ts";
import { startQueryServer, type QueryServer } from "../eval/testing/query-openai-server.ts";
import { parseIndex, route } from "../providers/router-score.ts";
import { runCli, type CliResult } from "./testing/run-cli.ts";

const ORIGINAL = "Handles documents.";
const BETTER =
  "Draft and send invoices, credit notes and payment reminders; compute VAT, late fees and what is unpaid or overdue. Use when the user asks to bill a client, prepare a billing run, or chase an unpaid invoice.";
const EVALS = [
  { query: "draft an invoice for the March consulting work", should_trigger: true },
  { query: "how much VAT do we owe on invoice 42?", should_trigger: true },
  { query: "send a payment reminder for the overdue invoice", should_trigger: true },
  { query: "bill the client for 12 hours of support", should_trigger: true },
  { query: "create a credit note for the refunded order", should_trigger: true },
  { query: "what is still unpaid from last quarter?", should_trigger: true },
  { query: "prepare the billing run for this month", should_trigger: true },
  { query: "add late fees to the overdue bills", should_trigger: true },
  { query: "summarise the meeting notes from monday", should_trigger: false },
  { query: "write a haiku about spring", should_trigger: false },
  { query: "what is two plus two?", should_trigger: false },
  { query: "commit my changes", should_trigger: false },
  { query: "rename the app's page title", should_trigger: false },
  { query: "format src/app.js with prettier", should_trigger: false },
];

let root: string;
let workdir: string;
let evalFile: string;
let server: QueryServer;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "cli-optimize-"));
  workdir = path.join(root, "work");
  for (const [name, description] of [
    ["billing", ORIGINAL],
    ["notes", "Summarise meeting notes into decisions and action items."],
  ]) {
    await mkdir(path.join(workdir, ".PseudoClaude", "skills", name), { recursive: true });
    await writeFile(
      path.join(workdir, ".PseudoClaude", "skills", name, "SKILL.md"),
      `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\nBILLING-SOP: list the markers by file.\n`,
    );
  }
  evalFile = path.join(workdir, "billing-evals.json");
  await writeFile(evalFile, JSON.stringify(EVALS, null, 2));
  server = await startQueryServer({
    answers: {},
    answer: (body) => {
      const system = (body.messages as { role: string; content: string }[])
        .filter((message) => message.role === "system")
        .map((message) => message.content)
        .join("\n");
      const user = (body.messages as { role: string; content: string }[]).find(
        (message) => message.role === "user",
      );
      const usage = { prompt_tokens: 1000, completion_tokens: 20 };
      if (!body.tools || body.tools.length === 0) {
        return { text: `<new_description>${BETTER}</new_description>`, usage };
      }
      const decision = route(String(user?.content ?? ""), parseIndex(system));
      return decision.chosen
        ? { toolCalls: [{ name: "load_skill", arguments: { name: decision.chosen } }], usage }
        : { text: "I can answer that directly.", usage };
    },
  });
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

function cli(args: string[]): Promise<CliResult> {
  return runCli(args, { env: { ...process.env, OPENAI_API_KEY: "sk-test-optimize-0123456789" } });
}

const optimizeArgs = (...extra: string[]) => [
  "eval",
  "optimize",
  "--workdir",
  workdir,
  "--home",
  path.join(root, "home"),
  "--skill",
  "billing",
  "--evals",
  evalFile,
  "--provider",
  "openai",
  "--model",
  "gpt-5.4-mini",
  "--base-url",
  server.baseUrl,
  "--improver-provider",
  "openai",
  "--improver-model",
  "gpt-5.4-mini-improver",
  "--concurrency",
  "4",
  ...extra,
];

const improverRequests = () =>
  server.requests.filter((request) => !request.body.tools || request.body.tools.length === 0);

describe("cli eval optimize", () => {
  it("finds a better description by its test score, and the improver never sees a test query", async () => {
    server.requests.length = 0;
    const result = await cli(optimizeArgs("--json"));
    expect(result.stderr).toMatch(/plan: \d+ model call\(s\).*estimated \$/);
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout);
    expect(Object.keys(document).slice(0, 11)).toEqual([
      "original_description",
      "best_description",
      "best_score",
      "best_train_score",
      "best_test_score",
      "iterations_run",
      "holdout",
      "train_size",
      "test_size",
      "exit_reason",
      "history",
    ]);
    expect(document.original_description).toBe(ORIGINAL);
    expect(document.best_description).toBe(BETTER);
    expect(document).toMatchObject({ holdout: 0.4, train_size: 9, test_size: 5, iterations_run: 2 });
    expect(document.history[0]).toMatchObject({
      iteration: 1,
      description: ORIGINAL,
      train_total: 9,
      test_total: 5,
    });
    expect(document.history[1].test_passed).toBeGreaterThan(document.history[0].test_passed);
    expect(document.best_test_score).toBe(`${document.history[1].test_passed}/5`);
    expect(document.exit_reason).toMatch(/all 9 train queries pass/);

    // What the improver was sent: the SKILL.md and train failures, never a test query or a test score.
    const evals = parseSkillCreatorEvals(JSON.stringify(EVALS), evalFile, "billing");
    const split = splitQueries(evals.queries, "billing", 0.4, 42);
    expect(split.test).toHaveLength(5);
    const sent = improverRequests();
    expect(sent).toHaveLength(1);
    const text = JSON.stringify(sent[0].body.messages);
    expect(text).toContain("BILLING-SOP");
    for (const index of split.test) expect(text).not.toContain(EVALS[index].query);
    expect(text).not.toMatch(/\btest\b/i);
    const failedTrain = split.train.filter((index) => EVALS[index].should_trigger);
    expect(failedTrain.some((index) => text.includes(EVALS[index].query))).toBe(true);
    // Nothing was written to the skill.
    expect(
      await readFile(path.join(workdir, ".PseudoClaude", "skills", "billing", "SKILL.md"), "utf8"),
    ).toContain(ORIGINAL);
  }, 120_000);

  it("--max-calls stops it cleanly, with the calls made and the reason", async () => {
    server.requests.length = 0;
    const result = await cli(optimizeArgs("--json", "--max-calls", "50"));
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout);
    expect(server.requests).toHaveLength(50);
    expect(document.exit_reason).toBe("--max-calls 50 reached: 50 call(s) made");
    expect(document.iterations_run).toBe(1);
    expect(document.spend.calls).toBe(50);
    expect(document.best_description).toBe(ORIGINAL);
  }, 120_000);

  it("--max-usd stops it before the call that could pass the cap, priced from the table", async () => {
    server.requests.length = 0;
    const result = await cli(optimizeArgs("--json", "--max-usd", "0.02", "--runs", "1"));
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout);
    expect(document.exit_reason).toMatch(/^--max-usd 0.02 reached/);
    expect(document.spend.usd).toBeLessThanOrEqual(0.02);
    expect(document.spend.calls).toBe(server.requests.length);
    expect(document.spend.calls).toBeGreaterThan(0);
  }, 120_000);
});
