// The cache strip's money line as the reader sees it (React's server renderer, no browser): the eager
// comparison prices the same output as the progressive figure beside it, so the two compare.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { SnapshotCache, Usage } from "../../server/protocol/index.ts";
import { requestCost } from "../lib/cache-cost.ts";
import { CacheStrip } from "./cache-strip.tsx";

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

function eagerLine(cache: SnapshotCache, usage: Usage, eagerTokens: number): string {
  const cost = requestCost({ runId: "r", snapshot: { provider: "scripted", cache }, usage });
  const total = { predictedUsd: cost.predictedUsd ?? 0, requests: 1, unpriced: 0 };
  const html = renderToStaticMarkup(
    <CacheStrip
      cache={cache}
      usage={usage}
      provider="scripted"
      cost={cost}
      run={total}
      session={total}
      eagerTokens={eagerTokens}
    />,
  );
  const line = /data-testid="cost-eager">(.*?)<\/div>/.exec(html)?.[1];
  if (!line) throw new Error("no eager line");
  return line.replace(/<[^>]+>/g, "").replace(/<!-- -->/g, "");
}

describe("cache strip", () => {
  it("prices eager with the same output as progressive", () => {
    // The demo's request #4: progressive reads 2,868 and writes 88 tokens, the model writes 72; eager it
    // would be 6,468 tokens. Without the output, eager all read from the cache ($0.00194) looked cheaper
    // than progressive ($0.00227, output included).
    const cache: SnapshotCache = {
      model: "claude-sonnet-4-5",
      rules: "anthropic",
      predicted: { inputTokens: 0, cacheCreationInputTokens: 88, cacheReadInputTokens: 2868 },
      segments: [],
      costUsd: 0,
      price,
      source: "test",
    };
    const line = eagerLine(cache, { outputTokens: 72, source: "estimate" }, 6468);
    expect(line).toContain("progressive $0.00227 vs eager (6468 tokens)");
    expect(line).toContain("$0.0205 if sent uncached"); // (6468 × 3 + 72 × 15) / 1e6
    expect(line).toContain("$0.00302 if all of it were read from the cache"); // (6468 × 0.3 + 72 × 15) / 1e6
  });
});
