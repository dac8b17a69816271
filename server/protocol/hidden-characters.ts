// Characters that make a command or path look different from what runs: control characters (other than
// newline and tab), bidi overrides and isolates (U+202E turns `txt.exe` into `exe.txt` on screen),
// zero-width and other format characters, line and paragraph separators, and the letters and marks that
// render as nothing or as a blank (variation selectors carry a byte each: "ASCII smuggling" in a URL;
// Hangul fillers; the combining grapheme joiner). SECURITY S13. The one table: the permission engine
// flags these in commands and paths, and a skill name holding one is refused (S24).

const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u034F\u115F\u1160\u3164\uFFA0\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/gu;
const VISIBLE_CONTROLS = new Set(["\n", "\t"]);

/** `\u202E` for U+202E (astral characters as `\u{E0001}`). */
export function escapeCharacter(char: string): string {
  const code = char.codePointAt(0)!;
  return code > 0xffff
    ? `\\u{${code.toString(16).toUpperCase()}}`
    : `\\u${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The distinct hidden characters in the text, escaped, in order of first appearance. */
export function findHiddenCharacters(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(HIDDEN)) {
    if (!VISIBLE_CONTROLS.has(match[0])) found.add(escapeCharacter(match[0]));
  }
  return [...found];
}

/** The text with every hidden character replaced by its escape, for approval cards and the CLI. */
export function escapeHiddenCharacters(text: string): string {
  return text.replace(HIDDEN, (char) => (VISIBLE_CONTROLS.has(char) ? char : escapeCharacter(char)));
}
