// Limits on the structured text a skill brings (its frontmatter, its tools.json), checked before that text
// is parsed. A skill folder is untrusted input (a cloned repository's `.PseudoClaude/skills` needs no
// trust), and parsers are recursive: a 400 KB frontmatter nested 200,000 deep kept the YAML parser busy
// for 3 s on the main thread before it overflowed the stack, and a tools.json schema nested as deep broke
// the schema compiler and with it the scan of every skill. Nesting is counted in one linear pass
// (jsonNestingDepth: `[`/`{` outside double-quoted strings, which for YAML counts flow collections).
import { jsonNestingDepth } from "../protocol/json-depth.ts";
import type { ParseProblem } from "./parse-skill.ts";

/**
 * A frontmatter holds a name, a description and a few fields; this is far more than any needs. Parsing is
 * superlinear in the number of keys (duplicate-key checks): 64 KiB of keys took 360 ms, this takes ~25 ms.
 */
export const MAX_FRONTMATTER_BYTES = 16 * 1024;
/** Levels of lists and mappings (`[`/`{`) a frontmatter or a tools.json may nest. */
export const MAX_SKILL_NESTING = 64;

/** Why a frontmatter (the YAML between the `---` lines) is refused before parsing, if it is. */
export function frontmatterLimitProblem(frontmatter: string): ParseProblem | undefined {
  const bytes = Buffer.byteLength(frontmatter);
  if (bytes > MAX_FRONTMATTER_BYTES)
    return {
      reason: `the YAML frontmatter is ${bytes} bytes; the limit is ${MAX_FRONTMATTER_BYTES} (put long text in the body)`,
      line: 1,
    };
  return nestingProblem(frontmatter, "the YAML frontmatter");
}

/** Why a text is refused for nesting too deep, if it is; `what` names it ("tools.json"). */
export function nestingProblem(text: string, what: string): ParseProblem | undefined {
  if (jsonNestingDepth(text, MAX_SKILL_NESTING) <= MAX_SKILL_NESTING) return undefined;
  return {
    reason: `${what} nests lists or mappings deeper than ${MAX_SKILL_NESTING} levels; the limit is ${MAX_SKILL_NESTING}`,
  };
}
