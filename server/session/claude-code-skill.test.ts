// A skill written the way Claude Code skills are published (allowed-tools in Claude Code's names,
// when_to_use, argument-hint, license, metadata, `###` headings and `---` rules in the body, code that
// looks like file names) goes the whole way: installs from a zip, lists, loads, reads its own files,
// and its allowed-tools pre-approve calls only when the session honours them. Fixture written here.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PermissionEngine } from "../permission/engine.ts";
import { buildEnvironmentSections } from "../prompt/environment.ts";
import { installSkill } from "../skills/install-source.ts";
import { GIT_DIGEST_SKILL_MD, writeGitDigestSkill } from "../skills/testing/claude-code-skill.ts";
import { zipFolder } from "../skills/testing/zip-fixtures.ts";
import { SANDBOX_ON, commandCheck } from "../permission/testing/checks.ts";
import { skillAllowRules } from "./skill-allows.ts";
import { createWorkspace } from "./workspace.ts";
import { ProcessRunner } from "../tools/process-runner.ts";

/** This file's own process runner (the composition root a test is). */
const processes = new ProcessRunner();

let root: string;
let home: string;
let workdir: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "cc-skill-"));
  home = path.join(root, "home");
  workdir = path.join(root, "work");
  await mkdir(home);
  await mkdir(workdir);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("a Claude Code skill with allowed-tools", () => {
  it("installs from a zip, lists, loads and reads its own files; allowed-tools is never a dependency", async () => {
    const zip = await zipFolder(await writeGitDigestSkill(path.join(root, "src")), "git-digest");
    const installed = await installSkill(
      { kind: "bytes", name: "git-digest.zip", data: zip },
      { layer: "user", home, workdir },
    );
    expect(installed).toMatchObject({ ok: true, installed: true, plan: { name: "git-digest" } });

    const workspace = await createWorkspace({ workdir, home });
    try {
      // Listed: not removed for Read/Grep/Glob/Bash/WebFetch, which are not tools of this playground.
      expect(workspace.catalog.names()).toContain("git-digest");
      expect(workspace.catalog.removed()).toEqual([]);
      expect(workspace.catalog.notOffered()).toEqual([]);
      const item = workspace.catalog.promptItems().find((entry) => entry.name === "git-digest");
      expect(item?.description).toContain("weekly summary of commits");
      // Its frontmatter is clean under every rule set, and the regex in code is not a "missing file".
      expect(workspace.catalog.lint().filter((note) => note.skill === "git-digest")).toEqual([]);
      const view = workspace.catalog.snapshot().skills.find((skill) => skill.name === "git-digest")!;
      expect(view.allowedTools?.map((entry) => [entry.entry, entry.tool ?? "no equivalent here"])).toEqual([
        ["Read", "read_file"],
        ["Grep", "search_code"],
        ["Glob", "list_files"],
        ["Bash(git log:*)", "run_command"],
        ["WebFetch", "no equivalent here"],
      ]);

      // Loads, with its arguments, as one delimited block whose own headings and rules stay inside.
      const loaded = await workspace.loadSkill("git-digest", "1.week");
      expect(loaded.ok, loaded.content).toBe(true);
      const active = workspace.activeSkills.get("git-digest")!;
      const baseDir = active.resources!.baseDir;
      const sections = buildEnvironmentSections({
        ...workspace.prompt.environmentFacts(),
        provider: "scripted",
        model: "scripted",
        date: "2026-12-03",
        activeSkills: workspace.prompt.activeSkills(),
      });
      expect(sections.map((section) => section.name)).toEqual(["base", "git-digest"]);
      const block = sections[1]!.text;
      expect(block.startsWith('<skill name="git-digest" source="user">\n# Git digest\n\n### Steps')).toBe(
        true,
      );
      expect(block).toContain("--since=1.week");
      expect(block).toContain(`node ${baseDir}/scripts/group.mjs`);
      expect(block.trimEnd().endsWith("</skill>")).toBe(true);

      // Reads its own files (level 3) with the read-only file tool, by the base directory it was given.
      const prepared = workspace.registry.prepare("read_file", {
        path: path.join(baseDir, "references", "format.md"),
      });
      if (!prepared.ok) throw new Error(prepared.result.content);
      const read = (
        await prepared.call.execute({
          workdir: workspace.workdir,
          processes,
          callId: "r1",
          signal: new AbortController().signal,
        })
      ).result;
      expect(read.ok, read.content).toBe(true);
      expect(read.content).toContain("One line per commit.");

      // Pre-approval: only while active and only when the session honours allowed-tools.
      const engine = new PermissionEngine({ mode: "default", rules: [], sandbox: SANDBOX_ON });
      let honour = false;
      engine.setScopedAllows(() =>
        skillAllowRules({
          honour,
          trusted: false,
          active: workspace.activeSkills.list(),
          catalog: workspace.catalog,
        }),
      );
      expect(engine.evaluate(commandCheck("git log --oneline")).decision).toBe("ask");
      honour = true;
      expect(engine.evaluate(commandCheck("git log --oneline"))).toMatchObject({
        decision: "allow",
        preApprovedBy: ["git-digest"],
      });
      expect(engine.evaluate(commandCheck("git push")).decision).toBe("ask");
      workspace.activeSkills.deactivate("git-digest");
      expect(engine.evaluate(commandCheck("git log --oneline")).decision).toBe("ask");
    } finally {
      await workspace.mcp.close();
    }
  });

  it("a project skill's allowed-tools pre-approve nothing until the folder is trusted", async () => {
    await writeGitDigestSkill(
      path.join(workdir, ".PseudoClaude", "skills"),
      GIT_DIGEST_SKILL_MD.replace("Bash(git log:*)", "Bash"),
    );
    const workspace = await createWorkspace({ workdir, home });
    try {
      expect((await workspace.loadSkill("git-digest")).ok).toBe(true);
      const input = { honour: true, active: workspace.activeSkills.list(), catalog: workspace.catalog };
      expect(skillAllowRules({ ...input, trusted: false })).toEqual([]);
      expect(skillAllowRules({ ...input, trusted: true }).map((rule) => rule.text)).toEqual([
        "allow read_file",
        "allow search_code",
        "allow list_files",
        "allow run_command",
      ]);
    } finally {
      await workspace.mcp.close();
    }
  });
});
