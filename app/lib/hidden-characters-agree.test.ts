// The pages may import only types from the server (DESIGN §2), so the card's escaping (app/lib) and the
// engine's decision (server/permission) each hold the table of hidden characters. This keeps them equal:
// every code point the engine refuses to allow by rule is shown escaped on the card, and nothing else is.
import { describe, expect, it } from "vitest";
import { escapeHiddenCharacters } from "../../server/permission/hidden-characters.ts";
import { escapeHidden } from "./hidden-characters.ts";

describe("hidden characters: the card and the engine agree", () => {
  it("on every code point", () => {
    const disagreements: string[] = [];
    for (let code = 0; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue; // lone surrogates are not characters
      const char = String.fromCodePoint(code);
      if (escapeHidden(char) !== escapeHiddenCharacters(char)) {
        disagreements.push(
          `U+${code.toString(16).toUpperCase()}: card ${escapeHidden(char)} engine ${escapeHiddenCharacters(char)}`,
        );
        if (disagreements.length >= 20) break;
      }
    }
    expect(disagreements).toEqual([]);
  });
});
