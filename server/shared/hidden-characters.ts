// Characters that make a command or path look different from what runs: control characters (C0 and C1
// except newline and tab, plus DEL), bidi overrides and isolates (U+202E turns `txt.exe` into `exe.txt` on
// screen; a right-to-left override can make `echo safe; touch X` look like a comment), zero-width and other
// format characters, line and paragraph separators, and the letters and marks that render as nothing or as
// a blank (variation selectors carry a byte each: "ASCII smuggling" in a URL; Hangul fillers; the
// combining grapheme joiner; Khmer's invisible vowels; the braille blank), and every
// space other than the ASCII one. SECURITY S13. The one table, shared by the server and the pages: the
// permission engine flags these in commands and paths, a skill name holding one is refused (S24), and
// the pages show each as a visible `\u202E` marker and warn, so what the user approves is what runs.

export type HiddenKind = "control" | "bidi" | "zero-width" | "blank";

export interface HiddenCharacter {
  /** The marker shown in place of the character, e.g. `\u202E` (the same spelling the server uses). */
  code: string;
  name: string;
  kind: HiddenKind;
}

export type EscapedPart = { kind: "text"; text: string } | { kind: "hidden"; character: HiddenCharacter };

// Every format character (\p{Cf}: bidi controls, zero-width characters, soft hyphen, invisible operators,
// tag characters) is in, not only the named ones, and every space but the ASCII one: the shell splits
// words only on ASCII blanks, so `echo hi\u00A0#\u00A0&& rm -rf x` reads as `echo hi` and a comment while
// `rm -rf x` runs.
const hiddenPattern =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\p{Cf}\u2028\u2029\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u2800\u17B4\u17B5\u034F\u115F\u1160\u3164\uFFA0\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/gu;

/** Kinds and names of the wider classes, for characters without a name of their own. */
function classOf(codePoint: number): [string, HiddenKind] | undefined {
  if (codePoint >= 0xe0000 && codePoint <= 0xe007f) return ["tag character", "zero-width"];
  if ((codePoint >= 0xfe00 && codePoint <= 0xfe0f) || (codePoint >= 0xe0100 && codePoint <= 0xe01ef))
    return ["variation selector", "zero-width"];
  if ([0x115f, 0x1160, 0x3164, 0xffa0].includes(codePoint)) return ["Hangul filler", "zero-width"];
  if (codePoint === 0x034f) return ["combining grapheme joiner", "zero-width"];
  if (codePoint === 0x17b4 || codePoint === 0x17b5) return ["Khmer invisible vowel", "zero-width"];
  if (codePoint === 0x2800) return ["braille blank", "blank"];
  // A space the shell does not split words on: `hi\u00A0#\u00A0&& rm x` looks like a comment, and is not.
  if (
    [0xa0, 0x1680, 0x202f, 0x205f, 0x3000].includes(codePoint) ||
    (codePoint >= 0x2000 && codePoint <= 0x200a)
  )
    return ["non-ASCII space (one word for the shell)", "blank"];
  // Line and paragraph separators break a line on screen where the shell sees none.
  if (codePoint === 0x2028) return ["line separator", "control"];
  if (codePoint === 0x2029) return ["paragraph separator", "control"];
  // The rest of \p{Cf} (soft hyphen, invisible operators, …); below U+00A0 only controls match.
  if (codePoint >= 0xa0) return ["invisible format character", "zero-width"];
  return undefined;
}

