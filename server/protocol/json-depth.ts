/**
 * Deepest `[`/`{` nesting of a JSON text, counted outside strings, in one linear pass and without
 * recursion. Frames are checked with it before JSON.parse: a 1 MiB frame may nest 500,000 levels, which
 * parses fine but makes every recursive consumer (JSON.stringify of the event log, schema validation)
 * overflow the stack. Stops counting once `limit` is passed.
 */
export function jsonNestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index++; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return deepest;
}
