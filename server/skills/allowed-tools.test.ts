// allowed-tools as clients write it: split into entries and mapped onto this playground's tools.
import { describe, expect, it } from "vitest";
import { mapAllowedTool, splitAllowedTools } from "./allowed-tools.ts";

describe("splitAllowedTools", () => {
  it("splits the spec's space-separated string, keeping a pattern's spaces and colons in one entry", () => {
    expect(splitAllowedTools("Read Write Edit Bash")).toEqual(["Read", "Write", "Edit", "Bash"]);
    expect(splitAllowedTools("Bash(git add:*) Bash(git commit:*),Read")).toEqual([
      "Bash(git add:*)",
      "Bash(git commit:*)",
      "Read",
    ]);
  });

  it("reads a YAML list too, drops duplicates and non-strings", () => {
    expect(splitAllowedTools(["Read", "Grep, Glob", "Read", 7, "Bash(npm run build)"])).toEqual([
      "Read",
      "Grep",
      "Glob",
      "Bash(npm run build)",
    ]);
    expect(splitAllowedTools({ Read: true })).toEqual([]);
    expect(splitAllowedTools(undefined)).toEqual([]);
  });
});

describe("mapAllowedTool", () => {
  it("maps Claude Code's names, carrying a pattern over as a rule of this playground", () => {
    expect(mapAllowedTool("Read")).toMatchObject({ tool: "read_file", rule: "read_file" });
    expect(mapAllowedTool("Write")).toMatchObject({ tool: "write_file", rule: "write_file" });
    expect(mapAllowedTool("Edit")).toMatchObject({ tool: "edit_file" });
    expect(mapAllowedTool("Grep")).toMatchObject({ tool: "search_code" });
    expect(mapAllowedTool("Glob")).toMatchObject({ tool: "list_files" });
    expect(mapAllowedTool("Bash(git:*)")).toMatchObject({ tool: "run_command", rule: "run_command(git:*)" });
    expect(mapAllowedTool("Read(docs/**)")).toMatchObject({ rule: "read_file(docs/**)" });
  });

  it("says when a Claude Code tool has no equivalent here, without calling it unknown", () => {
    const web = mapAllowedTool("WebFetch(domain:example.com)");
    expect(web.tool).toBeUndefined();
    expect(web.rule).toBeUndefined();
    expect(web.note).toBe(
      "Claude Code's WebFetch; this playground has no web tool (its sandbox has no network by default)",
    );
    expect(web.unknown).toBeUndefined();
  });

  it("keeps this playground's own names, MCP names and the skill's own tools; anything else is unknown", () => {
    expect(mapAllowedTool("run_command(npm test)")).toMatchObject({
      tool: "run_command",
      rule: "run_command(npm test)",
    });
    expect(mapAllowedTool("mcp__files__read_text")).toMatchObject({ rule: "mcp__files__read_text" });
    expect(mapAllowedTool("mcp__files")).toMatchObject({ rule: "mcp__files__*" });
    expect(mapAllowedTool("profile_csv", new Set(["profile_csv"]))).toMatchObject({ rule: "profile_csv" });
    expect(mapAllowedTool("Teleport")).toMatchObject({
      unknown: true,
      note: expect.stringMatching(/nothing here knows/),
    });
    expect(mapAllowedTool("Bash(unclosed")).toMatchObject({ unknown: true });
  });
});
