// The environment's sections concatenate to the environment exactly, and token counts are cached by
// content hash: the stable system of a 1,000-skill catalog is tokenized once, not on every request.
import { describe, expect, it } from "vitest";
import { buildEnvironment, buildEnvironmentSections } from "./environment.ts";
import { TokenCounter } from "./segments.ts";
import { buildStableSystem } from "./stable-system.ts";

/** This file's own token counter (the composition root a test is). */
const tokens = new TokenCounter();

const facts = {
  version: "0.1.0",
  provider: "scripted",
  model: "scripted-demo",
  cwd: "/tmp/work",
  date: "2026-12-02",
  platform: "linux (x64)",
};
const bodies = [
  { name: "review", body: "REVIEW-BODY\n\n## Steps\n1. read the diff\n" },
  { name: "commit", body: "  COMMIT-BODY  ", arguments: "staged only" },
];

describe("environment sections", () => {
  for (const disclosure of ["progressive", "eager"] as const) {
    for (const count of [0, 1, 2]) {
      it(`concatenate to the environment (${disclosure}, ${count} active)`, () => {
        const input = { ...facts, activeSkills: bodies.slice(0, count), disclosure };
        const sections = buildEnvironmentSections(input);
        expect(sections.map((section) => section.text).join("")).toBe(buildEnvironment(input));
        expect(sections.map((section) => section.name)).toEqual([
          "base",
          ...bodies.slice(0, count).map((b) => b.name),
        ]);
        for (const section of sections) expect(section.text.startsWith(section.heading)).toBe(true);
        const segments = tokens.environmentSegments(sections);
        expect(segments.reduce((sum, segment) => sum + segment.chars!, 0)).toBe(
          buildEnvironment(input).length,
        );
      });
    }
  }

  it("keeps a skill body's own headings inside the skill's section", () => {
    const sections = buildEnvironmentSections({ ...facts, activeSkills: bodies });
    expect(sections[1].text).toContain("## Steps");
    expect(sections[1].heading).toBe('<skill name="review">');
    expect(sections[1].text.endsWith("</skill>\n")).toBe(true);
  });

  it("keep an active skill's bytes and hash when another skill loads after it (issue 22 item 5)", () => {
    for (const disclosure of ["progressive", "eager"] as const) {
      const one = tokens.environmentSegments(
        buildEnvironmentSections({ ...facts, activeSkills: bodies.slice(0, 1), disclosure }),
      );
      const two = tokens.environmentSegments(
        buildEnvironmentSections({ ...facts, activeSkills: bodies, disclosure }),
      );
      const review = (segments: typeof one) => segments.find((segment) => segment.name === "review");
      expect(review(two), disclosure).toEqual(review(one));
    }
  });
});

describe("token counts", () => {
  it("are counted once per distinct content: a large stable system is not tokenized again", () => {
    const skills = Array.from({ length: 1000 }, (_, index) => ({
      name: `skill-${String(index).padStart(4, "0")}`,
      description: `Does task number ${index} of the generated catalog, with a description of ordinary length.`,
    }));
    const stable = buildStableSystem({ skills, disclosure: "progressive" });
    const before = tokens.tokenizedCharacters;
    const first = tokens.stableSegment(stable);
    expect(tokens.tokenizedCharacters - before).toBe(stable.length);
    expect(first.tokens).toBeGreaterThan(20_000);
    const again = tokens.stableSegment(
      buildStableSystem({ skills: [...skills].reverse(), disclosure: "progressive" }),
    );
    expect(again).toEqual(first);
    expect(tokens.tokenizedCharacters - before).toBe(stable.length);
  });
});
