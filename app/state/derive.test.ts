import { describe, expect, it } from "vitest";
import { compareStable, diffRequests } from "./derive.ts";
import { snapshot, tool } from "./test-builders.ts";
import type { RequestView } from "./types.ts";

function view(requestIndex: number, overrides: Parameters<typeof snapshot>[0] = {}): RequestView {
  return { requestIndex, runId: "r1", snapshot: snapshot({ requestIndex, ...overrides }) };
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
