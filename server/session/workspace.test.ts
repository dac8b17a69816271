import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEMO_COPY_PREFIX } from "../shared/demo-copy.ts";
import { createWorkspace } from "./workspace.ts";

let root: string;
async function skill(folder: string, name: string, extra = "", body = `${name} body`) {
  await mkdir(path.join(folder, name), { recursive: true });
  await writeFile(
    path.join(folder, name, "SKILL.md"),
    `---\nname: ${name}\ndescription: The ${name} skill.\n${extra}---\n\n${body}\n`,
  );
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), "workspace-test-")));
  await skill(path.join(root, "builtin"), "review", "", "builtin review body");
  await skill(path.join(root, "builtin"), "needs-magic", "tools: [magic_wand]\n");
  await skill(path.join(root, "builtin"), "reads", "tools: [read_file]\n");
  await skill(path.join(root, "home", ".PseudoClaude", "skills"), "mine");
  await skill(path.join(root, "work", ".PseudoClaude", "skills"), "review", "", "project review body");
  await symlink(path.join(root, "work"), path.join(root, "work-link"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("createWorkspace", () => {
  it("wires the three layers, system tools, load_skill and dependency validation", async () => {
    const workspace = await createWorkspace({
      workdir: path.join(root, "work-link"),
      home: path.join(root, "home"),
      builtinDir: path.join(root, "builtin"),
    });
    expect(workspace.workdir).toBe(path.join(root, "work"));
    expect(workspace.catalog.names()).toEqual(["mine", "reads", "review"]);
    expect(workspace.catalog.get("review")?.source).toBe("project");
    expect(workspace.removed).toEqual([
      expect.objectContaining({ name: "needs-magic", missing: ["magic_wand"] }),
    ]);
    expect(workspace.registry.names()).toEqual(
      expect.arrayContaining([
        "read_file",
        "list_files",
        "search_code",
        "write_file",
        "edit_file",
        "run_command",
        "load_skill",
      ]),
    );
    expect(workspace.registry.isProtected("load_skill")).toBe(true);

    expect(workspace.prompt.activeSkills()).toEqual([]);
    const result = await workspace.loadSkill("review", "src");
    expect(result).toMatchObject({
      ok: true,
      content: 'loaded skill "review" (0 specialized tools registered)',
    });
    // The SOP ends with where the skill lives (level 3: its base directory; this one ships no other file).
    expect(workspace.prompt.activeSkills()).toEqual([
      {
        name: "review",
        source: "project",
        body: `project review body\n\nArguments: src\n\nSkill base directory: ${path.join(root, "work", ".PseudoClaude", "skills", "review")}`,
      },
    ]);
    expect(workspace.prompt.environmentFacts().cwd).toBe(path.join(root, "work"));
    expect(workspace.prompt.eagerBodies().map((entry) => entry.name)).toEqual(["mine", "reads", "review"]);
  });

  it("drops active skills that a reload removed", async () => {
    const workspace = await createWorkspace({
      workdir: path.join(root, "work"),
      home: path.join(root, "home"),
      builtinDir: path.join(root, "builtin"),
    });
    await workspace.loadSkill("mine");
    await rm(path.join(root, "home", ".PseudoClaude", "skills", "mine"), { recursive: true });
    expect(await workspace.reloadCatalog()).toMatchObject({ removed: ["mine"] });
    expect(workspace.activeSkills.names()).toEqual([]);
  });

  it("names a missing workdir", async () => {
    await expect(createWorkspace({ workdir: path.join(root, "nope") })).rejects.toThrow(
      /working directory .*nope does not exist/,
    );
  });

  it("says a missing demo copy was removed when its server stopped, and what to do", async () => {
    // `npm start` without --workdir works on a temp copy of the demo and removes it on exit: a session of
    // an earlier start reopened after a restart finds it gone.
    const gone = await mkdtemp(path.join(os.tmpdir(), DEMO_COPY_PREFIX));
    await rm(gone, { recursive: true });
    await expect(createWorkspace({ workdir: gone })).rejects.toThrow(
      /the demo copy of an earlier start, removed when that server stopped.*New session/,
    );
  });
});
