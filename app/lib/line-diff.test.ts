import { describe, expect, it } from "vitest";
import { lineDiff } from "./line-diff.ts";

describe("lineDiff", () => {
  it("numbers added and removed lines on their own side and folds long unchanged runs", () => {
    const before = ["a", "b", "c", "d", "e", "f", "g", "h", "- review: old text", "z"].join("\n") + "\n";
    const after = ["a", "b", "c", "d", "e", "f", "g", "h", "- review: new text", "z"].join("\n") + "\n";
    const diff = lineDiff(before, after, 2);
    expect(diff).toMatchObject({ added: 1, removed: 1, identical: false });
    expect(diff.rows).toEqual([
      { kind: "folded", count: 6 },
      { kind: "same", text: "g", oldLine: 7, newLine: 7 },
      { kind: "same", text: "h", oldLine: 8, newLine: 8 },
      { kind: "removed", text: "- review: old text", oldLine: 9 },
      { kind: "added", text: "- review: new text", newLine: 9 },
      { kind: "same", text: "z", oldLine: 10, newLine: 10 },
    ]);
  });

  it("says identical texts are identical", () => {
    expect(lineDiff("x\ny\n", "x\ny\n")).toMatchObject({ identical: true, added: 0, removed: 0 });
  });
});
