import { describe, expect, it } from "vitest";
import { interleave, median, notMeasured, ratioOf } from "./harness.ts";
import { formatMarkdownTable, formatTable } from "./format-table.ts";

describe("median", () => {
  it("takes the middle of an odd list and the mean of the two middles of an even one", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("refuses an empty list instead of returning NaN", () => {
    expect(() => median([])).toThrow(/empty/);
  });
});

describe("interleave", () => {
  it("alternates subject and baseline, drops warm-up rounds, and keeps callback-reported times", async () => {
    const order: string[] = [];
    const samples = await interleave(
      3,
      async () => {
        order.push("A");
        return 7;
      },
      async () => {
        order.push("B");
      },
      1,
    );
    expect(order).toEqual(["A", "B", "A", "B", "A", "B", "A", "B"]);
    expect(samples.subject).toEqual([7, 7, 7]);
    expect(samples.baseline).toHaveLength(3);
    expect(samples.baseline.every((value) => value >= 0)).toBe(true);
  });
});

describe("rows and tables", () => {
  it("has no ratio without a baseline", () => {
    expect(ratioOf(3, null)).toBeNull();
    expect(ratioOf(3, 0)).toBeNull();
    expect(ratioOf(3, 2)).toBe(1.5);
  });

  it("renders a not-measured row with its reason, never a number", () => {
    const row = notMeasured(
      { name: "memory", workload: "50 sessions", target: "report" },
      "server/transport is missing",
    );
    const text = formatTable([row]);
    expect(text).toContain("not measured");
    expect(text).toContain("memory: not measured: server/transport is missing");
    expect(formatMarkdownTable([row])).toMatch(/^\| figure \| workload/);
  });
});
