import { describe, expect, it } from "vitest";
import type { SnapshotCache } from "../../server/protocol/index.ts";
import { cacheMismatch, reportedCounts, requestCost, runCost, totalCost } from "./cache-cost.ts";

const price = {
  model: "claude-sonnet-4-5",
  input: 3,
  output: 15,
  cacheWrite5m: 3.75,
  cacheWrite1h: 6,
  cacheRead: 0.3,
  source: "https://platform.claude.com/docs/en/about-claude/pricing",
  checked: "2026-12-02",
};
const cache = (read: number, write: number, input: number): SnapshotCache => ({
  model: "claude-sonnet-4-5",
  rules: "anthropic",
  predicted: { inputTokens: input, cacheCreationInputTokens: write, cacheReadInputTokens: read },
  segments: [],
  costUsd: 0,
  price,
  source: "test",
});

describe("cache cost", () => {
  it("prices a request's prediction plus its output, and the provider's report at the same row", () => {
    const cost = requestCost({
      runId: "r1",
      snapshot: { provider: "anthropic", cache: cache(1000, 0, 200) },
      usage: { inputTokens: 210, cacheReadInputTokens: 990, cacheCreationInputTokens: 0, outputTokens: 100 },
    });
    expect(cost.predictedUsd).toBeCloseTo((200 * 3 + 1000 * 0.3 + 100 * 15) / 1e6, 12);
    expect(cost.reportedUsd).toBeCloseTo((210 * 3 + 990 * 0.3 + 100 * 15) / 1e6, 12);
  });

  it("an estimate is not a report; OpenAI's prompt_tokens include the cached ones", () => {
    expect(reportedCounts({ inputTokens: 5, source: "estimate" }, "scripted")).toBeUndefined();
    expect(reportedCounts({ inputTokens: 2000, cacheReadInputTokens: 1920 }, "openai")?.inputTokens).toBe(80);
  });

  it("sums runs and sessions, counting the requests it could not price", () => {
    const requests = [
      { runId: "a", snapshot: { provider: "scripted", cache: cache(0, 1000, 0) } },
      { runId: "a", snapshot: { provider: "scripted", cache: cache(1000, 0, 100) } },
      { runId: "b", snapshot: { provider: "scripted" } },
    ];
    expect(runCost(requests, "a").predictedUsd).toBeCloseTo((1000 * 3.75 + 1000 * 0.3 + 100 * 3) / 1e6, 12);
    expect(totalCost(requests)).toMatchObject({ requests: 3, unpriced: 1 });
    expect(totalCost(requests).reportedUsd).toBeUndefined();
  });

  it("flags a predicted hit the provider did not report", () => {
    expect(
      cacheMismatch(cache(1800, 0, 100), { inputTokens: 1900, cacheReadInputTokens: 0 }, "anthropic"),
    ).toEqual(["cache read: predicted 1800, reported 0", "uncached input: predicted 100, reported 1900"]);
    expect(
      cacheMismatch(cache(1800, 0, 100), { inputTokens: 110, cacheReadInputTokens: 1750 }, "anthropic"),
    ).toEqual([]);
  });
});
