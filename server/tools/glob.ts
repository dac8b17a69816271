// Globs for list_files, search_code and permission rules, read by picomatch (the glob parser behind
// micromatch and fast-glob) and run in the linear-time engine (S18). Globs come from the model and from
// settings files: a glob of many `*` compiles to `[^/]*?a[^/]*?a…`, which backtracks for minutes in
// RegExp on a long command line, so picomatch's regular expression is never handed to RegExp to run:
// `linearRegExp` compiles it for RE2, or refuses it with the reason.
//
// Path style (`separatorAware: true`): `*` and `?` stay inside one path segment, `**` alone in a segment
// spans folders, `{a,b}` alternatives, `{1..9}` ranges, `[abc]`, `[!abc]` and `[[:alpha:]]` classes.
// Command style (`separatorAware: false`): the same syntax over text that is not a path — `*` and `?`
// match `/` too (`git status*`, `rm *`).
//
// Where the rules part from picomatch's defaults, and why:
// - Dot files and `.`/`..` segments match like any other name (`dot: true`, and picomatch's lookarounds
//   that keep `*` off `.` and `..` are dropped): RE2 has no lookaround, and a deny rule must not be
//   dodged by writing `src/../src/x` or a dot file.
// - Parentheses, `|` and double quotes are literal, as in a file name or a command: picomatch reads them as
//   regex groups and quoting, so `allow run_command(grep a|b *)` would allow every command starting `b `.
// - `!` and extglobs (`+(…)`, `@(…)`) are literal (`nonegate`, `noextglob`): a rule's text is a pattern to
//   match, never a regular expression or a negation.
// - A glob picomatch cannot make a valid expression of (`[z-a]`, an unclosed `{`) is a PatternError with
//   the reason, not a pattern that silently matches nothing (picomatch's `makeRe` returns /$^/).
import fillRange from "fill-range";
import picomatch from "picomatch";
import { PatternError, linearRegExp, type LinearRegExp } from "../protocol/linear-regex.ts";

export interface GlobOptions {
  separatorAware: boolean;
}

/**
 * picomatch's lookarounds (picomatch/lib/constants.js, POSIX separators): not a `.`/`..` segment, not a
 * dot file, and "a character follows" before a `*` that starts a segment. Each keeps a wildcard off what
 * the rules match like any other name (see above); any other lookaround left in a glob's expression
 * makes linearRegExp refuse it.
 */
const DROPPED_LOOKAROUNDS = [
  "(?!(?:^|\\/)\\.{1,2}(?:\\/|$))",
  "(?!\\.{1,2}(?:\\/|$))",
  "(?!\\.{0,1}(?:\\/|$))",
  "(?!\\.)",
  "(?=.)",
];

/**
 * Command style gives `/` no meaning: it is swapped for this character in the glob and in the text, so
 * picomatch sees one segment. A control character: no call with one is ever allowed by a rule (S13), and
 * in a deny or ask rule's text it only widens what `/` matches.
 */
const SLASH_STAND_IN = "\u0001";

const PICOMATCH_OPTIONS: picomatch.PicomatchOptions = {
  dot: true,
  nonegate: true,
  noextglob: true,
  windows: false,
  strictSlashes: true,
  literalBrackets: false,
  posix: true,
  expandRange: braceRange as unknown as picomatch.PicomatchOptions["expandRange"],
};

/** The glob as an anchored linear-time matcher. Throws PatternError for a glob it cannot compile. */
export function globToRegExp(pattern: string, options: GlobOptions = { separatorAware: true }): LinearRegExp {
  if (!options.separatorAware && pattern.includes(SLASH_STAND_IN))
    throw new PatternError(pattern, "holds the control character U+0001");
  const glob = options.separatorAware ? pattern : pattern.replaceAll("/", SLASH_STAND_IN);
  let output: string;
  try {
    output = picomatch.parse(literalGroups(glob), PICOMATCH_OPTIONS).output;
  } catch (error) {
    if (error instanceof PatternError) throw new PatternError(pattern, error.reason);
    throw new PatternError(pattern, `is not a glob picomatch can read: ${(error as Error).message}`);
  }
  for (const lookaround of DROPPED_LOOKAROUNDS) output = output.replaceAll(lookaround, "");
  let matcher: LinearRegExp;
  try {
    matcher = linearRegExp(`^(?:${output})$`, "s");
  } catch (error) {
    if (error instanceof PatternError) throw new PatternError(pattern, error.reason);
    throw error;
  }
  if (options.separatorAware) return { ...matcher, source: pattern };
  return {
    source: pattern,
    flags: matcher.flags,
    test: (text) => matcher.test(text.replaceAll("/", SLASH_STAND_IN)),
  };
}

/**
 * Before picomatch reads the glob: the parentheses, `|` and double quotes it would read as groups or
 * quoting are escaped, and three or more `*` become one — picomatch's documented meaning ("more than two
 * consecutive stars … are regarded as a single star"), applied first because its parser leaves the `.`
 * after `***` unescaped (`***..` matched `.a`).
 */
function literalGroups(glob: string): string {
  return glob.replace(/\\[\s\S]|[()|"]|\*{3,}/g, (match) => {
    if (match.startsWith("*")) return "*";
    return match.length === 2 ? match : `\\${match}`;
  });
}

/**
 * `{1..12}`, `{a..z}`: fill-range's expression for the range (numbers by value, not one alternative per
 * number). A step (`{1..9..2}`) is refused: fill-range lists every member then, and `{1..1000000000..1}`
 * would stall the server building the list.
 */
function braceRange(...args: unknown[]): string {
  const bounds = args.slice(0, -1);
  const shown = `{${bounds.join("..")}}`;
  if (bounds.length !== 2) throw new PatternError(shown, "is a range with a step, which is not supported");
  const [start, end] = bounds as [string, string];
  let expression: unknown;
  try {
    expression = fillRange(start, end, { toRegex: true });
  } catch (error) {
    throw new PatternError(shown, `is not a range: ${(error as Error).message}`);
  }
  if (typeof expression !== "string" || expression === "")
    throw new PatternError(shown, "is not a range of numbers or of single letters");
  return `(?:${expression})`;
}

/** Escapes glob characters so the text matches only itself (session rules remember exact commands). */
export function escapeGlob(text: string): string {
  return text.replace(/[*?[\]{}\\,()|"]/g, "\\$&");
}
