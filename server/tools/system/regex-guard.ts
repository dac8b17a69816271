import vm from "node:vm";

/**
 * Runs a model-supplied regular expression over lines with a time limit. A regex like `(a+)+$` can
 * backtrack for minutes and would freeze the whole server (every session shares the event loop); vm's
 * timeout interrupts it. The regex is built inside the context so the loop makes no cross-realm calls.
 */
const context = vm.createContext({ text: "", source: "", flags: "", maxLineChars: 0 });
const script = new vm.Script(`{
  const regex = new RegExp(source, flags);
  const lines = text.split("\\n");
  const hits = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index].length > maxLineChars ? lines[index].slice(0, maxLineChars) : lines[index];
    if (regex.test(line)) hits.push(index);
  }
  hits;
}`);

export class RegexTimeout extends Error {}

/** Zero-based indexes of the lines of `text` matching the regex. Throws RegexTimeout past `timeoutMs`. */
export function matchingLineIndexes(
  text: string,
  regex: RegExp,
  timeoutMs: number,
  maxLineChars: number,
): number[] {
  context.text = text;
  context.source = regex.source;
  // Never g or y: a stateful lastIndex would skip matches between lines.
  context.flags = regex.flags.replace(/[gy]/g, "");
  context.maxLineChars = maxLineChars;
  try {
    const hits = script.runInContext(context, { timeout: Math.max(1, Math.floor(timeoutMs)) }) as number[];
    return Array.from(hits);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_SCRIPT_EXECUTION_TIMEOUT") {
      throw new RegexTimeout(`the regular expression ran longer than ${Math.floor(timeoutMs)} ms`);
    }
    throw error;
  } finally {
    context.text = "";
  }
}

/**
 * Indexes of `paths` matching a compiled glob, under the same time limit (a glob of many `*` compiles to a
 * regex that can backtrack too). Paths containing a newline cannot be joined safely and never match.
 */
export function matchingPathIndexes(paths: readonly string[], regex: RegExp, timeoutMs: number): number[] {
  // No paths: "".split("\n") would still be one empty line, which a glob like **/* matches.
  if (paths.length === 0) return [];
  const joinable = paths.map((entry) => (entry.includes("\n") ? "" : entry));
  const hits = matchingLineIndexes(joinable.join("\n"), regex, timeoutMs, Number.MAX_SAFE_INTEGER);
  return hits.filter((index) => !paths[index]!.includes("\n"));
}
