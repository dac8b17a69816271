// Token counts in linear time: text without a long run of one kind of character is counted exactly as
// gpt-tokenizer counts it; a long run is counted in pieces of MAX_RUN (the pieces' counts added up).
import { readFileSync } from "node:fs";
import path from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { countTokensBounded, MAX_RUN } from "./token-count.ts";

describe("countTokensBounded", () => {
  it("counts ordinary text (the README, code, numbers, CJK with punctuation) exactly", () => {
    const readme = readFileSync(path.join(import.meta.dirname, "..", "..", "README.md"), "utf8");
    for (const sample of [readme, "const x = 42; // twelve 123456789012", "你好，世界。今天天气很好。", ""])
      expect(countTokensBounded(sample)).toBe(countTokens(sample));
  });

  it("counts a run longer than MAX_RUN in pieces of MAX_RUN, never splitting a surrogate pair", () => {
    const run = "a".repeat(MAX_RUN * 3 + 5);
    const pieces = [0, 1, 2].map(() => countTokens("a".repeat(MAX_RUN)));
    expect(countTokensBounded(`x ${run}`)).toBe(
      countTokens(`x ${"a".repeat(MAX_RUN)}`) + pieces[1]! + pieces[2]! + countTokens("a".repeat(5)),
    );
    // Digit runs are split in threes by o200k itself; MAX_RUN is a multiple of 3, so cutting them is exact.
    const digits = "7".repeat(MAX_RUN * 4);
    expect(countTokensBounded(digits)).toBe(countTokens(digits));
    const emoji = "😀".repeat(MAX_RUN);
    expect(countTokensBounded(emoji)).toBe(countTokens(emoji));
  });
});
