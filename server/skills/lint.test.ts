// Lint profiles on real skill folders (fixtures written here): every note names its rule set, and the
// catalog's profile decides which error notes refuse a skill.
import { describe, expect, it } from "vitest";
import { Catalog } from "./catalog.ts";
import { tempLayersPerTest, WHEN_TO_USE, writeSkill } from "./testing/skill-fixtures.ts";
import type { LintNote } from "./types.ts";

const layers = tempLayersPerTest();
const WHEN = WHEN_TO_USE;

function notesOf(catalog: Catalog, skill: string): string[] {
  return catalog
    .lint()
    .filter((note) => note.skill === skill)
    .map((note) => `${note.profile}:${note.level}:${note.rule}`);
}

describe("Agent Skills profile", () => {
  it("checks the six keys: name form and folder, description, compatibility, metadata, allowed-tools", async () => {
    await writeSkill(
      layers.current.layers.builtin,
      "spec-breaker",
      [
        "---",
        "name: Spec_Breaker",
        `description: Breaks the spec on purpose. ${WHEN}`,
        `compatibility: ${"x".repeat(501)}`,
        "metadata:",
        "  owner: team",
        "  version: 2",
        "allowed-tools: [Read, Grep]",
        "---",
        "body",
        "",
      ].join("\n"),
    );
    const catalog = await Catalog.create(layers.current.layers);
    expect(notesOf(catalog, "Spec_Breaker").sort()).toEqual([
      "agent-skills:error:compatibility",
      "agent-skills:error:metadata",
      "agent-skills:error:name-format",
      "agent-skills:error:name-matches-folder",
      "agent-skills:warning:allowed-tools-format",
    ]);
    const metadata = catalog.lint().find((note) => note.rule === "metadata")!;
    expect(metadata.line).toBe(5);
    // Lenient (the default) warns and loads.
    expect(catalog.names()).toEqual(["Spec_Breaker"]);
  });

  it("accepts Unicode lowercase names after NFKC, equal to their folder", async () => {
    await writeSkill(
      layers.current.layers.builtin,
      "données-csv",
      `---\nname: données-csv\ndescription: ${WHEN}\n---\nbody\n`,
    );
    // U+FB01 (the ﬁ ligature) normalises to "fi" under NFKC.
    await writeSkill(
      layers.current.layers.builtin,
      "file-tool",
      `---\nname: ﬁle-tool\ndescription: ${WHEN}\n---\nbody\n`,
    );
    await writeSkill(
      layers.current.layers.builtin,
      "shouty",
      `---\nname: Shouty\ndescription: ${WHEN}\n---\nbody\n`,
    );
    const catalog = await Catalog.create(layers.current.layers);
    expect(notesOf(catalog, "données-csv")).toEqual([]);
    expect(notesOf(catalog, "ﬁle-tool")).toEqual([]);
    expect(notesOf(catalog, "Shouty")).toEqual([
      "agent-skills:error:name-format",
      "agent-skills:error:name-matches-folder",
    ]);
  });
});

describe("Claude Code profile", () => {
  it("flags a reserved word in the name and XML tags in name or description; its extra keys are fine", async () => {
    await writeSkill(
      layers.current.layers.builtin,
      "claude-helper",
      [
        "---",
        "name: claude-helper",
        "description: Summarise <example>text</example>. Use when asked.",
        "argument-hint: [file]",
        "disable-model-invocation: false",
        "context: fork",
        "---",
        "body",
      ].join("\n"),
    );
    const catalog = await Catalog.create(layers.current.layers);
    expect(notesOf(catalog, "claude-helper").sort()).toEqual([
      "claude-code:error:name-reserved-word",
      "claude-code:error:xml-tag",
    ]);
  });
});

