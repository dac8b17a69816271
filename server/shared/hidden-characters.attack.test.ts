import { describe, expect, it } from "vitest";
import { escapeHiddenCharacters, hiddenCharactersIn, splitHidden } from "./hidden-characters.ts";

// What the server reports as hidden (the same table) must also be visible on the
// card: a warning about characters the escaped text does not show is no help.
describe("hidden characters the server reports are marked in the text too", () => {
  it.each([
    ["a tag character (ASCII smuggling)", "\u{E0041}", "\\u{E0041}"],
    ["a variation selector", "\u{E0100}", "\\u{E0100}"],
    ["a soft hyphen", "\u00AD", "\\u00AD"],
    ["an invisible operator", "\u2062", "\\u2062"],
    ["a Hangul filler", "\u3164", "\\u3164"],
    ["a no-break space (one word for the shell)", "\u00A0", "\\u00A0"],
    ["a braille blank", "\u2800", "\\u2800"],
  ])("%s", (_name, character, marker) => {
    expect(escapeHiddenCharacters(`curl x${character}y`)).toBe(`curl x${marker}y`);
    expect(splitHidden(character)).toHaveLength(1);
    expect(hiddenCharactersIn([character]).map((found) => found.code)).toEqual([marker]);
  });

  it("a reported astral character in the server's spelling is named, not 'reported by the server'", () => {
    expect(hiddenCharactersIn([], ["\\u{E0041}"])[0]?.name).not.toBe("reported by the server");
  });
});
