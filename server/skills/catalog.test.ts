import { mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUILTIN_SKILLS_DIR, Catalog, defaultLayers } from "./catalog.ts";
import {
  makeTempLayers,
  simpleSkill,
  skillMarkdown,
  writeSkill,
  type TempLayers,
} from "./testing/skill-fixtures.ts";

let temp: TempLayers;

beforeEach(async () => {
  temp = await makeTempLayers();
});

afterEach(async () => {
  await temp.cleanup();
});

const nodeTool = (name: string) => ({ name, description: `${name} tool`, command: ["node", "tool.mjs"] });

describe("Catalog layers", () => {
  it("project > user > builtin, recording every shadowed candidate against the final winner", async () => {
    await writeSkill(temp.layers.builtin, "review", simpleSkill("review", "builtin review"));
    await writeSkill(temp.layers.user, "review", simpleSkill("review", "user review"));
    await writeSkill(temp.layers.project, "review", simpleSkill("review", "project review"));
    await writeSkill(temp.layers.builtin, "commit", simpleSkill("commit", "builtin commit"));
    await writeSkill(temp.layers.user, "commit", simpleSkill("commit", "user commit"));

    const catalog = await Catalog.create(temp.layers);
    expect(catalog.get("review")?.source).toBe("project");
    expect(catalog.get("review")?.meta.description).toBe("project review");
    expect(catalog.get("commit")?.source).toBe("user");

    const shadowed = catalog.shadowed();
    const reviewLosers = shadowed.filter((entry) => entry.name === "review");
    expect(reviewLosers.map((entry) => entry.loser.source)).toEqual(["builtin", "user"]);
    for (const entry of reviewLosers)
      expect(entry.winner).toEqual({ source: "project", path: catalog.get("review")?.entryPath });
    expect(
      shadowed
        .filter((entry) => entry.name === "commit")
        .map((entry) => [entry.winner.source, entry.loser.source]),
    ).toEqual([["user", "builtin"]]);
  });

  it("promptItems returns only name and description, sorted by name", async () => {
    await writeSkill(temp.layers.builtin, "zeta", simpleSkill("zeta"));
    await writeSkill(temp.layers.project, "alpha", simpleSkill("alpha"));
    await writeSkill(temp.layers.user, "mid", simpleSkill("mid"));
    const catalog = await Catalog.create(temp.layers);
    expect(catalog.promptItems()).toEqual([
      { name: "alpha", description: "The alpha skill." },
      { name: "mid", description: "The mid skill." },
      { name: "zeta", description: "The zeta skill." },
    ]);
  });

  it("treats missing layer folders as empty", async () => {
    const catalog = await Catalog.create({
      builtin: path.join(temp.root, "nope1"),
      user: path.join(temp.root, "nope2"),
      project: path.join(temp.root, "nope3"),
    });
    expect(catalog.list()).toEqual([]);
    expect(catalog.warnings()).toEqual([]);
  });

  it("loads loose *.md skills directly in a skills folder, skipping README.md", async () => {
    await writeFile(
      path.join(temp.layers.user, "quick-note.md"),
      simpleSkill("quick-note", "Jot down a quick note. Use when the user asks to remember something."),
    );
    await writeFile(path.join(temp.layers.user, "README.md"), "# My skills\n");
    const catalog = await Catalog.create(temp.layers);
    const skill = catalog.get("quick-note");
    expect(skill?.rootDir).toBe(temp.layers.user);
    expect(skill?.tools).toEqual([]);
    expect(catalog.warnings()).toEqual([]);
    expect(catalog.lint()).toEqual([]);
  });
});

describe("bad-skill isolation", () => {
  it("one warning per bad skill; the rest loads", async () => {
    await writeSkill(temp.layers.builtin, "good", simpleSkill("good"));
    await writeSkill(temp.layers.builtin, "no-frontmatter", "# nothing here\n");
    await writeSkill(temp.layers.user, "bad-yaml", "---\nname: bad-yaml\ndescription: [oops\n---\nbody\n");
    await writeSkill(temp.layers.project, "empty-body", "---\nname: empty-body\ndescription: d\n---\n\n");
    await writeSkill(temp.layers.project, "bad-tools", simpleSkill("bad-tools"), "{ not json");
    await writeSkill(temp.layers.project, "escaping", simpleSkill("escaping"), {
      tools: [{ name: "x", description: "d", command: ["../../../bin/sh"] }],
    });

    const catalog = await Catalog.create(temp.layers);
    expect(catalog.names()).toEqual(["good"]);
    const warnings = catalog.warnings();
    expect(warnings).toHaveLength(5);
    const byPath = (fragment: string) => warnings.filter((warning) => warning.path.includes(fragment));
    expect(byPath("no-frontmatter")[0]).toMatchObject({
      source: "builtin",
      reason: expect.stringMatching(/frontmatter/),
    });
    expect(byPath("bad-yaml")[0]).toMatchObject({ source: "user", line: 3 });
    expect(byPath("empty-body")[0]).toMatchObject({
      source: "project",
      reason: expect.stringMatching(/body/),
    });
    expect(byPath("bad-tools")[0]).toMatchObject({
      skill: "bad-tools",
      path: expect.stringMatching(/tools\.json$/),
    });
    expect(byPath("escaping")[0].reason).toMatch(/outside the skill folder/);
  });

  it("a duplicate name inside one layer is a warning, the first one (by folder order) stays", async () => {
    await writeSkill(temp.layers.builtin, "aaa", simpleSkill("same"));
    await writeSkill(temp.layers.builtin, "bbb", simpleSkill("same", "second"));
    const catalog = await Catalog.create(temp.layers);
    expect(catalog.get("same")?.rootDir).toBe(path.join(temp.layers.builtin, "aaa"));
    expect(catalog.warnings()).toHaveLength(1);
    expect(catalog.warnings()[0].reason).toMatch(/duplicate/);
  });
});

