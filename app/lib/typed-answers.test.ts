// The manual composer's answer as it is stored for a reload: what it holds comes back, nothing typed
// stores nothing, and an entry it cannot read comes back empty instead of breaking the composer.
import { describe, expect, it } from "vitest";
import { parseManualAnswer, serializeManualAnswer } from "./typed-answers.ts";

describe("manual answer storage", () => {
  it("gives back the text (newlines and all) and the calls added", () => {
    const answer = {
      text: "I will load\nthe skill.",
      calls: [
        { name: "load_skill", input: { name: "csv-report" } },
        { name: "write_file", input: { path: "a.md", content: "# A\n\nbody\n" } },
      ],
    };
    expect(parseManualAnswer(serializeManualAnswer(answer))).toEqual(answer);
  });

  it("stores nothing when nothing is typed", () => {
    expect(serializeManualAnswer({ text: "", calls: [] })).toBe("");
    expect(serializeManualAnswer({ text: " ", calls: [] })).not.toBe("");
  });

  it("reads an entry written by hand or by another version as far as it can", () => {
    expect(parseManualAnswer("{not json")).toEqual({ text: "", calls: [] });
    expect(parseManualAnswer("null")).toEqual({ text: "", calls: [] });
    expect(parseManualAnswer('"text"')).toEqual({ text: "", calls: [] });
    expect(
      parseManualAnswer(
        JSON.stringify({
          text: 3,
          calls: [{ name: "a", input: 1 }, { name: 2, input: {} }, "x", { name: "b" }],
        }),
      ),
    ).toEqual({ text: "", calls: [{ name: "a", input: 1 }] });
  });
});
