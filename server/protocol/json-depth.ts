/**
 * Deepest `[`/`{` nesting of a JSON text, counted outside strings, in one linear pass and without
 * recursion. Frames are checked with it before JSON.parse: a 1 MiB frame may nest 500,000 levels, which
 * parses fine but makes every recursive consumer (JSON.stringify of the event log, schema validation)
 * overflow the stack. Stops counting once `limit` is passed.
 *
 * Most of a log record's or a frame's characters are inside strings (messages, file contents), so a
 * string is crossed with indexOf to its next quote rather than a character at a time: that quote ends the
 * string unless an odd run of backslashes stands before it (each backslash escapes the next character).
 */
export function jsonNestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      index = stringEnd(text, index);
      if (index === -1) return deepest;
    } else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return deepest;
}

/** The index of the quote that ends the string opened at `open`, or -1 when the text ends first. */
function stringEnd(text: string, open: number): number {
  let quote = text.indexOf('"', open + 1);
  while (quote !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return -1;
}