describe("tools.json and dependency validation", () => {
  it("recognises tools.json tools, with their schema and command", async () => {
    const tool = {
      ...nodeTool("profile_csv"),
      input_schema: { type: "object", properties: { path: { type: "string" } } },
      timeout_ms: 5000,
    };
    await writeSkill(temp.layers.builtin, "csv", simpleSkill("csv"), { tools: [tool] });
    const catalog = await Catalog.create(temp.layers);
    expect(catalog.get("csv")?.tools).toEqual([tool]);
    expect(catalog.snapshot().skills[0]).toMatchObject({ toolNames: ["profile_csv"], toolSpecs: [tool] });
  });

  it("removes skills with missing tools, records the missing names, counts own tools as present", async () => {
    await writeSkill(
      temp.layers.builtin,
      "fine",
      skillMarkdown({ name: "fine", description: "d", tools: "[read_file]" }),
    );
    await writeSkill(
      temp.layers.builtin,
      "broken",
      skillMarkdown({ name: "broken", description: "d", tools: "[read_file, teleport, warp]" }),
    );
    await writeSkill(
      temp.layers.user,
      "own",
      skillMarkdown({ name: "own", description: "d", tools: "[count_todos]" }),
      {
        tools: [nodeTool("count_todos")],
      },
    );
    await writeSkill(
      temp.layers.project,
      "allowed",
      skillMarkdown({ name: "allowed", description: "d", "allowed-tools": "Bash(git:*)" }),
    );
    const catalog = await Catalog.create(temp.layers);
    const known = new Set(["read_file", "load_skill"]);
    const removed = catalog.validateTools((name) => known.has(name));
    // allowed-tools is pre-approval, never a dependency: `allowed` stays although no Bash tool exists.
    expect(removed).toEqual([
      {
        name: "broken",
        source: "builtin",
        path: path.join(temp.layers.builtin, "broken", "SKILL.md"),
        missing: ["teleport", "warp"],
      },
    ]);
    expect(catalog.names()).toEqual(["allowed", "fine", "own"]);
    expect(catalog.snapshot().removed).toHaveLength(1);
    // The predicate is remembered: a reload still removes the broken skill.
    await catalog.reload();
    expect(catalog.names()).toEqual(["allowed", "fine", "own"]);
  });

  it("a `tools` entry in Claude Code's vocabulary counts as present when its equivalent here is registered", async () => {
    // Published skills write Claude Code's subagent key `tools: Read, Write, Edit, Bash, Grep, Glob` in a
    // SKILL.md: those tools exist here as read_file, write_file, … so the dependency holds. A name with no
    // equivalent (WebFetch), or whose equivalent is not registered, still removes the skill.
    await writeSkill(
      temp.layers.project,
      "ported",
      skillMarkdown({
        name: "ported",
        description: "d",
        tools: "Read, Write, Edit, Bash(npm:*), Glob",
      }),
    );
    await writeSkill(
      temp.layers.project,
      "fetcher",
      skillMarkdown({ name: "fetcher", description: "d", tools: "Read WebFetch" }),
    );
    await writeSkill(
      temp.layers.user,
      "searcher",
      skillMarkdown({ name: "searcher", description: "d", tools: "[Grep]" }),
    );
    const catalog = await Catalog.create(temp.layers);
    const known = new Set([
      "read_file",
      "write_file",
      "edit_file",
      "run_command",
      "list_files",
      "load_skill",
    ]);
    const removed = catalog.validateTools((name) => known.has(name));
    expect(removed.map((skill) => [skill.name, skill.missing])).toEqual([
      ["fetcher", ["WebFetch"]],
      ["searcher", ["Grep"]],
    ]);
    expect(catalog.names()).toEqual(["ported"]);
  });
});

