// Level 3 of disclosure end to end with a public-collection-style skill in the user layer: SKILL.md names
// REFERENCE.md and FORMS.md (the folder holds them in lower case), ships scripts/ and a LICENSE.txt.
// Real files in a temp home, the real Catalog, Registry, file tools, permission engine and Runner; only
// the model is scripted.
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProcessRunner } from "../tools/process-runner.ts";
import { PermissionEngine } from "../permission/engine.ts";
import type { ApprovalRequest } from "../protocol/permission.ts";
import type { RunnerEvent } from "../protocol/runner-events.ts";
import { parseScenario } from "../providers/scenario.ts";
import { ScriptedProvider } from "../providers/scripted.ts";
import { Runner } from "../runner/runner.ts";
import { createWorkspace, type Workspace } from "./workspace.ts";

/** This file's own process runner (its tools' processes), ended after each test. */
const processes = new ProcessRunner();

const PDF_SKILL = `---
name: pdf
description: Fill and read PDF forms. Use for any PDF task.
license: Complete terms in LICENSE.txt
---

# PDF

For the API, see REFERENCE.md. To fill a form, read FORMS.md first.
Run \`python3 \${SKILL_DIR}/scripts/fill_form.py <in.pdf>\` to fill it.
Templates live in \${TEMPLATE_HOME}.
`;

let root: string;
let home: string;
let workdir: string;
let skillDir: string;
let workspace: Workspace;

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), "skill-resources-")));
  home = path.join(root, "home");
  workdir = path.join(root, "work");
  skillDir = path.join(home, ".PseudoClaude", "skills", "pdf");
  await mkdir(path.join(skillDir, "scripts"), { recursive: true });
  await mkdir(path.join(skillDir, "node_modules", "x"), { recursive: true });
  await mkdir(workdir, { recursive: true });
  await writeFile(path.join(skillDir, "SKILL.md"), PDF_SKILL);
  await writeFile(path.join(skillDir, "reference.md"), "# pdf reference\nUse pypdf.\n");
  await writeFile(path.join(skillDir, "forms.md"), "# forms\nFill fields in order.\n");
  await writeFile(path.join(skillDir, "LICENSE.txt"), "Proprietary.\n");
  await writeFile(path.join(skillDir, "scripts", "fill_form.py"), "print('filled')\n");
  await writeFile(path.join(skillDir, "node_modules", "x", "index.js"), "skipped\n");
  await writeFile(path.join(root, "outside-secret.txt"), "secret outside the skill\n");
  await symlink(path.join(root, "outside-secret.txt"), path.join(skillDir, "escape.md"));
  workspace = await createWorkspace({ workdir, home, builtinDir: path.join(root, "no-builtin") });
});
afterEach(async () => {
  await processes.killAll();
  await rm(root, { recursive: true, force: true });
});

const never = (): Promise<never> => Promise.reject(new Error("no approval expected in this test"));

const context = () => ({
  workdir: workspace.workdir,
  processes,
  callId: "t",
  signal: new AbortController().signal,
});

async function call(name: string, input: Record<string, unknown>) {
  const prepared = workspace.registry.prepare(name, input);
  if (!prepared.ok) throw new Error(prepared.result.content);
  return {
    target: prepared.call.describe(workspace.workdir),
    result: (await prepared.call.execute(context())).result,
  };
}

