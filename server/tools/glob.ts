import { linearRegExp, type LinearRegExp } from "../protocol/linear-regex.ts";

/**
 * A small glob compiler shared by list_files, search_code and permission rules. Globs come from the model
 * and from settings files, so the expression they compile to runs in the linear-time engine (S18): a glob
 * of many `*` compiles to `.*a.*a.*…`, which backtracks for minutes in RegExp on a long command line.
 *
 * Path style (`separatorAware: true`): `**` spans folders, `*` and `?` stay inside one path segment,
 * `{a,b}` alternatives, `[abc]` classes. Command style (`separatorAware: false`): `*` matches anything,
 * spaces and slashes included (`git status*`).
 */
export interface GlobOptions {
  separatorAware: boolean;
}

/** The glob as an anchored linear-time matcher. Throws PatternError for a glob it cannot compile. */
export function globToRegExp(pattern: string, options: GlobOptions = { separatorAware: true }): LinearRegExp {
  return linearRegExp(`^${translate(pattern, options.separatorAware)}$`, "s");
}

function translate(pattern: string, separatorAware: boolean): string {
  const anyInSegment = separatorAware ? "[^/]*" : ".*";
  const oneInSegment = separatorAware ? "[^/]" : ".";
  let out = "";
  let braceDepth = 0;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === "*") {
      if (separatorAware && pattern[index + 1] === "*") {
        const atSegmentStart = index === 0 || pattern[index - 1] === "/";
        index++;
        if (pattern[index + 1] === "/" && atSegmentStart) {
          // `**/` matches zero or more whole folders.
          index++;
          out += "(?:[^/]*/)*";
        } else {
          out += ".*";
        }
      } else {
        out += anyInSegment;
      }
    } else if (char === "?") {
      out += oneInSegment;
    } else if (char === "[") {
      const close = pattern.indexOf("]", index + 2);
      if (close < 0) {
        out += "\\[";
        continue;
      }
      let body = pattern.slice(index + 1, close);
      const negated = body.startsWith("!") || body.startsWith("^");
      if (negated) body = body.slice(1);
      out += `[${negated ? "^" : ""}${body.replace(/[\\\]]/g, "\\$&")}]`;
      index = close;
    } else if (char === "{") {
      braceDepth++;
      out += "(?:";
    } else if (char === "}" && braceDepth > 0) {
      braceDepth--;
      out += ")";
    } else if (char === "," && braceDepth > 0) {
      out += "|";
    } else if (char === "\\" && index + 1 < pattern.length) {
      index++;
      out += escapeRegExp(pattern[index]!);
    } else {
      out += escapeRegExp(char);
    }
  }
  // An unclosed `{` would leave an open group: close them so the pattern still compiles.
  out += ")".repeat(braceDepth);
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** Escapes glob characters so the text matches only itself (session rules remember exact commands). */
export function escapeGlob(text: string): string {
  return text.replace(/[*?[\]{}\\,]/g, "\\$&");
}
