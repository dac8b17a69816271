// Code in a SKILL.md (fenced and indented blocks, inline spans) is example text, not the skill's claims
// about its folder: a regex like `\d+\.csv` or a formula like `H2SO4.md` there names no file. The
// resource lint reads the text with code blanked out. Markdown is read by marked's lexer (the same
// CommonMark reading the pages use), not by a hand-written pattern.
import { Lexer, marked, type Token } from "marked";

/** Cheap first look: text with no backtick, tilde fence or indented line has no code to blank. */
const MAYBE_CODE = /`|~~~|\n( {4}|\t)/;

/**
 * `text` with every code block and code span replaced by spaces, line breaks kept, so offsets and line
 * numbers of everything else are unchanged. Line endings are normalised to `\n` first (as marked does).
 */
export function blankCode(text: string): string {
  const source = text.replace(/\r\n?/g, "\n");
  if (!MAYBE_CODE.test(source)) return source;
  const ranges: [number, number][] = [];
  let cursor = 0;
  marked.walkTokens(Lexer.lex(source), (token: Token) => {
    if (token.type !== "code" && token.type !== "codespan") return;
    const start = source.indexOf(token.raw, cursor);
    if (start === -1) return; // not found verbatim: left as it is (the lint may then report it)
    ranges.push([start, start + token.raw.length]);
    cursor = start + token.raw.length;
  });
  if (ranges.length === 0) return source;
  let result = "";
  let last = 0;
  for (const [start, end] of ranges) {
    result += source.slice(last, start) + source.slice(start, end).replace(/[^\n]/g, " ");
    last = end;
  }
  return result + source.slice(last);
}
