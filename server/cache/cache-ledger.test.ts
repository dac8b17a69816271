// The cache ledger on a hand-built sequence of requests and usage reports: predicted diagnostics from the
// segments, each report checked against them, and cache_stats by the definitions of cache-stats.ts — the
// hit ratio, a miss as > 5 % and ≥ 2,000 tokens of what could have been read, its cause from the
// provider's report first, announced rebuilds apart, TTL expiry by the time between requests.
import { describe, expect, it } from "vitest";
import type { ReportedCacheDiagnostics } from "../protocol/cache-report.ts";
import type { Usage } from "../protocol/model.ts";
import type { PromptSegment } from "../protocol/runner-events.ts";
import { sha256Hex } from "../prompt/hash.ts";
import { CacheLedger } from "./cache-ledger.ts";
import { loadCacheConfig } from "./rules-file.ts";

const rules = loadCacheConfig({ env: {} }).rules;
const T0 = Date.UTC(2026, 11, 3, 9, 0, 0);
const iso = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

const seg = (kind: PromptSegment["kind"], name: string, tokens: number, chars?: number): PromptSegment => ({
  kind,
  name,
  tokens,
  hash: sha256Hex(`${kind}:${name}:${chars ?? ""}`),
  ...(chars !== undefined ? { chars } : {}),
});
const messages = (count: number) => Array.from({ length: count }, (_, i) => seg("message", String(i), 50));
const TOOLS = [seg("tool", "load_skill", 400), seg("tool", "read_file", 400)];
const TOOL_C = seg("tool", "profile_csv", 600);
const STABLE = seg("system", "stable", 2000, 3774);
const ENV = seg("environment", "base", 150, 600);
const ENV_LOADED = [seg("environment", "base", 140, 560), seg("environment", "csv-report", 500, 2400)];

interface Step {
  at: number;
  segments: PromptSegment[];
  figures: { read: number; write: number; uncached: number };
  /** The provider's diagnostics (undefined: no report at all, as for the scripted model). */
  report?: Omit<ReportedCacheDiagnostics, "provider" | "source" | "comparedWith"> | null;
}

/** Feeds a sequence as the Runner would: expect() before each request, report() when its usage comes. */
function play(ledger: CacheLedger, steps: Step[], ttl?: "1h") {
  return steps.map((step, position) => {
    const requestIndex = position + 1;
    // As the Runner does: the request names the previous response before the ledger records it.
    const comparedWith = ledger.previousResponseId();
    const predicted = ledger.expect({
      requestIndex,
      provider: "anthropic",
      at: iso(step.at),
      model: "claude-sonnet-4-5",
      segments: step.segments,
      predicted: {
        inputTokens: step.figures.uncached,
        cacheCreationInputTokens: step.figures.write,
        cacheReadInputTokens: step.figures.read,
      },
    });
    if (step.report === undefined) return { predicted, comparedWith };
    const usage: Usage = {
      inputTokens: step.figures.uncached,
      cacheCreationInputTokens: step.figures.write,
      cacheReadInputTokens: step.figures.read,
      outputTokens: 10,
      ...(ttl ? { cacheWriteTtl: ttl } : {}),
      ...(step.report
        ? {
            cacheDiagnostics: {
              provider: "anthropic",
              source: "test",
              comparedWith,
              responseId: `msg_${requestIndex}`,
              ...step.report,
            },
          }
        : {}),
    };
    return { predicted, check: ledger.report(requestIndex, usage, iso(step.at + 2)), comparedWith };
  });
}

const base = [...TOOLS, STABLE, ENV];
const withC = [...TOOLS, TOOL_C, STABLE, ENV];
const loaded = [...TOOLS, TOOL_C, STABLE, ...ENV_LOADED];
const SEQUENCE: Step[] = [
  {
    at: 0,
    segments: [...base, ...messages(1)],
    figures: { read: 0, write: 3000, uncached: 100 },
    report: { outcome: "inconclusive" },
  },
  {
    at: 30,
    segments: [...base, ...messages(3)],
    figures: { read: 3000, write: 500, uncached: 50 },
    report: { outcome: "same" },
  },
  // A tool nobody registered earlier: tools_changed, and the provider says so too.
  {
    at: 60,
    segments: [...withC, ...messages(4)],
    figures: { read: 0, write: 3600, uncached: 50 },
    report: { outcome: "diverged", type: "tools_changed", missedInputTokens: 3600 },
  },
  // Ten minutes later, unchanged: the entry expired (the provider found no divergence).
  {
    at: 660,
    segments: [...withC, ...messages(5)],
    figures: { read: 0, write: 3700, uncached: 50 },
    report: { outcome: "same" },
  },
  // Predicted unchanged, but the provider names a system change: a disagreement, and a miss by its cause.
  {
    at: 690,
    segments: [...withC, ...messages(6)],
    figures: { read: 1000, write: 2800, uncached: 50 },
    report: { outcome: "diverged", type: "system_changed", missedInputTokens: 2800 },
  },
  // A skill's SOP enters the environment: announced, and the provider agrees: an expected rebuild.
  {
    at: 720,
    segments: [...loaded, ...messages(7)],
    figures: { read: 1000, write: 3000, uncached: 50 },
    report: { outcome: "diverged", type: "system_changed", missedInputTokens: 3100 },
  },
  {
    at: 750,
    segments: [...loaded, ...messages(8)],
    figures: { read: 4000, write: 56000, uncached: 50 },
    report: { outcome: "same" },
  },
  // 2,000 tokens re-processed, but 3.3 % of the 60,000 it could have read: not a miss.
  {
    at: 780,
    segments: [...loaded, ...messages(9)],
    figures: { read: 58000, write: 100, uncached: 50 },
    report: { outcome: "same" },
  },
  // No provider report (a scripted model): the prediction's figures count, and say so.
  { at: 810, segments: [...loaded, ...messages(10)], figures: { read: 58100, write: 200, uncached: 0 } },
];

