// The cache model against hand-built requests: each rule of cache-rules.json (breakpoints, minimum,
// lookback, TTL, OpenAI's 128-token steps) changes a prediction the way the providers document.
import { describe, expect, it } from "vitest";
import type { PromptSegment } from "../protocol/runner-events.ts";
import { sha256Hex } from "../prompt/hash.ts";
import { CacheModel, type CacheRequest } from "./cache-model.ts";
import { loadCacheConfig } from "./rules-file.ts";

const config = loadCacheConfig({ env: {} });
const seg = (kind: PromptSegment["kind"], name: string, tokens: number, version = ""): PromptSegment => ({
  kind,
  name,
  tokens,
  hash: sha256Hex(`${kind}:${name}:${version}`),
});

const TOOLS = [seg("tool", "load_skill", 300), seg("tool", "read_file", 300)];
const STABLE = seg("system", "stable", 1200);
const ENV = [seg("environment", "base", 100)];
const messages = (count: number) => Array.from({ length: count }, (_, i) => seg("message", String(i), 50));

let index = 0;
function request(
  segments: PromptSegment[],
  options: Partial<CacheRequest> & { secondsLater?: number } = {},
): CacheRequest {
  index += 1;
  return {
    requestIndex: index,
    runId: options.runId ?? "run_1",
    at: new Date(Date.UTC(2026, 11, 2, 12, 0, 0) + (options.secondsLater ?? index) * 1000).toISOString(),
    segments,
    model: options.model ?? "claude-sonnet-4-5",
    breakpoints: options.breakpoints ?? "stable",
    ...(options.registeredNotVisible ? { registeredNotVisible: options.registeredNotVisible } : {}),
  };
}

describe("cache model: Anthropic", () => {
  it("stable only: request 1 writes tools + stable, request 2 reads them, the conversation is never cached", () => {
    const model = new CacheModel(config.rules, config.prices);
    const first = model.predict(request([...TOOLS, STABLE, ...ENV, ...messages(1)]));
    expect(first.predicted).toEqual({
      inputTokens: 150,
      cacheCreationInputTokens: 1800,
      cacheReadInputTokens: 0,
    });
    expect(first.segments.map((s) => [s.part, s.status])).toEqual([
      ["tools", "written"],
      ["stable", "written"],
      ["environment", "uncached"],
      ["messages", "uncached"],
    ]);
    const second = model.predict(request([...TOOLS, STABLE, ...ENV, ...messages(3)]));
    expect(second.predicted).toEqual({
      inputTokens: 250,
      cacheCreationInputTokens: 0,
      cacheReadInputTokens: 1800,
    });
    expect(second.segments.at(-1)!.reason).toContain("after the last breakpoint");
    // $3 input, $3.75 write, $0.30 read per million (prices.json, claude-sonnet-4-5).
    expect(second.costUsd).toBeCloseTo((250 * 3 + 1800 * 0.3) / 1e6, 12);
    expect(second.price?.model).toBe("claude-sonnet-4-5");
  });

  it("rolling: each iteration reads the previous one's conversation and writes only what is new", () => {
    const model = new CacheModel(config.rules, config.prices);
    model.predict(request([...TOOLS, STABLE, ...ENV, ...messages(1)], { breakpoints: "rolling" }));
    const second = model.predict(
      request([...TOOLS, STABLE, ...ENV, ...messages(3)], { breakpoints: "rolling" }),
    );
    expect(second.predicted).toEqual({
      inputTokens: 0,
      cacheCreationInputTokens: 100,
      cacheReadInputTokens: 1950,
    });
    expect(second.segments.at(-1)).toMatchObject({
      part: "messages",
      status: "written",
      label: "messages 1–2",
    });
  });

  it("a tool that becomes visible in the next run invalidates the whole prefix, and the reason names it and its run", () => {
    const model = new CacheModel(config.rules, config.prices);
    model.predict(
      request([...TOOLS, STABLE, ...ENV, ...messages(1)], { registeredNotVisible: ["profile_csv"] }),
    );
    const withTool = [TOOLS[0], seg("tool", "profile_csv", 200), TOOLS[1], STABLE, ...ENV, ...messages(3)];
    const next = model.predict(request(withTool, { runId: "run_2" }));
    expect(next.predicted.cacheReadInputTokens).toBe(0);
    expect(next.predicted.cacheCreationInputTokens).toBe(2000);
    const reasons = next.segments.filter((s) => s.status !== "read").map((s) => s.reason);
    expect(reasons[0]).toContain("tools changed: profile_csv became visible (registered in run 1");
  });

  it("below the model's minimum nothing is cached, and the reason names the minimum and the model", () => {
    const model = new CacheModel(config.rules, config.prices);
    for (let i = 0; i < 2; i++) {
      const prediction = model.predict(
        request([...TOOLS, STABLE, ...ENV, ...messages(1)], { model: "claude-haiku-4-5" }),
      );
      expect(prediction.predicted).toEqual({
        inputTokens: 1950,
        cacheCreationInputTokens: 0,
        cacheReadInputTokens: 0,
      });
      expect(prediction.segments[0].reason).toBe(
        "below the 4,096-token minimum of claude-haiku-4-5 (the prefix up to this breakpoint is 1,800 tokens)",
      );
    }
  });

  it("an environment change (a loaded SOP) re-sends the messages after it under rolling breakpoints", () => {
    const model = new CacheModel(config.rules, config.prices);
    model.predict(request([...TOOLS, STABLE, ...ENV, ...messages(1)], { breakpoints: "rolling" }));
    const loaded = [...TOOLS, STABLE, ...ENV, seg("environment", "csv-report", 400), ...messages(3)];
    const next = model.predict(request(loaded, { breakpoints: "rolling" }));
    expect(next.predicted).toEqual({
      inputTokens: 0,
      cacheCreationInputTokens: 650,
      cacheReadInputTokens: 1800,
    });
    expect(next.segments.find((s) => s.part === "messages")!.reason).toBe(
      "written (1.25× input), environment changed: csv-report SOP added, so every message after it is re-sent",
    );
  });

  it("past the 5-minute TTL the prefix is written again, and the reason says since which request", () => {
    const model = new CacheModel(config.rules, config.prices);
    const first = model.predict(request([...TOOLS, STABLE, ...ENV, ...messages(1)], { secondsLater: 0 }));
    const later = model.predict(request([...TOOLS, STABLE, ...ENV, ...messages(1)], { secondsLater: 301 }));
    expect(later.predicted.cacheReadInputTokens).toBe(0);
    expect(later.predicted.cacheCreationInputTokens).toBe(1800);
    expect(later.segments[0].reason).toContain(`5-minute TTL passed since request #${index - 1}`);
    expect(first.predicted.cacheCreationInputTokens).toBe(1800);
    // A read within the TTL refreshes it: 4 minutes after the rewrite, then 4 more, still a hit.
    expect(
      model.predict(request([...TOOLS, STABLE, ...ENV], { secondsLater: 541 })).predicted
        .cacheReadInputTokens,
    ).toBe(1800);
    expect(
      model.predict(request([...TOOLS, STABLE, ...ENV], { secondsLater: 781 })).predicted
        .cacheReadInputTokens,
    ).toBe(1800);
  });

  it("a rolling breakpoint more than 20 blocks after the last entry finds nothing (the lookback limit)", () => {
    const model = new CacheModel(config.rules, config.prices);
    model.predict(request([...TOOLS, STABLE, ...ENV, ...messages(1)], { breakpoints: "rolling" }));
    const next = model.predict(
      request([...TOOLS, STABLE, ...ENV, ...messages(30)], { breakpoints: "rolling" }),
    );
    // The stable breakpoint still reads tools + stable; the conversation's entry is out of reach.
    expect(next.predicted.cacheReadInputTokens).toBe(1800);
    expect(next.predicted.cacheCreationInputTokens).toBe(100 + 30 * 50);
  });
});

