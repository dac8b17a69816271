import { describe, expect, it } from "vitest";
import { compareStable, diffRequests, eagerStableText, environmentSections } from "./derive.ts";
import { skill, snapshot, tool } from "./test-builders.ts";
import type { RequestView } from "./types.ts";

function view(requestIndex: number, overrides: Parameters<typeof snapshot>[0] = {}): RequestView {
  return { requestIndex, runId: "r1", snapshot: snapshot({ requestIndex, ...overrides }) };
}

describe("environmentSections", () => {
  it("splits at ## headings and at each active skill, keeping a body's own headings inside it", () => {
    const environment =
      "# Environment\n- cwd: /x\n## Active Skills\n### review\n# Review\n## Steps\n1. read\n### lint\nBody\n";
    const sections = environmentSections(environment, ["review", "lint"]);
    expect(sections.map((section) => section.heading)).toEqual([
      "# Environment",
      "## Active Skills",
      "### review",
      "### lint",
    ]);
    expect(sections[2].text).toBe("# Review\n## Steps\n1. read\n");
  });
});

describe("diffRequests", () => {
  it("names added messages, changed environment sections and added tools", () => {
    const first = snapshot();
    const second = snapshot({
      requestIndex: 2,
      system: {
        stable: first.system.stable,
        environment: "## Environment\ncwd: /tmp/demo\n## Active Skills\n### review\nBody\n",
      },
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
    expect(diff.environment.added).toEqual(["## Active Skills", "### review"]);
    expect(diff.toolsAdded).toEqual(["lint"]);
    expect(diff.toolsRemoved).toEqual([]);
    expect(diff.stableChanged).toBe(false);
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

describe("eagerStableText", () => {
  it("inlines every body", () => {
    const text = eagerStableText("stable", [skill("a"), skill("b")]);
    expect(text).toContain("Body of a");
    expect(text).toContain("Body of b");
  });
});
