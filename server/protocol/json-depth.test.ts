import { describe, expect, it } from "vitest";
import { jsonNestingDepth } from "./json-depth.ts";

/** The definition, a character at a time: a backslash inside a string skips the character after it. */
function depthByCharacter(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return deepest;
}

describe("jsonNestingDepth", () => {
  it("counts arrays and objects, not brackets inside strings, escaped quotes included", () => {
    expect(jsonNestingDepth('{"a":[1,{"b":"[[[{{"}]}', 64)).toBe(3);
    expect(jsonNestingDepth('["\\"[[", ["x"]]', 64)).toBe(2);
    expect(jsonNestingDepth('["\\\\", ["x"]]', 64)).toBe(2);
    expect(jsonNestingDepth('["\\\\\\"[", ["x"]]', 64)).toBe(2);
    expect(jsonNestingDepth("[[[", 64)).toBe(3);
  });

  it("stops once past the limit, and reads an unterminated string to the end", () => {
    expect(jsonNestingDepth("[".repeat(1000), 10)).toBe(11);
    expect(jsonNestingDepth('[["[[[[', 64)).toBe(2);
    expect(jsonNestingDepth('["\\', 64)).toBe(1);
  });

  it("agrees with the character-at-a-time definition on random texts of quotes, backslashes and brackets", () => {
    const alphabet = ['"', "\\", "[", "]", "{", "}", "a", ","];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let round = 0; round < 20_000; round++) {
      const length = Math.floor(next() * 24);
      const text = Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
      const limit = 1 + Math.floor(next() * 6);
      expect([text, jsonNestingDepth(text, limit)]).toEqual([text, depthByCharacter(text, limit)]);
    }
  });
});
