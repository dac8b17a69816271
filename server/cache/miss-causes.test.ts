// One vocabulary for cache misses: Anthropic's types, OpenAI's reasons and the cache model's divergences
// onto Claude Code's causes, and the check of a report against the prediction.
import { describe, expect, it } from "vitest";
import type { ReportedCacheDiagnostics } from "../protocol/cache-report.ts";
import { causeOfDivergence, causeOfReport, checkReport } from "./miss-causes.ts";

const report = (fields: Partial<ReportedCacheDiagnostics>): ReportedCacheDiagnostics => ({
  provider: "openai",
  comparedWith: "resp_0",
  outcome: "diverged",
  source: "test",
  ...fields,
});

describe("miss causes", () => {
  it("maps Anthropic's divergences and OpenAI's reasons onto Claude Code's causes", () => {
    expect(causeOfDivergence("system_changed")).toBe("system_prompt_changed");
    expect(causeOfDivergence("messages_changed")).toBe("messages_rewritten");
    expect(causeOfReport("tools_changed")).toBe("tools_changed");
    expect(causeOfReport("model_changed")).toBe("model_changed");
    expect(causeOfReport("input_changed")).toBe("messages_rewritten");
    expect(causeOfReport("context_compacted")).toBe("messages_rewritten");
    expect(causeOfReport("prompt_cache_key_changed")).toBe("likely_server_side");
    expect(causeOfReport("service_tier_changed")).toBe("likely_server_side");
    expect(causeOfReport("reasoning_effort_changed")).toBe("unknown");
  });

  it("OpenAI's input_changed agrees with a predicted system or messages change, not with a tools change", () => {
    const input = report({ type: "input_changed" });
    expect(checkReport({ type: "system_changed", missedInputTokens: 10 }, input).verdict).toBe("agree");
    expect(checkReport({ type: "messages_changed", missedInputTokens: 10 }, input).verdict).toBe("agree");
    expect(checkReport({ type: "tools_changed", missedInputTokens: 10 }, input).verdict).toBe("disagree");
  });

  it("a cache hit agrees only with no predicted divergence; no comparison gives no verdict", () => {
    expect(checkReport({ type: null, missedInputTokens: 0 }, report({ outcome: "same" })).verdict).toBe(
      "agree",
    );
    expect(
      checkReport({ type: "tools_changed", missedInputTokens: 5 }, report({ outcome: "same" })).verdict,
    ).toBe("disagree");
    expect(
      checkReport(
        { type: null, missedInputTokens: 0 },
        report({ outcome: "inconclusive", type: "unavailable" }),
      ),
    ).toMatchObject({
      verdict: "no_verdict",
      text: "provider: no verdict, it could not compare (unavailable); predicted no divergence",
    });
  });
});
