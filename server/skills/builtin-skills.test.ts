// The shipped skills (repo `skills/`) and the demo workdir, loaded through the real Catalog and run
// through load_skill + the Registry with real processes, against a temp copy of the demo workdir.
import { execFileSync } from "node:child_process";
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Registry } from "../tools/registry.ts";
import { ActiveSkills } from "./active-skills.ts";
import { BUILTIN_SKILLS_DIR, Catalog, defaultLayers } from "./catalog.ts";
import { createLoadSkillTool } from "./load-skill-tool.ts";
import { ProcessRunner } from "../tools/process-runner.ts";

/** This file's own process runner (the composition root a test is). */
const processes = new ProcessRunner();

const DEMO_WORKDIR = fileURLToPath(new URL("../../examples/demo-workdir/", import.meta.url));
/** The protected system tools of issue 3 (server/tools), plus load_skill. */
const SYSTEM_TOOLS = new Set([
  "read_file",
  "list_files",
  "search_code",
  "write_file",
  "edit_file",
  "run_command",
  "load_skill",
]);

let scratch: string;
let workdir: string;
let home: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "builtin-skills-"));
  workdir = path.join(scratch, "demo");
  home = path.join(scratch, "home");
  await cp(DEMO_WORKDIR, workdir, { recursive: true });
  await writeFile(path.join(scratch, "secret.csv"), "a,b\n1,2\n");
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function loadedRegistry(skillName: string) {
  const catalog = await Catalog.create(defaultLayers(workdir, home));
  const registry = new Registry();
  const loadSkill = createLoadSkillTool({ catalog, activeSkills: new ActiveSkills(), registry });
  registry.register(loadSkill, { protected: true });
  const { result } = await loadSkill.execute({ name: skillName }, callContext());
  expect(result.ok).toBe(true);
  return registry;
}

function callContext() {
  return { workdir, processes, callId: "call", signal: new AbortController().signal };
}

async function runTool(skillName: string, toolName: string, input: unknown) {
  const registry = await loadedRegistry(skillName);
  expect(registry.validate(toolName, input)).toBeNull();
  const prepared = registry.prepare(toolName, input);
  if (!prepared.ok)
    throw new Error(`${toolName} was not registered by ${skillName}: ${prepared.result.content}`);
  return (await prepared.call.execute(callContext())).result;
}

describe("built-in skills", () => {
  it("load cleanly: at least 8, no warnings, no lint notes, names equal folders", async () => {
    const catalog = await Catalog.create({
      builtin: BUILTIN_SKILLS_DIR,
      user: path.join(home, "none"),
      project: path.join(scratch, "none"),
    });
    const snapshot = catalog.snapshot();
    expect(snapshot.warnings).toEqual([]);
    expect(snapshot.lint).toEqual([]);
    const names = catalog.names();
    for (const expected of [
      "review",
      "commit",
      "test",
      "changelog",
      "csv-report",
      "explain-code",
      "release-notes",
      "incident-summary",
    ]) {
      expect(names).toContain(expected);
    }
    expect(snapshot.skills.filter((skill) => skill.toolNames.length > 0).length).toBeGreaterThanOrEqual(3);
    expect(snapshot.skills.some((skill) => skill.body.includes("$ARGUMENTS"))).toBe(true);
    expect(snapshot.skills.some((skill) => skill.meta.tools.length > 0)).toBe(true);
    // Every dependency is a system tool or the skill's own tool: nothing is removed.
    expect(catalog.validateTools((name) => SYSTEM_TOOLS.has(name))).toEqual([]);
  });

  it("every tool an SOP tells the model to call is in its allowed-tools list (builtin and demo)", async () => {
    const catalog = await Catalog.create(defaultLayers(DEMO_WORKDIR, home));
    const skills = [
      ...catalog.snapshot().skills,
      ...(
        await Catalog.create({
          builtin: BUILTIN_SKILLS_DIR,
          user: path.join(home, "none"),
          project: path.join(scratch, "none"),
        })
      ).snapshot().skills,
    ];
    const ownTools = new Set(skills.flatMap((skill) => skill.toolNames));
    const callable = (name: string) =>
      (SYSTEM_TOOLS.has(name) || ownTools.has(name)) && name !== "load_skill";
    const unlisted = skills.flatMap((skill) =>
      [...skill.body.matchAll(/`([a-z_]+)`/g)]
        .map((match) => match[1])
        .filter((name) => callable(name) && !skill.meta.tools.includes(name))
        .map((name) => `${skill.source}/${skill.name} uses ${name}`),
    );
    expect([...new Set(unlisted)]).toEqual([]);
    // "uncommitted changes" can only be seen with git, which needs run_command.
    for (const skill of skills.filter((entry) => /uncommitted changes/.test(entry.body))) {
      expect(skill.meta.tools, `${skill.source}/${skill.name}`).toContain("run_command");
    }
  });

  it("the demo workdir adds a project skill and overrides the builtin review", async () => {
    const catalog = await Catalog.create(defaultLayers(DEMO_WORKDIR, home));
    expect(catalog.get("add-report")?.source).toBe("project");
    expect(catalog.get("review")?.source).toBe("project");
    expect(catalog.shadowed()).toEqual([
      {
        name: "review",
        winner: {
          source: "project",
          path: path.join(DEMO_WORKDIR, ".PseudoClaude", "skills", "review", "SKILL.md"),
        },
        loser: { source: "builtin", path: path.join(BUILTIN_SKILLS_DIR, "review", "SKILL.md") },
      },
    ]);
    expect(catalog.warnings()).toEqual([]);
    // The demo's review says what it does but not when: the lint says so (a teaching example), nothing else.
    expect(catalog.lint().map((note) => `${note.skill}:${note.rule}:${note.profile}`)).toEqual([
      "review:description-no-when:playground",
    ]);
  });
});

