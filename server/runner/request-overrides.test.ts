// The override prompt source: what each kind of edit replaces, and that a skill description edit goes
// through the stable system builder (the index line is rendered again, nothing else changes).
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../protocol/model.ts";
import { buildStableSystem } from "../prompt/stable-system.ts";
import {
  overrideSections,
  overrideTools,
  overridesFromEdits,
  withRequestEdits,
} from "./request-overrides.ts";
import type { PromptSources } from "./types.ts";

const base: PromptSources = {
  promptItems: () => [
    { name: "alpha", description: "Alpha does A." },
    { name: "beta", description: "Beta does B." },
  ],
  activeSkills: () => [],
  eagerBodies: () => [],
  environmentFacts: () => ({ version: "1", cwd: "/w", platform: "linux" }),
};

const tool: ToolDefinition = {
  name: "read_file",
  description: "Reads a file.",
  inputSchema: { type: "object" },
  safety: "read_only",
  category: "read",
  origin: "system",
};

describe("withRequestEdits", () => {
  it("returns the sources themselves when there is nothing to edit", () => {
    expect(withRequestEdits(base, [])).toBe(base);
  });

  it("re-renders only the edited skill's index line", () => {
    const edited = withRequestEdits(base, [
      { kind: "skill_description", skill: "beta", description: "Beta, edited." },
    ]);
    const before = buildStableSystem({ skills: base.promptItems(), disclosure: "progressive" }).split("\n");
    const after = buildStableSystem({ skills: edited.promptItems(), disclosure: "progressive" }).split("\n");
    const changed = after.filter((line, index) => line !== before[index]);
    expect(changed).toHaveLength(1);
    expect(changed[0]).toContain("Beta, edited.");
    expect(edited.overrides?.()).toEqual({});
  });

  it("keeps the last edit of a part, merges tool edits, and replaces sections and tools by name", () => {
    const overrides = overridesFromEdits([
      { kind: "stable", text: "first" },
      { kind: "stable", text: "second" },
      { kind: "environment", section: "base", text: "# Environment\nnew\n" },
      { kind: "tool", name: "read_file", description: "Edited." },
      { kind: "tool", name: "read_file", inputSchema: { type: "object", required: ["path"] } },
    ]);
    expect(overrides.stable).toBe("second");
    expect(overrides.tools).toEqual({
      read_file: { description: "Edited.", inputSchema: { type: "object", required: ["path"] } },
    });
    const sections = overrideSections(
      [
        { name: "base", heading: "# Environment", text: "# Environment\nold\n" },
        { name: "alpha", heading: "### alpha", text: "### alpha\nbody\n" },
      ],
      overrides,
    );
    expect(sections.map((section) => section.text)).toEqual(["# Environment\nnew\n", "### alpha\nbody\n"]);
    expect(overrideTools([tool], overrides)[0]).toMatchObject({
      name: "read_file",
      description: "Edited.",
      inputSchema: { type: "object", required: ["path"] },
      safety: "read_only",
    });
    expect(overrideTools([tool], undefined)[0]).toBe(tool);
  });
});
