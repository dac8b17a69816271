import { describe, expect, it } from "vitest";
import type { RequestSnapshot } from "../../server/protocol/index.ts";
import { contextBreakdown } from "./context-breakdown.ts";

describe("context breakdown", () => {
  it("names every contributor, sorted, skill tools with their skill, index lines as estimates", () => {
    const stable =
      "You are an agent.\nAvailable skills:\n- csv-report: Turn a CSV into a report.\n- review: Review code.\n";
    const snapshot = {
      system: { stable, environment: "" },
      listedSkills: ["csv-report", "review"],
      tools: [
        {
          name: "read_file",
          description: "",
          inputSchema: {},
          safety: "read_only",
          category: "read",
          origin: "system",
        },
        {
          name: "profile_csv",
          description: "",
          inputSchema: {},
          safety: "side_effect",
          category: "exec",
          origin: "skill",
          skill: "csv-report",
        },
      ],
      messages: [
        { role: "user", content: "hi" },
        { role: "tool", toolCallId: "1", toolName: "read_file", content: "x", isError: false },
      ],
      segments: [
        { kind: "tool", name: "read_file", hash: "a", tokens: 90 },
        { kind: "tool", name: "profile_csv", hash: "b", tokens: 120 },
        { kind: "system", name: "stable", hash: "c", tokens: 100 },
        { kind: "environment", name: "base", hash: "d", tokens: 40 },
        { kind: "environment", name: "csv-report", hash: "e", tokens: 300 },
        { kind: "message", name: "0", hash: "f", tokens: 5 },
        { kind: "message", name: "1", hash: "g", tokens: 700 },
      ],
    } as unknown as RequestSnapshot;
    const items = contextBreakdown(snapshot);
    expect(items.map((item) => item.label)).toEqual([
      "tool results: read_file",
      "csv-report (active SOP)",
      "profile_csv (skill: csv-report)",
      "read_file (system)",
      "csv-report (index line)",
      "environment facts",
      "instructions and rules",
      "review (index line)",
      "user messages",
    ]);
    expect(items.find((item) => item.label === "csv-report (index line)")).toMatchObject({
      basis: "estimate",
    });
    const stableItems = items.filter(
      (item) => item.group === "skill index" || item.group === "stable system",
    );
    expect(stableItems.reduce((sum, item) => sum + item.tokens, 0)).toBe(100);
  });

  it("takes each index line's tokens from the server's count (the figure the skill lane shows)", () => {
    const stable = "Available skills:\n- csv-report: Turn a CSV into a report.\n- review: Review code.\n";
    const snapshot = {
      system: { stable, environment: "" },
      listedSkills: ["csv-report", "review"],
      indexLineTokens: { "csv-report": 46, review: 7 },
      tools: [],
      segments: [{ kind: "system", name: "stable", hash: "c", tokens: 100 }],
    } as unknown as RequestSnapshot;
    const items = contextBreakdown(snapshot);
    expect(items.find((item) => item.label === "csv-report (index line)")).toEqual({
      group: "skill index",
      label: "csv-report (index line)",
      tokens: 46,
      basis: "server",
    });
    expect(items.find((item) => item.label === "review (index line)")).toMatchObject({
      tokens: 7,
      basis: "server",
    });
    expect(items.find((item) => item.label === "instructions and rules")).toMatchObject({ tokens: 47 });
  });
});