describe("lint", () => {
  it("flags Agent Skills rule breaks without removing the skill", async () => {
    await writeSkill(temp.layers.builtin, "folder-name", simpleSkill("Other_Name"));
    await writeSkill(
      temp.layers.builtin,
      "long",
      simpleSkill("long", "x".repeat(1025), "line\n".repeat(501)),
    );
    await writeSkill(temp.layers.builtin, "bad--dash", simpleSkill("bad--dash"));
    const catalog = await Catalog.create(temp.layers);
    expect(catalog.names()).toEqual(["Other_Name", "bad--dash", "long"]);
    const rules = catalog
      .lint()
      .filter((note) => note.profile === "agent-skills")
      .map((note) => `${note.skill}:${note.rule}`);
    expect(rules).toEqual(
      expect.arrayContaining([
        "Other_Name:name-format",
        "Other_Name:name-matches-folder",
        "bad--dash:name-format",
        "long:description-length",
        "long:body-length",
      ]),
    );
    expect(rules).toHaveLength(5);
  });
});

describe("reload", () => {
  it("returns added, removed and updated (content, tools.json, or the winning path)", async () => {
    await writeSkill(temp.layers.builtin, "stays", simpleSkill("stays"));
    await writeSkill(temp.layers.builtin, "goes", simpleSkill("goes"));
    await writeSkill(temp.layers.builtin, "edited", simpleSkill("edited"));
    await writeSkill(temp.layers.builtin, "tooled", simpleSkill("tooled"), { tools: [nodeTool("one")] });
    await writeSkill(temp.layers.builtin, "overridden", simpleSkill("overridden"));
    const catalog = await Catalog.create(temp.layers);

    await rm(path.join(temp.layers.builtin, "goes"), { recursive: true });
    await writeSkill(temp.layers.builtin, "edited", simpleSkill("edited", "new description"));
    await writeSkill(temp.layers.builtin, "tooled", simpleSkill("tooled"), {
      tools: [nodeTool("one"), nodeTool("two")],
    });
    await writeSkill(temp.layers.project, "overridden", simpleSkill("overridden"));
    await writeSkill(temp.layers.user, "fresh", simpleSkill("fresh"));

    const diff = await catalog.reload();
    expect(diff).toEqual({
      added: ["fresh"],
      removed: ["goes"],
      updated: ["edited", "overridden", "tooled"],
    });
    expect(catalog.get("tooled")?.tools.map((tool) => tool.name)).toEqual(["one", "two"]);
    expect(await catalog.reload()).toEqual({ added: [], removed: [], updated: [] });
  });
});

describe("reloadSkillBody", () => {
  it("picks up an edit made after load and returns null when the file is gone", async () => {
    const dir = await writeSkill(temp.layers.builtin, "live", simpleSkill("live", "d", "Original body."));
    const catalog = await Catalog.create(temp.layers);
    await writeFile(path.join(dir, "SKILL.md"), simpleSkill("live", "d", "Edited body."));
    expect(await catalog.reloadSkillBody("live")).toBe("Edited body.");
    // The catalog's own snapshot is unchanged until reload().
    expect(catalog.get("live")?.body).toBe("Original body.");
    await rm(path.join(dir, "SKILL.md"));
    expect(await catalog.reloadSkillBody("live")).toBeNull();
    expect(await catalog.reloadSkillBody("absent")).toBeNull();
  });
});

describe("snapshot and defaults", () => {
  it("includes raw SKILL.md text, meta and warnings", async () => {
    const text = skillMarkdown({ name: "snap", description: "d", license: "MIT", mode: "isolated" });
    await writeSkill(temp.layers.project, "snap", text);
    const catalog = await Catalog.create(temp.layers);
    const [view] = catalog.snapshot().skills;
    expect(view).toMatchObject({
      name: "snap",
      source: "project",
      raw: text,
      meta: { mode: "isolated", extra: { license: "MIT" } },
    });
    expect(await readFile(view.entryPath, "utf8")).toBe(text);
  });

  it("defaultLayers points at the repo skills folder, $HOME and the workdir", () => {
    const layers = defaultLayers("/tmp/some-workdir", "/tmp/some-home");
    expect(layers).toEqual({
      builtin: BUILTIN_SKILLS_DIR,
      user: "/tmp/some-home/.PseudoClaude/skills",
      project: "/tmp/some-workdir/.PseudoClaude/skills",
    });
    expect(BUILTIN_SKILLS_DIR.endsWith(`${path.sep}skills${path.sep}`)).toBe(true);
  });

  it("follows a symlinked skill folder", async () => {
    const real = await writeSkill(path.join(temp.root, "elsewhere"), "linked", simpleSkill("linked"));
    await mkdir(temp.layers.user, { recursive: true });
    await symlink(real, path.join(temp.layers.user, "linked"));
    const catalog = await Catalog.create(temp.layers);
    expect(catalog.get("linked")?.source).toBe("user");
  });
});

describe("concurrent reloads", () => {
  it("run one after another, so each change is reported exactly once", async () => {
    await writeSkill(temp.layers.builtin, "base", simpleSkill("base"));
    const catalog = await Catalog.create(temp.layers);
    await writeSkill(temp.layers.user, "extra", simpleSkill("extra"));
    const diffs = await Promise.all([catalog.reload(), catalog.reload(), catalog.reload()]);
    expect(diffs.flatMap((diff) => diff.added)).toEqual(["extra"]);
    expect(diffs.flatMap((diff) => [...diff.removed, ...diff.updated])).toEqual([]);
  });
});
