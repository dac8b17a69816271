import { describe, expect, it } from "vitest";
import { formatCount, formatUsd, plural } from "./figures.ts";
import { costUsd } from "./prices.ts";

describe("figures shared by the server and the pages", () => {
  it("counts with separators and nouns in the right number", () => {
    expect(formatCount(1024)).toBe("1,024");
    expect(plural(1, "file")).toBe("1 file");
    expect(plural(0, "file")).toBe("0 files");
    expect(plural(12_000, "query", "queries")).toBe("12,000 queries");
  });

  it("dollars to five places under a cent, four above", () => {
    expect(formatUsd(0)).toBe("$0");
    expect(formatUsd(0.001234)).toBe("$0.00123");
    expect(formatUsd(0.0123)).toBe("$0.0123");
  });

  it("prices uncached input, cache writes (5-minute rate), cache reads and output per million tokens", () => {
    const rates = { input: 3, output: 15, cacheWrite5m: 3.75, cacheRead: 0.3 };
    const counts = { inputTokens: 200, cacheCreationInputTokens: 100, cacheReadInputTokens: 1000 };
    expect(costUsd(rates, counts)).toBeCloseTo((200 * 3 + 100 * 3.75 + 1000 * 0.3) / 1e6, 12);
    expect(costUsd(rates, { ...counts, outputTokens: 10 })).toBeCloseTo(
      (200 * 3 + 100 * 3.75 + 1000 * 0.3 + 10 * 15) / 1e6,
      12,
    );
  });
});
