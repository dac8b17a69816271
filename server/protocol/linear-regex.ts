// Regular expressions from sources the playground does not control run here, in RE2 (re2js, a pure
// JavaScript port): its matching time is linear in the input, whatever the pattern. JavaScript's RegExp
// backtracks, so `^(a+)+$` against 40 characters runs for hours, and since every session shares one event
// loop, one such pattern froze the whole server (SECURITY S18). The sources: JSON Schema `pattern` and
// `patternProperties` (a skill's tools.json, an MCP server's input and output schemas — through
// compileValidator), a scenario's or eval file's `match`, the model's search_code pattern, and globs
// (list_files, search_code, permission rules), which compile to regular expressions too.
//
// The rule: such a pattern is compiled by `linearRegExp` and nothing else. A pattern RE2 cannot honour
// (backreferences, lookahead, lookbehind, a repeat count over 1000) is refused with the reason — the
// caller names its file and field — and is never handed to RegExp instead.
//
// Patterns are written in JavaScript's syntax (JSON Schema's `pattern` is ECMA-262). Where RE2 reads the
// same text differently, the text is rewritten first so the match is JavaScript's: `.` does not match
// line terminators (\n \r \u2028 \u2029) unless the `s` flag is given, `\s` is JavaScript's whitespace
// (Unicode spaces and \ufeff included), named groups and \u escapes are translated by re2js.
import { RE2JS } from "re2js";

export interface LinearRegExp {
  /** The pattern as written. */
  readonly source: string;
  readonly flags: string;
  /** Whether the pattern matches anywhere in `text`, in time linear in its length. */
  test(text: string): boolean;
}

/** A pattern the linear-time engine cannot run, or that is not a valid regular expression. */
export class PatternError extends Error {
  constructor(
    readonly pattern: string,
    readonly reason: string,
  ) {
    super(`pattern ${JSON.stringify(pattern)} ${reason}`);
  }
}

/** JavaScript's `\s`: WhiteSpace and LineTerminator of ECMA-262, as a class body. */
const JS_SPACE = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";
const JS_NOT_LINE_TERMINATOR = "[^\\n\\r\\u2028\\u2029]";
const UNSUPPORTED =
  "cannot run in the linear-time regex engine (RE2), which has no backreferences, lookahead or lookbehind";

const FLAG_BITS: Record<string, number> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
  u: 0, // RE2 reads the pattern as Unicode code points always
};

/** Compiles `source` (JavaScript syntax; flags among `imsu`) for RE2. Throws PatternError. */
export function linearRegExp(source: string, flags = ""): LinearRegExp {
  let bits = 0;
  for (const flag of flags) {
    const bit = FLAG_BITS[flag];
    if (bit === undefined)
      throw new PatternError(source, `has the flag "${flag}", which is not supported here`);
    bits |= bit;
  }
  try {
    // Parsing only: a RegExp that is never executed cannot backtrack. It gives JavaScript's own verdict
    // on syntax, which RE2's parser would word differently or accept (`\A`, `\z`, `(?i)`).
    new RegExp(source, flags.includes("u") ? "u" : "");
  } catch (error) {
    throw new PatternError(source, `is not a valid regular expression: ${(error as Error).message}`);
  }
  const rewritten = rewriteForRe2(source, flags.includes("s"));
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(RE2JS.translateRegExp(rewritten), bits);
  } catch (error) {
    const message = (error as Error).message.replace(/^error parsing regexp: /, "");
    const reason = /invalid repeat count/.test(message)
      ? `${UNSUPPORTED}, nor repeat counts over 1000 (${message})`
      : `${UNSUPPORTED} (${message})`;
    throw new PatternError(source, reason);
  }
  return { source, flags, test: (text: string) => compiled.test(text) };
}

/** `linearRegExp`, or the reason it cannot be compiled. */
export function tryLinearRegExp(
  source: string,
  flags = "",
): { ok: true; regex: LinearRegExp } | { ok: false; error: PatternError } {
  try {
    return { ok: true, regex: linearRegExp(source, flags) };
  } catch (error) {
    if (error instanceof PatternError) return { ok: false, error };
    throw error;
  }
}

/**
 * Refuses what RE2 lacks, with a reason a user can act on, and rewrites `.` and `\s` to JavaScript's
 * meaning. `source` is already known to be valid JavaScript syntax.
 */
function rewriteForRe2(source: string, dotAll: boolean): string {
  let out = "";
  let inClass = false;
  for (let index = 0; index < source.length; index++) {
    const char = source[index]!;
    if (char === "\\") {
      const next = source[index + 1] ?? "";
      if (!inClass && /[1-9]/.test(next))
        throw new PatternError(source, `${UNSUPPORTED}: \\${next} is a backreference`);
      if (next === "k") throw new PatternError(source, `${UNSUPPORTED}: \\k<…> is a backreference`);
      if (next === "s") out += inClass ? JS_SPACE : `[${JS_SPACE}]`;
      else if (next === "b" && inClass)
        out += "\\x08"; // backspace inside a class, as in JavaScript
      else if (next === "S" && !inClass) out += `[^${JS_SPACE}]`;
      else out += char + next;
      index++;
      continue;
    }
    if (inClass) {
      if (char === "]") inClass = false;
      out += char;
      continue;
    }
    if (char === "[") inClass = true;
    else if (char === "(" && source[index + 1] === "?") {
      const kind = source.slice(index + 2, index + 4);
      if (kind.startsWith("=") || kind.startsWith("!"))
        throw new PatternError(source, `${UNSUPPORTED}: (?${kind[0]}…) is a lookahead`);
      if (kind === "<=" || kind === "<!")
        throw new PatternError(source, `${UNSUPPORTED}: (?${kind}…) is a lookbehind`);
    } else if (char === "." && !dotAll) {
      out += JS_NOT_LINE_TERMINATOR;
      continue;
    }
    out += char;
  }
  return out;
}
