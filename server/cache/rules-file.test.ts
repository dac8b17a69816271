// The user's edited copies of the rules and prices win field by field; a broken one is a warning that
// names the file, and the built-in tables stay in force. Real files in a temp home.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { minCacheableTokens, priceFor } from "./rules.ts";
import { loadCacheConfig } from "./rules-file.ts";

let home: string;
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "cache-rules-"));
  await mkdir(path.join(home, ".PseudoClaude"));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("cache rules and prices files", () => {
  it("every built-in number names its source page and date", () => {
    const { rules, prices } = loadCacheConfig({ env: {} });
    for (const entry of [
      rules.anthropic.lookbackBlocks,
      rules.anthropic.maxBreakpoints,
      rules.openai.minPrefixTokens,
    ]) {
      expect(entry.source).toMatch(/^https:\/\//);
      expect(entry.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    for (const row of Object.values(prices.models)) expect(row.source).toMatch(/^https:\/\//);
    expect(minCacheableTokens(rules, "claude-haiku-4-5-20251001")).toBe(4096);
    expect(minCacheableTokens(rules, "claude-sonnet-4-5")).toBe(1024);
  });

  it("an override replaces the fields it gives and keeps the rest", async () => {
    await writeFile(
      path.join(home, ".PseudoClaude", "cache-rules.json"),
      JSON.stringify({ anthropic: { minCacheableTokens: { byModel: { "claude-haiku-4-5": 1024 } } } }),
    );
    await writeFile(
      path.join(home, ".PseudoClaude", "prices.json"),
      JSON.stringify({
        models: {
          "my-model": {
            input: 1,
            output: 2,
            cacheWrite5m: 1,
            cacheWrite1h: 1,
            cacheRead: 0.1,
            source: "mine",
            checked: "2026-12-02",
          },
        },
      }),
    );
    const config = loadCacheConfig({ home, env: {} });
    expect(config.warnings).toEqual([]);
    expect(minCacheableTokens(config.rules, "claude-haiku-4-5")).toBe(1024);
    expect(minCacheableTokens(config.rules, "claude-opus-4-5")).toBe(4096);
    expect(config.rules.anthropic.lookbackBlocks.value).toBe(20);
    expect(priceFor(config.prices, "my-model")?.input).toBe(1);
    expect(priceFor(config.prices, "claude-sonnet-4-5")?.input).toBe(3);
  });

  it("a broken override is a warning with the file and the fix, and the built-in table stays", async () => {
    const file = path.join(home, ".PseudoClaude", "prices.json");
    await writeFile(file, JSON.stringify({ models: { "claude-sonnet-4-5": { input: "three" } } }));
    const config = loadCacheConfig({ home, env: {} });
    expect(config.warnings).toEqual([
      `${file}: models.claude-sonnet-4-5.input must be a number ≥ 0 (USD per million tokens)`,
    ]);
    expect(priceFor(config.prices, "claude-sonnet-4-5")?.input).toBe(3);
  });
});
