// The trigger lab with the description router (offline, deterministic, reads descriptions): an A/B side
// that differs because the description differs, checks beyond triggering, the arm without skills, a cap
// that stops cleanly with the partial results saved, and two saved results compared per query.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RouterProvider } from "../providers/router.ts";
import { createWorkspace, type Workspace } from "../session/workspace.ts";
import { labWorkspaceOf as labWorkspace, runTriggerLab } from "./lab.ts";
import { parseTriggersFile } from "./triggers-file.ts";

const EVAL_YAML = `queries:
  - { query: "make a short report from sales.csv", expect: csv-report, kind: implicit, first_tool: load_skill, never_tool: run_command }
  - { query: "review src/app.js for bugs", expect: review, kind: explicit, max_input_tokens: 10 }
  - { query: "what is two plus two?", expect: none, kind: negative }
`;

let root: string;
let workspace: Workspace;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "lab-truth-"));
  const workdir = path.join(root, "work");
  const builtin = path.join(root, "builtin");
  await mkdir(builtin, { recursive: true });
  for (const [name, description] of [
    ["csv-report", "Turn a CSV file into a short report. Use when the user asks to summarise a spreadsheet."],
    ["review", "Review code for bugs and security problems."],
  ]) {
    const folder = path.join(workdir, ".PseudoClaude", "skills", name);
    await mkdir(folder, { recursive: true });
    await writeFile(
      path.join(folder, "SKILL.md"),
      `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`,
    );
  }
  await mkdir(path.join(workdir, ".PseudoClaude", "evals"), { recursive: true });
  workspace = await createWorkspace({ workdir, home: path.join(root, "home"), builtinDir: builtin });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const evals = () =>
  parseTriggersFile(EVAL_YAML, path.join(workspace.workdir, ".PseudoClaude", "evals", "triggers.yaml"));
const router = () => new RouterProvider();

describe("trigger lab with the description router", () => {
  it("shows a real A/B difference when a description changes, and runs the checks per probe", async () => {
    const result = await runTriggerLab({
      evals: evals(),
      workspace: labWorkspace(workspace),
      createProvider: router,
      runs: 2,
      ablation: { skill: "csv-report", description: "Never use this skill." },
      withoutSkills: true,
    });
    expect(result.a.queries[0]).toMatchObject({ triggerRate: 1, passed: true, checksPassRate: 1 });
    expect(result.b!.queries[0]).toMatchObject({ triggerRate: 0, passed: false });
    expect(result.b!.queries[0].probes[0].first).toBeNull();
    expect(result.a.queries[0].probes[0].checks).toEqual([
      { name: "first_tool", ok: true, detail: "first tool load_skill, got load_skill" },
      { name: "never_tool", ok: true, detail: "never run_command: not called" },
    ]);
    // max_input_tokens 10: the real request is far larger, counted with o200k_base (the router reports none).
    const reviewProbe = result.a.queries[1].probes[0];
    expect(reviewProbe.inputTokensSource).toBe("o200k_base (gpt-tokenizer)");
    expect(reviewProbe.checks?.[0]).toMatchObject({ name: "max_input_tokens", ok: false });
    expect(result.a.queries[1]).toMatchObject({ triggerRate: 1, checksPassRate: 0, passed: false });
    // Without skills nothing can load: positives miss, the negative passes.
    expect(result.none!.queries.map((query) => query.passed)).toEqual([false, false, true]);
    expect(result.estimate).toMatchObject({ calls: 18, usd: 0 });
    expect(result.spend).toMatchObject({ calls: 18, usd: 0 });
    expect(result.notes).toEqual([expect.stringMatching(/^no near-miss negatives/)]);
  });

  it("--max-calls stops cleanly: the calls not made are not scored, the reason is said, the partial result saved", async () => {
    const result = await runTriggerLab({
      evals: evals(),
      workspace: labWorkspace(workspace),
      createProvider: router,
      runs: 3,
      concurrency: 2,
      caps: { maxCalls: 4 },
    });
    expect(result.spend?.calls).toBe(4);
    expect(result.stopped).toBe("--max-calls 4 reached: 4 call(s) made; the results are partial");
    const outcomes = result.a.queries.flatMap((query) => query.probes.map((probe) => probe.outcome));
    expect(outcomes.filter((outcome) => outcome === "not_run")).toHaveLength(5);
    expect(result.a.queries[0]).toMatchObject({ runs: 3, passed: true });
    // No probe of the negative ran: no verdict (not a failure), and nothing to compare later.
    expect(result.a.queries[2]).toMatchObject({ runs: 0 });
    expect(result.a.queries[2].passed).toBeUndefined();
    expect(result.a.overall).toMatchObject({ queries: 2, queriesPassed: 1, trueNegatives: 0 });
    const saved = JSON.parse(await readFile(result.files!.summary, "utf8"));
    expect(saved.stopped).toBe(result.stopped);
  });

  it("compares with the result it replaces: Fixed, Regressed, Still failing per query", async () => {
    const lab = (description?: string) =>
      runTriggerLab({
        evals: evals(),
        workspace: labWorkspace(workspace),
        createProvider: router,
        runs: 1,
        ...(description ? { replace: { skill: "csv-report", description } } : {}),
      });
    const before = await lab("Never use this skill.");
    expect(before.comparison).toBeUndefined();
    const after = await lab();
    expect(after.comparison?.queries.map((query) => query.verdict)).toEqual([
      "fixed",
      "still_failing",
      "still_passing",
    ]);
    expect(after.comparison?.counts).toMatchObject({ fixed: 1, still_failing: 1, regressed: 0 });
    const previous = JSON.parse(
      await readFile(
        path.join(workspace.workdir, ".PseudoClaude", "evals", "triggers.previous.summary.json"),
        "utf8",
      ),
    );
    expect(previous.info.labId).toBe(before.info.labId);
    const again = await lab("Never use this skill.");
    expect(again.comparison?.queries[0].verdict).toBe("regressed");
    const capped = await runTriggerLab({
      evals: evals(),
      workspace: labWorkspace(workspace),
      createProvider: router,
      runs: 1,
      concurrency: 1,
      caps: { maxCalls: 1 },
    });
    expect(capped.comparison?.queries.map((query) => query.verdict)).toEqual(["fixed", "not_run", "not_run"]);
  });
});