describe("built-in skill tools on the demo workdir", () => {
  it("profile_csv profiles data/sales.csv", async () => {
    const result = await runTool("csv-report", "profile_csv", { path: "data/sales.csv" });
    expect(result.ok).toBe(true);
    expect(result.content).toContain("rows: 72");
    expect(result.content).toContain("| quantity | integer | 0 |");
    expect(result.content).toMatch(/\| region \| text \| 1 \|/);
  });

  it("profile_csv refuses paths outside the workdir, including through a symlink", async () => {
    const escaped = await runTool("csv-report", "profile_csv", { path: "../secret.csv" });
    expect(escaped).toMatchObject({ ok: false, errorType: "command_failed" });
    expect(escaped.content).toMatch(/outside the workdir/);
    await symlink(path.join(scratch, "secret.csv"), path.join(workdir, "data", "linked.csv"));
    const linked = await runTool("csv-report", "profile_csv", { path: "data/linked.csv" });
    expect(linked).toMatchObject({ ok: false, errorType: "command_failed" });
    expect(linked.content).toMatch(/outside the workdir/);
  });

  it("count_todos finds the TODO/FIXME/HACK markers in src/ with file:line", async () => {
    const result = await runTool("todo-triage", "count_todos", { path: "." });
    expect(result.ok).toBe(true);
    expect(result.content).toMatch(/^4 markers/);
    expect(result.content).toContain("By marker: TODO 2, FIXME 1, HACK 1");
    const orders = (await readFile(path.join(workdir, "src", "orders.js"), "utf8")).split("\n");
    const fixmeLine = orders.findIndex((line) => line.includes("FIXME")) + 1;
    expect(result.content).toContain(`src/orders.js:${fixmeLine}: FIXME parseFloat`);
  });

  it("log_timeline builds the incident timeline of logs/app.log", async () => {
    const result = await runTool("incident-summary", "log_timeline", {
      path: "logs/app.log",
      bucket_minutes: 5,
    });
    expect(result.ok).toBe(true);
    expect(result.content).toContain("span: 2026-11-03T01:59:58 → 2026-11-03T02:34:14");
    expect(result.content).toContain("levels: INFO 12, ERROR 10, WARN 7, FATAL 1");
    expect(result.content).toContain('×5 ERROR report: revenue total NaN for region "North"');
  });

  it("git_log_summary groups the history and says clearly when there is none", async () => {
    const missing = await runTool("changelog", "git_log_summary", {});
    expect(missing).toMatchObject({ ok: false, errorType: "command_failed" });
    expect(missing.content).toMatch(/not a git repository/);

    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=Dana", "-c", "user.email=dana@example.com", ...args], {
        cwd: workdir,
        stdio: "pipe",
      });
    git("init", "-q");
    git("add", "README.md");
    git("commit", "-q", "-m", "feat(report): revenue by product");
    git("tag", "v0.1.0");
    git("add", "src");
    git("commit", "-q", "-m", "fix!: amounts are integer cents");
    git("add", "data");
    git("commit", "-q", "-m", "add october data");
    const result = await runTool("changelog", "git_log_summary", { range: "v0.1.0..HEAD" });
    expect(result.ok).toBe(true);
    expect(result.content).toMatch(/^# 2 commits \(v0\.1\.0\.\.HEAD\)/);
    expect(result.content).toContain("Latest tags: v0.1.0");
    expect(result.content).toMatch(/## Breaking changes\n- amounts are integer cents \([0-9a-f]+, Dana\)/);
    expect(result.content).toContain("## Other (not Conventional Commits) (1)");

    const injected = await runTool("changelog", "git_log_summary", { range: "--output=/tmp/pwned" });
    expect(injected).toMatchObject({ ok: false, errorType: "command_failed" });
    await rm(path.join(workdir, ".git"), { recursive: true, force: true });
  });
});
