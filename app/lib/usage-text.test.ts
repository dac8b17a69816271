import { describe, expect, it } from "vitest";
import { usageText } from "./usage-text.ts";

describe("usageText", () => {
  it("says a provider's numbers are its report", () => {
    expect(usageText({ inputTokens: 1200, outputTokens: 30, cacheReadInputTokens: 1000 })).toBe(
      "provider reports input 1200, output 30, cache read 1000",
    );
  });

  it("labels the scripted model's count as an estimate, with how it was made", () => {
    expect(
      usageText({
        outputTokens: 7,
        source: "estimate",
        estimate: "scripted model: streamed chunks, not tokens",
      }),
    ).toBe("estimated output 7 (scripted model: streamed chunks, not tokens)");
  });
});
