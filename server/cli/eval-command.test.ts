// `cli eval triggers` (in-process): offline against the demo workdir's eval file and
// scripted scenarios (on a temp copy), and against a local OpenAI-format server with --json.
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQueryServer } from "../eval/testing/query-openai-server.ts";
import { REPO_ROOT as repoRoot, runCli as cli } from "./testing/run-cli.ts";

let root: string;
let workdir: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "cli-eval-"));
  workdir = path.join(root, "demo");
  await cp(path.join(repoRoot, "examples", "demo-workdir"), workdir, { recursive: true });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("cli eval triggers", () => {
  it("runs the demo eval offline with the scripted model, progress on stderr, results saved", async () => {
    const home = path.join(root, "home");
    const result = await cli([
      "eval",
      "triggers",
      "--workdir",
      workdir,
      "--home",
      home,
      "--provider",
      "scripted",
      "--runs",
      "2",
      "--concurrency",
      "8",
    ]);
    expect(result.stderr).toContain("probes 16/16");
    expect(result.code).toBe(0); // skills miss (a hijack, a silent miss), and the exit code is still 0
    expect(result.stdout).toMatch(/csv-report\s+50%\s+100%/);
    expect(result.stdout).toContain("confounds: other_tool_first 2, provider_error 0");
    const jsonl = await readFile(
      path.join(workdir, ".PseudoClaude", "evals", "triggers.results.jsonl"),
      "utf8",
    );
    expect(jsonl.trim().split("\n")).toHaveLength(16);
  }, 120_000);

  it("--json against a local OpenAI-format server prints skills, queries, confusion, confounds first, then what issue 25 added", async () => {
    const server = await startQueryServer({
      answers: {
        "make a short report from data/sales.csv": {
          toolCalls: [{ name: "load_skill", arguments: { name: "csv-report" } }],
        },
        "add revenue by month to the report": {
          toolCalls: [{ name: "load_skill", arguments: { name: "csv-report" } }],
        },
        "what is two plus two?": { text: "4" },
      },
    });
    try {
      const evals = path.join(root, "small.yaml");
      await writeFile(
        evals,
        `queries:\n  - { query: "make a short report from data/sales.csv", expect: csv-report, kind: implicit }\n  - { query: "add revenue by month to the report", expect: add-report, kind: implicit }\n  - { query: "what is two plus two?", expect: none, kind: negative }\n`,
      );
      const result = await cli([
        "eval",
        "triggers",
        "--workdir",
        workdir,
        "--home",
        path.join(root, "home"),
        "--evals",
        evals,
        "--provider",
        "openai",
        "--model",
        "gpt-fake",
        "--base-url",
        server.baseUrl,
        "--runs",
        "3",
        "--concurrency",
        "8",
        "--json",
      ]);
      expect(result.code).toBe(0);
      const document = JSON.parse(result.stdout);
      expect(Object.keys(document)).toEqual([
        "skills",
        "queries",
        "confusion",
        "confounds",
        "overall",
        "notes",
        "estimate",
        "spend",
      ]);
      const csv = document.skills.find((skill: { name: string }) => skill.name === "csv-report");
      expect(csv).toEqual({
        name: "csv-report",
        precision: 0.5,
        recall: 1,
        triggerRate: 1,
        probes: 3,
        falsePositiveRate: 0.5,
      });
      expect(document.skills.find((skill: { name: string }) => skill.name === "add-report")).toEqual({
        name: "add-report",
        precision: null,
        recall: 0,
        triggerRate: 0,
        probes: 3,
        falsePositiveRate: 0,
      });
      expect(document.queries[1]).toEqual({
        query: "add revenue by month to the report",
        expect: "add-report",
        kind: "implicit",
        passRate: 0,
        probes: Array(3).fill({ first: "csv-report", loaded: ["csv-report"], outcome: "load_skill" }),
        triggerRate: 0,
        runs: 3,
        passed: false,
      });
      // "what is two plus two?" shares no word with any description: the eval gets a note.
      expect(document.notes[0]).toMatch(/^no near-miss negatives/);
      // gpt-fake has no row in the price table: the estimate says so instead of inventing a number.
      expect(document.estimate).toMatchObject({ calls: 9, usd: null });
      expect(document.estimate.basis).toContain('no row for "gpt-fake"');
      expect(result.stderr).toMatch(/^plan: 9 model call\(s\)/);
      expect(document.confusion["add-report"]).toEqual({ "csv-report": 3 });
      expect(server.requests).toHaveLength(9);
      expect(server.requests[0].body.model).toBe("gpt-fake");
    } finally {
      await server.close();
    }
  }, 120_000);

  it("eval compare says per query what changed between the last two saved results", async () => {
    const evals = path.join(root, "compare.yaml");
    await writeFile(
      evals,
      `queries:\n  - { query: "add revenue by month to the report", expect: add-report, kind: implicit }\n  - { query: "what is two plus two?", expect: none, kind: negative }\n`,
    );
    const lab = () =>
      cli([
        "eval",
        "triggers",
        "--workdir",
        workdir,
        "--home",
        path.join(root, "home"),
        "--evals",
        evals,
        "--provider",
        "router",
        "--runs",
        "1",
      ]);
    // The router reads the description on disk: first a useless one, then the demo's own.
    const skillFile = path.join(workdir, ".PseudoClaude", "skills", "add-report", "SKILL.md");
    const original = await readFile(skillFile, "utf8");
    await writeFile(skillFile, original.replace(/^description: .*$/m, "description: Never use this skill."));
    expect((await lab()).code).toBe(0);
    await writeFile(skillFile, original);
    const second = await lab();
    expect(second.stdout).toContain("against lab_");
    expect(second.stdout).toMatch(/Fixed\s+add-report\s+add revenue by month to the report/);
    const compared = await cli(["eval", "compare", "--evals", evals, "--json"]);
    expect(compared.code).toBe(0);
    const comparison = JSON.parse(compared.stdout);
    expect(comparison.queries.map((query: { verdict: string }) => query.verdict)).toEqual([
      "fixed",
      "still_passing",
    ]);
    expect(comparison.before.file).toBe(path.join(root, "compare.previous.summary.json"));
  }, 120_000);
});