describe("cache model: OpenAI and unknown models", () => {
  it("caches prompts of 1,024+ tokens automatically, reads in 128-token steps, bills no write", () => {
    const model = new CacheModel(config.rules, config.prices);
    const segments = [...TOOLS, STABLE, ...ENV, ...messages(1)];
    const first = model.predict(request(segments, { model: "gpt-5.4-mini" }));
    expect(first.predicted).toEqual({
      inputTokens: 1950,
      cacheCreationInputTokens: 0,
      cacheReadInputTokens: 0,
    });
    const second = model.predict(request([...segments, ...messages(3).slice(1)], { model: "gpt-5.4-mini" }));
    // Common prefix 1,950 tokens → 1,024 + 7 × 128 = 1,920 read.
    expect(second.predicted).toEqual({
      inputTokens: 130,
      cacheCreationInputTokens: 0,
      cacheReadInputTokens: 1920,
    });
    expect(second.segments.find((s) => s.status === "uncached")!.reason).toContain("128-token step");
  });

  it("says so when no rules apply to the model", () => {
    const model = new CacheModel(config.rules, config.prices);
    const prediction = model.predict(request([...TOOLS, STABLE], { model: "qwen3:4b" }));
    expect(prediction.rules).toBe("none");
    expect(prediction.costUsd).toBeNull();
    expect(prediction.segments[0].reason).toContain("no caching rules");
  });
});

describe("cache model: one divergence per request", () => {
  it("a tool no longer sent is a tools change in both the strip's reason and the diagnostics", () => {
    // The last tool goes: the stable system slides into its place, and the change is still the tools'.
    const model = new CacheModel(config.rules, config.prices);
    model.predict(request([...TOOLS, STABLE, ...ENV, ...messages(1)]));
    const next = model.predict(request([TOOLS[0], STABLE, ...ENV, ...messages(2)], { runId: "run_2" }));
    expect(next.diagnostics).toMatchObject({ type: "tools_changed", toolsRemoved: ["read_file"] });
    const firstMiss = next.segments.find((segment) => segment.status !== "read");
    expect(firstMiss?.reason).toContain("tools changed: read_file no longer visible");
  });

  it("compares each request with the one before it, whatever its model, in both views", () => {
    const model = new CacheModel(config.rules, config.prices);
    model.predict(request([...TOOLS, STABLE, ...ENV, ...messages(1)], { breakpoints: "rolling" }));
    const other = model.predict(
      request([...TOOLS, STABLE, ...ENV, ...messages(2)], {
        model: "claude-opus-4-1",
        breakpoints: "rolling",
      }),
    );
    expect(other.diagnostics).toMatchObject({ type: "model_changed", comparedWith: index - 1 });
    expect(other.segments[0].reason).toBe(
      "written (1.25× input), model changed from claude-sonnet-4-5: caches are per model, nothing of claude-opus-4-1 cached yet",
    );
    // Back to the first model: its entry is still read, and what is not read is said against the request before.
    const back = model.predict(
      request([...TOOLS, STABLE, ...ENV, ...messages(3)], { breakpoints: "rolling" }),
    );
    expect(back.diagnostics).toMatchObject({ type: "model_changed", comparedWith: index - 1 });
    expect(back.segments[0].status).toBe("read");
    expect(back.segments.find((segment) => segment.status !== "read")?.reason).toContain(
      `model changed from claude-opus-4-1 since request #${index - 1}: caches are per model`,
    );
  });
});
