// The trigger lab against a local OpenAI-format server (real HTTP, SSE) that answers each query with
// scripted tool calls: precision and recall exactly as defined, the confounds, the saved files, and that
// no tool but load_skill runs during a probe.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OpenAiProvider } from "../providers/openai.ts";
import { createWorkspace, type Workspace } from "../session/workspace.ts";
import type { TriggerLabProgress } from "../protocol/trigger-lab.ts";
import { labWorkspaceOf, runTriggerLab } from "./lab.ts";
import { parseTriggersFile } from "./triggers-file.ts";
import { startQueryServer, type QueryAnswer, type QueryServer } from "./testing/query-openai-server.ts";

const load = (name: string) => ({ name: "load_skill", arguments: { name } });

const QUERIES = {
  implicit: "make a short report from data/sales.csv",
  hijacked: "please review src/app.js",
  otherFirst: "list the files, then report on them",
  negative: "what is two plus two?",
  explicit: "use beta-review on src/app.js",
  failing: "review the failing build",
  decoy: "report, decoy name",
};

const ANSWERS: Record<string, QueryAnswer> = {
  [QUERIES.implicit]: { text: "Loading the report skill.", toolCalls: [load("alpha-report")] },
  // Another skill fires first: a hijack.
  [QUERIES.hijacked]: { toolCalls: [load("alpha-report")] },
  // Tools that would leave traces if they ran; the lab must only record them.
  [QUERIES.otherFirst]: {
    toolCalls: [
      { name: "write_file", arguments: { path: "PWNED.txt", content: "the probe ran a tool" } },
      { name: "run_command", arguments: { command: "touch RAN_COMMAND" } },
      load("alpha-report"),
    ],
  },
  [QUERIES.negative]: { text: "4" },
  [QUERIES.explicit]: { toolCalls: [load("beta-review")] },
  [QUERIES.failing]: { status: 400, message: "model not found" },
  [QUERIES.decoy]: { toolCalls: [load("alpha-reports")] },
};

const EVAL_YAML = `queries:
  - { query: "${QUERIES.implicit}", expect: alpha-report, kind: implicit }
  - { query: "${QUERIES.hijacked}", expect: beta-review, kind: implicit }
  - { query: "${QUERIES.otherFirst}", expect: alpha-report, kind: contextual }
  - { query: "${QUERIES.negative}", expect: none, kind: negative }
  - { query: "${QUERIES.explicit}", expect: beta-review, kind: explicit }
  - { query: "${QUERIES.failing}", expect: beta-review, kind: implicit }
  - { query: "${QUERIES.decoy}", expect: alpha-report, kind: implicit }
`;

