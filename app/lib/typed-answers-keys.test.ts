// Which kept typing (a deny reason, a manual answer) is dropped, and under which key it is kept.
import { describe, expect, it } from "vitest";
import { keysGone, typedKey } from "./typed-answers.ts";

describe("typedKey", () => {
  it("keeps each session, run and pending thing apart, whatever characters an id holds", () => {
    const keys = [
      typedKey("s1", "r1", "c1"),
      typedKey("s2", "r1", "c1"),
      typedKey("s1", "r2", "c1"),
      typedKey("s1", "r1", "c2"),
      // A call id may hold the separators a joined key would use.
      typedKey("s1", "r1\u0000c1", ""),
      typedKey("s1", "r1", 1),
      typedKey("s1", "r1", "1"),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(typedKey("s1", "r1", 1)).toBe(typedKey("s1", "r1", 1));
  });
});

describe("keysGone", () => {
  const view = "s1 4";
  it("names the keys that left the same view", () => {
    expect(keysGone([view, "a", "b"], [view, "b"])).toEqual(["a"]);
    expect(keysGone([view, "a", "b"], [view, "b", "c"])).toEqual(["a"]);
    expect(keysGone([view, "a"], [view, "a"])).toEqual([]);
  });

  it("names none when the view starts again: another session, a fresh snapshot, or none yet", () => {
    expect(keysGone([view, "a"], ["s2 9"])).toEqual([]);
    expect(keysGone([view, "a"], ["s1 12"])).toEqual([]);
    expect(keysGone([view, "a"], [])).toEqual([]);
    expect(keysGone([], [view])).toEqual([]);
  });
});