describe("cache ledger", () => {
  it("predicts where each request diverges from the one before it, and whether the playground announced it", () => {
    const results = play(new CacheLedger(rules), SEQUENCE);
    expect(results.map((result) => result.predicted.type)).toEqual([
      null,
      null,
      "tools_changed",
      null,
      null,
      "system_changed",
      null,
      null,
      null,
    ]);
    expect(results[2].predicted).toMatchObject({
      comparedWith: 2,
      cause: "tools_changed",
      toolsAdded: ["profile_csv"],
      toolsRemoved: [],
      missedInputTokens: 600 + 2000 + 150 + 4 * 50,
      gapSeconds: 30,
    });
    expect(results[2].predicted.announced).toBeUndefined();
    expect(results[5].predicted).toMatchObject({
      cause: "system_prompt_changed",
      systemCharDelta: 560 + 2400 - 600,
      announced: "csv-report SOP loaded into the environment",
      missedInputTokens: 140 + 500 + 7 * 50,
    });
  });

  it("names the previous response for diagnostics, and checks every report against the prediction", () => {
    const results = play(new CacheLedger(rules), SEQUENCE);
    expect(results.map((result) => result.comparedWith)).toEqual([
      null,
      "msg_1",
      "msg_2",
      "msg_3",
      "msg_4",
      "msg_5",
      "msg_6",
      "msg_7",
      "msg_8",
    ]);
    expect(results.map((result) => result.check?.verdict)).toEqual([
      "no_verdict",
      "agree",
      "agree",
      "agree",
      "disagree",
      "agree",
      "agree",
      "agree",
      undefined,
    ]);
    expect(results[4].check?.text).toBe(
      "provider: system_changed (2,800 tokens after it); predicted no divergence",
    );
  });

  it("cache_stats follows the definitions on the hand-built sequence", () => {
    const ledger = new CacheLedger(rules);
    play(ledger, SEQUENCE);
    const stats = ledger.stats(iso(900));
    const read = 0 + 3000 + 0 + 0 + 1000 + 1000 + 4000 + 58000 + 58100;
    const write = 3000 + 500 + 3600 + 3700 + 2800 + 3000 + 56000 + 100 + 200;
    const uncached = 100 + 7 * 50 + 0;
    expect(stats).toEqual({
      requests: 9,
      figures: { reported: 8, predicted: 1 },
      source: "mixed",
      hit_ratio: read / (read + write + uncached),
      cache_read_tokens: read,
      cache_write_tokens: write,
      uncached_tokens: uncached,
      misses: 3,
      miss_causes: { tools_changed: 1, ttl_expired_5m: 1, system_prompt_changed: 1 },
      last_miss_at: iso(690),
      last_miss_cause: {
        causes: ["system_prompt_changed"],
        tools_added: 0,
        tools_removed: 0,
        system_char_delta: 0,
        source: "provider",
        request: 5,
      },
      expected_rebuilds: 1,
      miss_recache_tokens: 3600 + 3700 + 2800,
      recache_tokens_if_cold: 58100 + 200,
      ttl: "5m",
      expires_at: iso(810 + 300),
      warm: true,
      disagreements: 1,
      at: iso(900),
    });
    expect(ledger.stats(iso(810 + 301)).warm).toBe(false);
  });

  it("a 1-hour cache outlives a 20-minute pause and expires after two hours (ttl_expired_1h)", () => {
    const ledger = new CacheLedger(rules);
    play(
      ledger,
      [
        {
          at: 0,
          segments: [...base, ...messages(1)],
          figures: { read: 0, write: 3000, uncached: 10 },
          report: { outcome: "inconclusive" },
        },
        {
          at: 1200,
          segments: [...base, ...messages(2)],
          figures: { read: 3000, write: 60, uncached: 10 },
          report: { outcome: "same" },
        },
        {
          at: 8400,
          segments: [...base, ...messages(3)],
          figures: { read: 0, write: 3110, uncached: 10 },
          report: { outcome: "same" },
        },
      ],
      "1h",
    );
    const stats = ledger.stats(iso(8500));
    expect(stats.misses).toBe(1);
    expect(stats.last_miss_cause?.causes).toEqual(["ttl_expired_1h"]);
    expect(stats.ttl).toBe("1h");
    expect(stats.expires_at).toBe(iso(8402 + 3600));
  });

  it("without any report the figures and the causes are the prediction's, and say so", () => {
    const ledger = new CacheLedger(rules);
    play(ledger, [
      { at: 0, segments: [...base, ...messages(1)], figures: { read: 0, write: 3000, uncached: 10 } },
      { at: 30, segments: [...withC, ...messages(2)], figures: { read: 0, write: 3660, uncached: 10 } },
    ]);
    const stats = ledger.stats(iso(60));
    expect(stats.source).toBe("prediction");
    expect(stats.last_miss_cause).toMatchObject({
      causes: ["tools_changed"],
      tools_added: 1,
      source: "prediction",
    });
  });
});