async function writeSkill(workdir: string, name: string, description: string): Promise<void> {
  const folder = path.join(workdir, ".PseudoClaude", "skills", name);
  await mkdir(folder, { recursive: true });
  await writeFile(
    path.join(folder, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\nDo it.\n`,
  );
}

export const labWorkspace = labWorkspaceOf;

let root: string;
let workspace: Workspace;
let server: QueryServer | undefined;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "trigger-lab-"));
  const workdir = path.join(root, "work");
  const builtin = path.join(root, "builtin");
  await mkdir(builtin, { recursive: true });
  await writeSkill(workdir, "alpha-report", "Turn a CSV file into a short report.");
  await writeSkill(workdir, "beta-review", "Review code against the project's conventions.");
  await mkdir(path.join(workdir, ".PseudoClaude", "evals"), { recursive: true });
  workspace = await createWorkspace({ workdir, home: path.join(root, "home"), builtinDir: builtin });
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(root, { recursive: true, force: true });
});

function evalsFile(text = EVAL_YAML) {
  return parseTriggersFile(text, path.join(workspace.workdir, ".PseudoClaude", "evals", "triggers.yaml"));
}

describe("trigger lab against a local OpenAI-format server", () => {
  it("scores precision and recall as defined, counts the confounds, and runs no tool but load_skill", async () => {
    server = await startQueryServer({ answers: ANSWERS, delayMs: 15 });
    const baseUrl = server.baseUrl;
    const progress: TriggerLabProgress[] = [];
    const result = await runTriggerLab({
      evals: evalsFile(),
      workspace: labWorkspace(workspace),
      createProvider: () => new OpenAiProvider({ baseUrl, model: "gpt-fake", retry: { maxRetries: 0 } }),
      runs: 2,
      concurrency: 3,
      onProgress: (update) => progress.push(update),
    });
    const a = result.a;
    const skill = (name: string) => a.skills.find((entry) => entry.name === name)!;

    // alpha-report: TP 4 (implicit; and other-tool-first, whose first load is still alpha-report),
    // FP 2 (the hijack of beta-review's query), FN 2 (the decoy name).
    expect(skill("alpha-report")).toEqual({
      name: "alpha-report",
      precision: 4 / 6,
      recall: 4 / 6,
      triggerRate: 4 / 6,
      probes: 6,
      truePositives: 4,
      falsePositives: 2,
      falseNegatives: 2,
      // The 8 probes expecting something else: 2 loaded alpha-report first (the hijack), 6 did not.
      trueNegatives: 6,
      falsePositiveRate: 2 / 8,
    });
    // beta-review: TP 2 (explicit), FN 2 (hijacked) + 2 (provider error).
    expect(skill("beta-review")).toMatchObject({
      precision: 1,
      recall: 2 / 6,
      truePositives: 2,
      falsePositives: 0,
      falseNegatives: 4,
    });

    const byQuery = Object.fromEntries(a.queries.map((query) => [query.query, query]));
    expect(byQuery[QUERIES.negative]).toMatchObject({ expect: "none", kind: "negative", passRate: 1 });
    expect(byQuery[QUERIES.negative].probes[0]).toMatchObject({
      first: null,
      loaded: [],
      outcome: "no_tool",
    });
    expect(byQuery[QUERIES.hijacked].probes[0]).toMatchObject({
      first: "alpha-report",
      loaded: ["alpha-report"],
      outcome: "load_skill",
    });
    expect(byQuery[QUERIES.hijacked].passRate).toBe(0);
    // Per query at the 0.5 threshold, and over runs as "did the query's skill trigger?".
    expect(byQuery[QUERIES.hijacked]).toMatchObject({ triggerRate: 0, runs: 2, passed: false });
    expect(byQuery[QUERIES.negative]).toMatchObject({ triggerRate: 0, passed: true });
    expect(byQuery[QUERIES.implicit]).toMatchObject({ triggerRate: 1, passed: true });
    expect(a.overall).toEqual({
      truePositives: 6,
      falsePositives: 0,
      trueNegatives: 2,
      falseNegatives: 6,
      precision: 1,
      recall: 0.5,
      falsePositiveRate: 0,
      accuracy: 8 / 14,
      queriesPassed: 4,
      queries: 7,
    });
    expect(byQuery[QUERIES.otherFirst].probes[0]).toMatchObject({
      first: "alpha-report",
      outcome: "other_tool_first",
      calls: ["write_file", "run_command", "load_skill"],
    });
    expect(byQuery[QUERIES.failing].probes[0].outcome).toBe("provider_error");
    expect(byQuery[QUERIES.failing].probes[0].error).toContain("model not found");
    expect(byQuery[QUERIES.decoy].probes[0]).toMatchObject({ first: "alpha-reports", loaded: [] });

    expect(a.confusion).toEqual({
      "alpha-report": { "alpha-report": 4, "alpha-reports": 2 },
      "beta-review": { "alpha-report": 2, "beta-review": 2, none: 2 },
      none: { none: 2 },
    });
    expect(a.confounds).toEqual({
      other_tool_first: 2,
      provider_error: 2,
      unknown_skill: 2,
      several_loads: 0,
    });

    // Nothing but load_skill ran: no file written, no command run.
    expect(existsSync(path.join(workspace.workdir, "PWNED.txt"))).toBe(false);
    expect(existsSync(path.join(workspace.workdir, "RAN_COMMAND"))).toBe(false);
    // The workspace's own conversation state is untouched (probes use their own ActiveSkills).
    expect(workspace.activeSkills.list()).toEqual([]);

    // Each probe: one request, a fresh conversation with the real stable system and tools.
    expect(server.requests).toHaveLength(14);
    const body = server.requests[0].body;
    expect(body.messages.map((message: { role: string }) => message.role)).toEqual([
      "system",
      "system",
      "user",
    ]);
    expect(body.messages[0].content).toContain("- alpha-report: Turn a CSV file into a short report.");
    expect(body.messages[1].content).toContain("# Environment");
    expect(body.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual(
      expect.arrayContaining(["load_skill", "read_file", "write_file", "run_command"]),
    );
    expect(server.peakInFlight).toBeLessThanOrEqual(3);
    expect(server.peakInFlight).toBeGreaterThan(1);

    expect(progress).toHaveLength(14);
    expect(progress.at(-1)).toMatchObject({ done: 14, total: 14 });

    // Saved next to the eval file.
    expect(result.files).toBeDefined();
    const lines = (await readFile(result.files!.jsonl, "utf8")).trim().split("\n");
    expect(lines).toHaveLength(14);
    expect(JSON.parse(lines[0])).toMatchObject({
      side: "a",
      query: QUERIES.implicit,
      run: 1,
      first: "alpha-report",
    });
    const summary = JSON.parse(await readFile(result.files!.summary, "utf8"));
    expect(summary.a.skills).toEqual(a.skills);
  });

  it("ablation: the B side sends the replaced description and is scored side by side", async () => {
    server = await startQueryServer({ answers: ANSWERS });
    const baseUrl = server.baseUrl;
    const yaml = `queries:\n  - { query: "${QUERIES.implicit}", expect: alpha-report, kind: implicit }\n  - { query: "${QUERIES.negative}", expect: none, kind: negative }\nablation: { skill: alpha-report, description: "Summarise spreadsheets (ablated)." }\n`;
    const result = await runTriggerLab({
      evals: evalsFile(yaml),
      workspace: labWorkspace(workspace),
      createProvider: () => new OpenAiProvider({ baseUrl, model: "gpt-fake", retry: { maxRetries: 0 } }),
      runs: 1,
      concurrency: 8,
      save: false,
    });
    expect(result.info.ablation).toEqual({
      skill: "alpha-report",
      description: "Summarise spreadsheets (ablated).",
    });
    expect(result.b).toBeDefined();
    const stables = server.requests.map((request) => request.body.messages[0].content as string);
    expect(
      stables.filter((text) => text.includes("- alpha-report: Summarise spreadsheets (ablated).")),
    ).toHaveLength(2);
    expect(stables.filter((text) => text.includes("- alpha-report: Turn a CSV file"))).toHaveLength(2);
    expect(result.b!.skills.find((entry) => entry.name === "alpha-report")!.recall).toBe(1);
  });

  it("refuses an eval that expects a skill the catalog does not have, naming the line", async () => {
    const yaml = `queries:\n  - { query: "x", expect: alpha-report, kind: implicit }\n  - { query: "y", expect: gamma, kind: implicit }\n`;
    await expect(
      runTriggerLab({
        evals: evalsFile(yaml),
        workspace: labWorkspace(workspace),
        createProvider: () => new OpenAiProvider({ baseUrl: "http://127.0.0.1:9/v1" }),
        runs: 1,
      }),
    ).rejects.toThrow(
      /triggers\.yaml:3: expect names "gamma", which is not in the catalog \(skills: alpha-report, beta-review\)/,
    );
  });
});