describe("a user-layer skill from a public collection", () => {
  it("is listed from the user layer, and the lint names the case mismatch and the unknown variable", () => {
    expect(workspace.catalog.get("pdf")?.source).toBe("user");
    const notes = workspace.catalog.lint().filter((note) => note.skill === "pdf");
    expect(notes).toContainEqual(
      expect.objectContaining({
        rule: "resource-case",
        line: 9,
        message: expect.stringContaining(
          "names REFERENCE.md, which does not exist; the folder has reference.md",
        ),
      }),
    );
    expect(notes).toContainEqual(
      expect.objectContaining({ rule: "resource-case", message: expect.stringContaining("FORMS.md") }),
    );
    expect(notes).toContainEqual(
      expect.objectContaining({ rule: "unknown-variable", line: 11, path: path.join(skillDir, "SKILL.md") }),
    );
    // LICENSE.txt and the script exist as named: nothing to say about them.
    expect(notes.map((note) => note.message).join("\n")).not.toMatch(/LICENSE|fill_form/);
  });

  it("load_skill renders the base directory, the real file names, and expands ${SKILL_DIR}", async () => {
    const result = await workspace.loadSkill("pdf");
    expect(result.ok).toBe(true);
    const body = workspace.activeSkills.get("pdf")!.body;
    expect(body).toContain(`Run \`python3 ${skillDir}/scripts/fill_form.py <in.pdf>\``);
    expect(body).toContain("${TEMPLATE_HOME}");
    expect(body).toContain(`Skill base directory: ${skillDir}`);
    for (const line of [
      "- LICENSE.txt (13 B)",
      "- forms.md (",
      "- reference.md (",
      "- scripts/fill_form.py (",
    ]) {
      expect(body).toContain(line);
    }
    expect(body).not.toMatch(/node_modules|SKILL\.md \(|escape\.md/);
    const activation = result.effects?.find((effect) => effect.type === "skill_activated");
    expect(activation).toMatchObject({
      resources: { baseDir: skillDir, more: 0, referenced: ["scripts/fill_form.py"] },
    });
  });

  it("reads a file of the skill only once it is loaded, read-only, never through a symlink out", async () => {
    const reference = path.join(skillDir, "reference.md");
    const before = await call("read_file", { path: reference });
    expect(before.result).toMatchObject({ ok: false, errorType: "path_refused" });
    expect(before.target.refusal).toMatch(/outside the working directory/);

    await workspace.loadSkill("pdf");
    const after = await call("read_file", { path: reference });
    expect(after.result).toMatchObject({ ok: true, content: "# pdf reference\nUse pypdf.\n" });
    expect(after.result.effects).toEqual([
      { type: "skill_resource_read", skill: "pdf", path: "reference.md", bytes: 27 },
    ]);
    expect(after.target).toMatchObject({ path: reference, skillResource: "pdf" });

    const escape = await call("read_file", { path: path.join(skillDir, "escape.md") });
    expect(escape.result).toMatchObject({ ok: false, errorType: "path_refused" });
    expect(escape.result.content).toMatch(/symlink leads outside the folder of skill "pdf"/);

    const dotted = await call("read_file", { path: `${skillDir}/../../../../outside-secret.txt` });
    expect(dotted.result.ok).toBe(false);

    const write = await call("write_file", { path: path.join(skillDir, "reference.md"), content: "x" });
    expect(write.result).toMatchObject({ ok: false, errorType: "path_refused" });
    expect(await readFile(reference, "utf8")).toBe("# pdf reference\nUse pypdf.\n");
    const edit = await call("edit_file", { path: reference, old_string: "pypdf", new_string: "evil" });
    expect(edit.result.ok).toBe(false);

    const listed = await call("list_files", { path: skillDir });
    expect(listed.result.content.split("\n")).toContain(`${skillDir}/scripts/fill_form.py`);
    const searched = await call("search_code", { pattern: "pypdf", path: skillDir });
    expect(searched.result.content).toContain(`${skillDir}/reference.md:2:`);
  });

  it("a scripted run reads <base>/reference.md after load_skill: skill_resource_read, traced as the skill's", async () => {
    const events: RunnerEvent[] = [];
    const asked: ApprovalRequest[] = [];
    const engine = new PermissionEngine({ sandbox: { enabled: true, network: false } as never });
    const scenario = parseScenario(
      `name: pdf-read
turns:
  - tool_calls:
      - { name: load_skill, input: { name: pdf } }
  - tool_calls:
      - { name: read_file, input: { path: "{{skill_dir:pdf}}/reference.md" } }
      - { name: run_command, input: { command: "python3 {{skill_dir:pdf}}/scripts/fill_form.py in.pdf" } }
  - text: done
`,
      "inline.yaml",
    );
    const deps = workspace.runnerDependencies({
      processes,
      provider: new ScriptedProvider(scenario),
      permission: {
        evaluate: (check) => engine.evaluate(check),
        ask: async (request) => {
          asked.push(request);
          return { kind: "deny", reason: "not in this test" };
        },
      },
      onEvent: (event) => events.push(event),
    });
    const outcome = await new Runner(deps).run("fill the form");
    expect(outcome.reason).toBe("completed");
    const read = events.find((event) => event.type === "skill_resource_read");
    expect(read).toMatchObject({ skill: "pdf", path: "reference.md", bytes: 27, tokens: expect.any(Number) });
    expect(read?.type === "skill_resource_read" && read.tokens).toBeGreaterThan(3);
    const activated = events.find((event) => event.type === "skill_activated");
    expect(activated).toMatchObject({ indexTokens: expect.any(Number), resources: { baseDir: skillDir } });
    const decisions = events.flatMap((event) => (event.type === "permission_decision" ? [event.trace] : []));
    expect(decisions).toContainEqual(
      expect.objectContaining({ resource: "skill resource of pdf", decision: "allow" }),
    );
    // The approval card says whose script run_command runs; cwd stays the workdir.
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ tool: "run_command", skill: "pdf", cwd: workspace.workdir });
    // Denied, so it never ran: no use of the script is reported.
    expect(events.some((event) => event.type === "skill_resource_used")).toBe(false);
  });

  it("a script the run executed is reported as ran, a file a command read as named (issue 22 item 5)", async () => {
    await writeFile(path.join(skillDir, "scripts", "count.sh"), 'echo "counted $1"\n');
    const events: RunnerEvent[] = [];
    const scenario = parseScenario(
      `name: pdf-run
turns:
  - tool_calls:
      - { name: load_skill, input: { name: pdf } }
  - tool_calls:
      - { name: run_command, input: { command: "sh {{skill_dir:pdf}}/scripts/count.sh in.pdf && cat {{skill_dir:pdf}}/forms.md" } }
  - text: done
`,
      "inline.yaml",
    );
    const deps = workspace.runnerDependencies({
      processes,
      provider: new ScriptedProvider(scenario),
      permission: { evaluate: () => ({ decision: "allow", source: "mode", category: "exec" }), ask: never },
      onEvent: (event) => events.push(event),
    });
    expect((await new Runner(deps).run("count")).reason).toBe("completed");
    const result = events.find(
      (event) => event.type === "tool_result" && event.result.tool === "run_command",
    );
    expect(result?.type === "tool_result" && result.result.content).toContain("counted in.pdf");
    const used = events.flatMap((event) => (event.type === "skill_resource_used" ? [event] : []));
    expect(used.map(({ skill, path, how, tool }) => ({ skill, path, how, tool }))).toEqual([
      { skill: "pdf", path: "scripts/count.sh", how: "ran", tool: "run_command" },
      { skill: "pdf", path: "forms.md", how: "named", tool: "run_command" },
    ]);
    // After the call's result, with its id.
    const resultAt = events.indexOf(result!);
    expect(events.indexOf(used[0]!)).toBeGreaterThan(resultAt);
    expect(used[0]!.callId).toBe(result?.type === "tool_result" ? result.callId : "");
  });

  it("a skill that is not loaded stays unreadable, even when another one is", async () => {
    const other = path.join(home, ".PseudoClaude", "skills", "other");
    await mkdir(other, { recursive: true });
    await writeFile(path.join(other, "SKILL.md"), "---\nname: other\ndescription: d\n---\nbody\n");
    await writeFile(path.join(other, "notes.md"), "private\n");
    await workspace.reloadCatalog();
    await workspace.loadSkill("pdf");
    const refused = await call("read_file", { path: path.join(other, "notes.md") });
    expect(refused.result).toMatchObject({ ok: false, errorType: "path_refused" });
  });
});