describe("playground advice", () => {
  it("notes YAML traps, a description with no sign of when, unknown allowed-tools and keys nobody reads", async () => {
    await writeSkill(
      layers.current.layers.builtin,
      "traps",
      [
        "---",
        "name: traps",
        "description: Converts C# projects # and VB ones --- carefully",
        "allowed-tools: Read Teleport WebFetch",
        "allowed_tools: Read",
        "---",
        "body",
      ].join("\n"),
    );
    const catalog = await Catalog.create(layers.current.layers);
    expect(notesOf(catalog, "traps").sort()).toEqual([
      "playground:warning:allowed-tools-unknown",
      "playground:warning:description-no-when",
      "playground:warning:unknown-key",
      "playground:warning:yaml-comment-in-value",
    ]);
    const byRule = (rule: string) => catalog.lint().find((note) => note.rule === rule)!;
    expect(byRule("allowed-tools-unknown").message).toContain("Teleport");
    expect(byRule("allowed-tools-unknown").message).not.toContain("WebFetch");
    expect(byRule("unknown-key").message).toContain('did you mean "allowed-tools"?');
    expect(byRule("yaml-comment-in-value").line).toBe(3);

    await writeSkill(
      layers.current.layers.builtin,
      "dashes",
      `---\nname: dashes\ndescription: "Splits a --- b. ${WHEN}"\n---\nbody\n`,
    );
    await catalog.reload();
    expect(notesOf(catalog, "dashes")).toEqual(["playground:warning:yaml-dashes-in-value"]);
  });

  it("names both skills of a strongly overlapping pair, once, and only among the offered winners", async () => {
    const text = "Summarise quarterly sales spreadsheets into revenue charts and regional totals";
    await writeSkill(
      layers.current.layers.builtin,
      "sales-summary",
      `---\nname: sales-summary\ndescription: ${text}. ${WHEN}\n---\nbody\n`,
    );
    await writeSkill(
      layers.current.layers.builtin,
      "sales-report",
      `---\nname: sales-report\ndescription: ${text} for managers. ${WHEN}\n---\nbody\n`,
    );
    await writeSkill(
      layers.current.layers.builtin,
      "commit",
      `---\nname: commit\ndescription: Write a conventional commit message from the staged diff. ${WHEN}\n---\nbody\n`,
    );
    const catalog = await Catalog.create(layers.current.layers);
    const overlaps = catalog.lint().filter((note) => note.rule === "description-overlap");
    expect(overlaps).toHaveLength(1);
    expect(overlaps[0]).toMatchObject({ skill: "sales-report", profile: "playground" });
    expect(overlaps[0]!.message).toContain('"sales-summary"');
  });

  it("reads no file names in fenced or inline code, except an explicit ${SKILL_DIR}/ path", async () => {
    await writeSkill(
      layers.current.layers.builtin,
      "code-heavy",
      [
        "---",
        "name: code-heavy",
        `description: Explains regexes. ${WHEN}`,
        "---",
        "Match with `^report-\\d+\\.csv$`, group with `[0-9](\\d+)` and write `[Cu(NH3)4](OH)2` as is.",
        "",
        "```sh",
        "cat notes/missing-in-fence.md ${HOME}/x",
        "```",
        "",
        "Run `node ${SKILL_DIR}/scripts/absent.mjs` to start; see [the guide](guide.md).",
        "",
      ].join("\n"),
    );
    const catalog = await Catalog.create(layers.current.layers);
    const notes = catalog.lint().filter((note) => note.skill === "code-heavy");
    expect(notes.map((note) => `${note.rule}:${note.line}:${note.message.split(",")[0]}`).sort()).toEqual([
      "resource-missing:11:names guide.md",
      "resource-missing:11:names scripts/absent.mjs",
    ]);
  });
});

describe("the catalog's profile", () => {
  async function mixedCatalog(profile?: "lenient" | "agent-skills" | "claude-code") {
    await writeSkill(
      layers.current.layers.builtin,
      "claude-notes",
      `---\nname: claude-notes\ndescription: ${WHEN}\n---\nbody\n`,
    );
    await writeSkill(
      layers.current.layers.builtin,
      "Wrong_Folder",
      `---\nname: right-name\ndescription: ${WHEN}\n---\nbody\n`,
    );
    await writeSkill(
      layers.current.layers.builtin,
      "fine",
      `---\nname: fine\ndescription: ${WHEN}\n---\nbody\n`,
    );
    return Catalog.create(layers.current.layers, profile ? { profile } : {});
  }

  it("lenient refuses nothing; agent-skills and claude-code each refuse what breaks their own errors", async () => {
    const catalog = await mixedCatalog();
    expect(catalog.profile).toBe("lenient");
    expect(catalog.names()).toEqual(["claude-notes", "fine", "right-name"]);
    catalog.setProfile("agent-skills");
    expect(catalog.names()).toEqual(["claude-notes", "fine"]);
    catalog.setProfile("claude-code");
    expect(catalog.names()).toEqual(["fine", "right-name"]);
    const refused = catalog.notOffered().filter((entry) => entry.kind === "refused");
    expect(refused).toEqual([
      expect.objectContaining({
        name: "claude-notes",
        reason: expect.stringMatching(/^refused by the claude-code lint profile: name contains "claude"/),
      }),
    ]);
    // Notes are the same whatever the profile: only what refuses changes.
    const all: LintNote[] = catalog.lint();
    expect(all.every((note) => note.profile !== undefined && note.level !== undefined)).toBe(true);
  });

  it("is kept by a reload", async () => {
    const catalog = await mixedCatalog("agent-skills");
    await catalog.reload();
    expect(catalog.names()).toEqual(["claude-notes", "fine"]);
    expect(catalog.snapshot().profile).toBe("agent-skills");
  });
});