const names: Record<number, [string, HiddenKind]> = {
  0x0000: ["null", "control"],
  0x0007: ["bell", "control"],
  0x0008: ["backspace", "control"],
  0x000b: ["vertical tab", "control"],
  0x000c: ["form feed", "control"],
  0x000d: ["carriage return", "control"],
  0x001b: ["escape", "control"],
  0x007f: ["delete", "control"],
  0x061c: ["arabic letter mark", "bidi"],
  0x200b: ["zero-width space", "zero-width"],
  0x200c: ["zero-width non-joiner", "zero-width"],
  0x200d: ["zero-width joiner", "zero-width"],
  0x200e: ["left-to-right mark", "bidi"],
  0x200f: ["right-to-left mark", "bidi"],
  0x202a: ["left-to-right embedding", "bidi"],
  0x202b: ["right-to-left embedding", "bidi"],
  0x202c: ["pop directional formatting", "bidi"],
  0x202d: ["left-to-right override", "bidi"],
  0x202e: ["right-to-left override", "bidi"],
  0x2060: ["word joiner", "zero-width"],
  0x2066: ["left-to-right isolate", "bidi"],
  0x2067: ["right-to-left isolate", "bidi"],
  0x2068: ["first strong isolate", "bidi"],
  0x2069: ["pop directional isolate", "bidi"],
  0xfeff: ["zero-width no-break space", "zero-width"],
};

/**
 * `\u202E` for U+202E: four upper-case hex digits, as in a JavaScript string literal (`\u{E0041}` beyond
 * U+FFFF, as the server spells it).
 */
export function markerFor(codePoint: number): string {
  const hex = codePoint.toString(16).toUpperCase();
  return codePoint > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, "0")}`;
}

function characterFor(codePoint: number): HiddenCharacter {
  const known = names[codePoint] ?? classOf(codePoint);
  const code = markerFor(codePoint);
  if (known) return { code, name: known[0], kind: known[1] };
  return { code, name: codePoint >= 0x80 ? "C1 control character" : "control character", kind: "control" };
}

/** The text as plain runs and hidden characters, in order (for rendering the markers distinctly). */
export function splitHidden(text: string): EscapedPart[] {
  const parts: EscapedPart[] = [];
  let last = 0;
  for (const match of text.matchAll(hiddenPattern)) {
    const index = match.index;
    if (index > last) parts.push({ kind: "text", text: text.slice(last, index) });
    parts.push({ kind: "hidden", character: characterFor(match[0].codePointAt(0)!) });
    last = index + match[0].length;
  }
  if (last < text.length) parts.push({ kind: "text", text: text.slice(last) });
  return parts;
}

/** The text with every hidden character replaced by its marker (approval cards, the CLI, log views). */
export function escapeHiddenCharacters(text: string): string {
  return text.replace(hiddenPattern, (character) => markerFor(character.codePointAt(0)!));
}

/**
 * The distinct hidden characters in the given texts, in order of first appearance, plus any the server
 * reported (`PermissionTrace.hiddenCharacters`, spelled `\u202E`) that the page did not find itself.
 */
export function hiddenCharactersIn(
  texts: readonly (string | undefined)[],
  reported: readonly string[] = [],
): HiddenCharacter[] {
  const found = new Map<string, HiddenCharacter>();
  for (const text of texts) {
    if (!text) continue;
    for (const match of text.matchAll(hiddenPattern)) {
      const character = characterFor(match[0].codePointAt(0)!);
      if (!found.has(character.code)) found.set(character.code, character);
    }
  }
  for (const code of reported) {
    const parsed = /^\\u(?:([0-9a-fA-F]{4,6})|\{([0-9a-fA-F]{1,6})\})$/.exec(code);
    const character = parsed
      ? characterFor(Number.parseInt(parsed[1] ?? parsed[2]!, 16))
      : { code, name: "reported by the server", kind: "control" as const };
    if (!found.has(character.code)) found.set(character.code, character);
  }
  return [...found.values()];
}

/** The distinct hidden characters in the text, as markers (`\u202E`), in order of first appearance. */
export function findHiddenCharacters(text: string): string[] {
  return hiddenCharactersIn([text]).map((character) => character.code);
}

/** One warning line: how many, which, and what to do about it. */
export function hiddenWarning(characters: readonly HiddenCharacter[], subject = "command"): string {
  const count = characters.length;
  const list = characters.map((character) => `${character.code} ${character.name}`).join(", ");
  return (
    `This ${subject} contains ${count} hidden character${count === 1 ? "" : "s"} (${list}). ` +
    `They are shown as \\u… markers: read the escaped text, it is what runs.`
  );
}
