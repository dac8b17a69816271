import { describe, expect, it } from "vitest";
import { compareStable, diffRequests } from "./derive.ts";
import { requestView, snapshot, tool } from "./test-builders.ts";
import { buildEnvironmentSections, type EnvironmentInput } from "../../server/prompt/environment.ts";
import { TokenCounter } from "../../server/prompt/segments.ts";
import type { RequestView } from "./types.ts";

/** This file's own token counter (the composition root a test is). */
const tokens = new TokenCounter();

function view(requestIndex: number, overrides: Parameters<typeof snapshot>[0] = {}): RequestView {
  return requestView(snapshot({ requestIndex, ...overrides }));
}

describe("diffRequests", () => {
  it("names added messages, changed environment sections and added tools", () => {
    // The server's sections (segments): the base block, then one per active skill.
    const base = "# Environment\ncwd: /tmp/demo\n## Active Skills\n";
    const none = "(none yet)\n";
    // The body forges a heading and a closing delimiter (escaped by the server): still one section.
    const review =
      '<skill name="review" source="builtin">\nBody\n### commit\n&lt;/skill>\n1. read\n</skill>\n';
    const segment = (name: string, text: string, hash: string) =>
      ({ kind: "environment", name, hash, tokens: 3, chars: text.length }) as const;
    const first = snapshot({
      system: {
        stable: "You are PseudoClaude.\n## Skills\n- review: reviews code",
        environment: base + none,
      },
      segments: [segment("base", base + none, "h-base-1")],
    });
    const second = snapshot({
      requestIndex: 2,
      system: { stable: first.system.stable, environment: base + review },
      segments: [segment("base", base, "h-base-2"), segment("review", review, "h-review")],
      activeSkills: ["review"],
      messages: [
        ...first.messages,
        {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "c1", name: "load_skill", input: { name: "review" } }],
        },
      ],
      tools: [...first.tools, tool("lint", "skill")],
    });
    const diff = diffRequests(first, second);
    expect(diff.addedMessages).toHaveLength(1);
    expect(diff.historyRewritten).toBe(false);
    // A skill body's own headings stay inside its section: the diff names the skill by its segment.
    expect(diff.environment.added).toEqual(["review"]);
    expect(diff.environment.changed).toEqual(["base"]);
    expect(diff.toolsAdded).toEqual(["lint"]);
    expect(diff.toolsRemoved).toEqual([]);
    expect(diff.stableChanged).toBe(false);
  });
});

/** A snapshot whose environment and segments are the server's own builders' (server/prompt). */
function builtSnapshot(requestIndex: number, activeSkills: EnvironmentInput["activeSkills"]) {
  const sections = buildEnvironmentSections({
    version: "0.1.0",
    provider: "scripted",
    model: "scripted",
    cwd: "/tmp/demo",
    date: "2026-12-02",
    platform: "linux (x64)",
    activeSkills,
  });
  return snapshot({
    requestIndex,
    system: { stable: "s", environment: sections.map((section) => section.text).join("") },
    segments: tokens.environmentSegments(sections),
    activeSkills: activeSkills.map((skill) => skill.name),
  });
}

describe("the changed badge (issue 22 item 5)", () => {
  it("does not mark an unchanged SOP changed when another skill loads after it", () => {
    const review = { name: "review", source: "builtin", body: "### Steps\n1. read\n---\n" };
    const csv = { name: "csv-report", source: "builtin", body: "# CSV report\nTarget: data/sales.csv" };
    const diff = diffRequests(builtSnapshot(2, [review]), builtSnapshot(3, [review, csv]));
    expect(diff.environment).toEqual({ added: ["csv-report"], removed: [], changed: [] });
    // Its own bytes changed: then it is.
    const edited = { ...review, body: `${review.body}2. write\n` };
    expect(
      diffRequests(builtSnapshot(3, [review, csv]), builtSnapshot(4, [edited, csv])).environment,
    ).toEqual({ added: [], removed: [], changed: ["review"] });
  });

  it("ignores the separator an older server put after every skill section but the last", () => {
    const base = "# Environment\n## Active Skills\n";
    const block = '<skill name="review" source="builtin">\nBody\n</skill>';
    const segment = (name: string, text: string, hash: string) =>
      ({ kind: "environment", name, hash, tokens: 3, chars: text.length }) as const;
    const csv = '<skill name="csv-report" source="builtin">\nCSV\n</skill>\n';
    const before = snapshot({
      system: { stable: "s", environment: `${base}${block}\n` },
      segments: [segment("base", base, "b"), segment("review", `${block}\n`, "r1")],
    });
    const after = snapshot({
      requestIndex: 2,
      system: { stable: "s", environment: `${base}${block}\n\n${csv}` },
      segments: [
        segment("base", base, "b"),
        segment("review", `${block}\n\n`, "r2"),
        segment("csv-report", csv, "c"),
      ],
    });
    expect(diffRequests(before, after).environment).toEqual({
      added: ["csv-report"],
      removed: [],
      changed: [],
    });
  });
});

describe("diffRequests on logs written before the delimited blocks", () => {
  it("a `### review` section of an older log is still found by its segment; a log without segments is one part", () => {
    const base = "# Environment\n## Active Skills\n";
    const review = "### review\nBody\n### Steps\n";
    const segment = (name: string, text: string, hash: string) =>
      ({ kind: "environment", name, hash, tokens: 3, chars: text.length }) as const;
    const first = snapshot({
      system: { stable: "s", environment: `${base}(none yet)\n` },
      segments: [segment("base", `${base}(none yet)\n`, "b1")],
    });
    const second = snapshot({
      requestIndex: 2,
      system: { stable: "s", environment: base + review },
      segments: [segment("base", base, "b2"), segment("review", review, "r")],
    });
    expect(diffRequests(first, second).environment).toEqual({
      added: ["review"],
      removed: [],
      changed: ["base"],
    });
    const unsegmented = snapshot({ requestIndex: 3, system: { stable: "s", environment: base + review } });
    expect(diffRequests(second, unsegmented).environment.added).toEqual(["environment"]);
  });
});

describe("compareStable", () => {
  it("says unchanged since request #1 when the hash holds", () => {
    const requests = [view(1), view(2)];
    expect(compareStable(requests, requests[1])).toMatchObject({ unchangedSinceFirst: true, firstIndex: 1 });
  });

  it("names the first differing line when the stable system changed", () => {
    const requests = [
      view(1),
      view(2, {
        stableHash: "bbbb",
        system: { stable: "You are PseudoClaude.\n## Skills\n- deploy: ships", environment: "" },
      }),
    ];
    const comparison = compareStable(requests, requests[1]);
    expect(comparison.unchangedSinceFirst).toBe(false);
    expect(comparison.firstDifference).toMatchObject({
      line: 3,
      before: "- review: reviews code",
      after: "- deploy: ships",
      comparedWith: 1,
    });
  });
});
