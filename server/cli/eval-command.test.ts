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

  it("--json against a local OpenAI-format server prints exactly skills, queries, confusion, confounds", async () => {
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
      expect(Object.keys(document)).toEqual(["skills", "queries", "confusion", "confounds"]);
      const csv = document.skills.find((skill: { name: string }) => skill.name === "csv-report");
      expect(csv).toEqual({ name: "csv-report", precision: 0.5, recall: 1, triggerRate: 1, probes: 3 });
      expect(document.skills.find((skill: { name: string }) => skill.name === "add-report")).toEqual({
        name: "add-report",
        precision: null,
        recall: 0,
        triggerRate: 0,
        probes: 3,
      });
      expect(document.queries[1]).toEqual({
        query: "add revenue by month to the report",
        expect: "add-report",
        kind: "implicit",
        passRate: 0,
        probes: Array(3).fill({ first: "csv-report", loaded: ["csv-report"], outcome: "load_skill" }),
      });
      expect(document.confusion["add-report"]).toEqual({ "csv-report": 3 });
      expect(server.requests).toHaveLength(9);
      expect(server.requests[0].body.model).toBe("gpt-fake");
    } finally {
      await server.close();
    }
  }, 120_000);
});
