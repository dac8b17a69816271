// The prefix filter finds exactly the pairs a comparison of every pair finds, on look-alike catalogs.
import { describe, expect, it } from "vitest";
import { OVERLAP_THRESHOLD, overlapNotes, overlappingPairs } from "./description-overlap.ts";
import type { Skill } from "./types.ts";

function skill(name: string, description: string): Skill {
  return {
    meta: { name, description, tools: [], mode: "shared", history: "recent", extra: {} },
    body: "b",
    entryPath: `/s/${name}/SKILL.md`,
    rootDir: `/s/${name}`,
    source: "builtin",
    tools: [],
  };
}

/** A seeded generator, so the catalog is the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const WORDS =
  "csv report sales revenue chart quarter region total commit message diff staged review finding security bug test failing suite changelog release notes version deploy staging branch schema migration table index".split(
    " ",
  );

function words(text: string): Set<string> {
  return new Set(text.split(" "));
}

describe("overlappingPairs", () => {
  it("equals the every-pair comparison on a look-alike catalog", () => {
    const next = random(7);
    const skills = Array.from({ length: 160 }, (_, index) => {
      const count = 4 + Math.floor(next() * 6);
      const picked = Array.from({ length: count }, () => WORDS[Math.floor(next() * 8 + (index % 4) * 2)]!);
      return skill(`s-${String(index).padStart(3, "0")}`, picked.join(" "));
    });
    const fast = overlappingPairs(skills)
      .map((pair) => `${pair.first.meta.name}~${pair.second.meta.name}`)
      .sort();
    const slow: string[] = [];
    for (let i = 0; i < skills.length; i++) {
      for (let j = i + 1; j < skills.length; j++) {
        const a = words(skills[i]!.meta.description);
        const b = words(skills[j]!.meta.description);
        if (a.size < 4 || b.size < 4) continue;
        const shared = [...a].filter((word) => b.has(word)).length;
        if (shared / (a.size + b.size - shared) >= OVERLAP_THRESHOLD)
          slow.push(`${skills[i]!.meta.name}~${skills[j]!.meta.name}`);
      }
    }
    expect(slow.length).toBeGreaterThan(50);
    expect(fast).toEqual(slow.sort());
  });

  it("names each skill's closest look-alike once, with how many others it also resembles", () => {
    const text = "summarise quarterly sales spreadsheets into revenue charts";
    const notes = overlapNotes([
      skill("a-report", text),
      skill("b-report", `${text} quickly`),
      skill("c-report", `${text} again`),
      skill("commit", "write conventional commit messages from staged diffs"),
    ]);
    expect(notes.map((note) => [note.skill, note.message.slice(0, 60)])).toEqual([
      ["a-report", 'description overlaps strongly with "b-report" (86% of their '],
      ["c-report", 'description overlaps strongly with "a-report" (86% of their '],
    ]);
    expect(notes[0]!.message).toContain("and with 1 other skill");
  });
});
