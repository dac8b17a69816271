import { describe, expect, it } from "vitest";
import { skill } from "../state/test-builders.ts";
import { displayPath } from "./catalog-panel.tsx";
import { slashCompletions } from "./composer.tsx";
import { shortPath } from "./header.tsx";
import { buildInput } from "./schema-form.tsx";

describe("buildInput", () => {
  const properties = [
    { name: "path", schema: { type: "string" }, required: true },
    { name: "rows", schema: { type: "integer" }, required: false },
    { name: "deep", schema: { type: "boolean" }, required: false },
    { name: "filter", schema: { type: "object" }, required: false },
  ];

  it("converts field strings to the schema's types and skips empty optional fields", () => {
    expect(
      buildInput(properties, { path: "data/sales.csv", rows: "2", deep: "true", filter: '{"a":1}' }),
    ).toEqual({
      input: { path: "data/sales.csv", rows: 2, deep: true, filter: { a: 1 } },
    });
    expect(buildInput(properties, { path: "x" })).toEqual({ input: { path: "x", deep: false } });
  });

  it("names the field that is missing or malformed", () => {
    expect(buildInput(properties, {}).error).toBe('"path" is required');
    expect(buildInput(properties, { path: "x", rows: "many" }).error).toBe('"rows" must be a number');
    expect(buildInput(properties, { path: "x", filter: "{" }).error).toMatch(/"filter" is not valid JSON/);
  });
});

describe("slashCompletions", () => {
  const skills = [skill("csv-report"), skill("changelog"), skill("review")];
  it("completes skill names after a leading slash only", () => {
    expect(slashCompletions("/c", skills).map((item) => item.name)).toEqual(["csv-report", "changelog"]);
    expect(slashCompletions("/", skills)).toHaveLength(3);
    expect(slashCompletions("/csv-report data.csv", skills)).toEqual([]);
    expect(slashCompletions("hello /c", skills)).toEqual([]);
  });

  it("leaves out a skill with user-invocable: false, keeps one disabled for the model", () => {
    const hidden = { ...skill("background"), invocation: { model: true, user: false } };
    const userOnly = { ...skill("deploy"), invocation: { model: false, user: true } };
    expect(slashCompletions("/", [...skills, hidden, userOnly]).map((item) => item.name)).toEqual([
      "csv-report",
      "changelog",
      "review",
      "deploy",
    ]);
  });
});

describe("displayPath", () => {
  it("shortens paths inside the workdir, separator-aware", () => {
    expect(displayPath("/w/proj/.PseudoClaude/skills/a/SKILL.md", "/w/proj")).toBe(
      "<workdir>/.PseudoClaude/skills/a/SKILL.md",
    );
    expect(displayPath("/w/proj-evil/SKILL.md", "/w/proj")).toBe("/w/proj-evil/SKILL.md");
    expect(displayPath("/repo/skills/review/SKILL.md", undefined)).toBe("/repo/skills/review/SKILL.md");
  });
});

describe("truncationNotes", () => {
  it("turns the runner's truncation flags into readable notes", async () => {
    const { truncationNotes } = await import("./tool-console.tsx");
    expect(
      truncationNotes({
        stdoutTruncated: true,
        stdoutBytes: 2_000_000,
        stderrTruncated: false,
        modelTruncated: true,
        omittedChars: 51_000,
      }),
    ).toEqual(["stdout truncated (2000000 bytes produced)", "model's copy capped (51000 chars omitted)"]);
    expect(truncationNotes({ exitCode: 0 })).toEqual([]);
    expect(truncationNotes(undefined)).toEqual([]);
  });
});

describe("shortPath", () => {
  it("keeps the last two folders of a long path and short paths whole", () => {
    expect(shortPath("/home/ada/projects/acme-orders")).toBe("…/projects/acme-orders");
    expect(shortPath("/srv/app")).toBe("/srv/app");
    expect(shortPath("/")).toBe("/");
  });
});
