// Markdown to sanitized HTML in steps that each hold the main thread briefly: the source is split into its
// top-level blocks once (the lexer), the blocks are turned into HTML a few at a time with a pause between
// groups, and the whole is sanitized at the end. A finished 10,000-word answer rendered in one go took the
// page's longest task; in steps, the page keeps painting and taking input while it renders.
//
// The HTML is the same as rendering the source in one call: the parser renders top-level blocks one after
// the other, each from its own tokens, and the link definitions the lexer found (reference-style links)
// travel with every group. Sanitizing stays one call over the whole HTML, so what DOMPurify keeps or
// removes does not depend on where a group ended.

/** A top-level block as the lexer gives it (marked's Token; only the fields used here). */
export interface BlockToken {
  type: string;
  raw: string;
}

/** The lexer's output: the blocks, plus the link definitions every group of them needs to render. */
export type BlockList = BlockToken[] & { links: Record<string, unknown> };

export interface MarkdownSteps {
  lex(markdown: string): BlockList;
  parse(blocks: BlockList): string;
  sanitize(html: string): string;
}

/** Time one step may take before the next group waits for the next task (well under the 50 ms long task). */
export const STEP_BUDGET_MS = 8;

/** A group of blocks that renders exactly like the same blocks inside the whole list (same link table). */
export function groupOf(blocks: BlockList, start: number, end: number): BlockList {
  return Object.assign(blocks.slice(start, end), { links: blocks.links });
}

/**
 * Renders `markdown`, calling `pause` before each step: the lexer and the sanitizer are one step each, parsing
 * is as many steps as it takes, each taking blocks until it has used its budget. `isCurrent` false stops the work early
 * (the text changed or the view went away) and the result is undefined.
 */
export async function renderInSteps(
  markdown: string,
  steps: MarkdownSteps,
  pause: () => Promise<void>,
  isCurrent: () => boolean = () => true,
  now: () => number = () => performance.now(),
  budgetMs = STEP_BUDGET_MS,
): Promise<string | undefined> {
  // Not in the task that asked for the render (a commit, its effects): that task has its own work.
  await pause();
  if (!isCurrent()) return undefined;
  const blocks = steps.lex(markdown);
  const parts: string[] = [];
  let start = 0;
  while (start < blocks.length) {
    await pause();
    if (!isCurrent()) return undefined;
    const began = now();
    let end = start;
    // At least one block a step, then as many as fit in the budget.
    do {
      parts.push(steps.parse(groupOf(blocks, end, end + 1)));
      end += 1;
    } while (end < blocks.length && now() - began < budgetMs);
    start = end;
  }
  await pause();
  if (!isCurrent()) return undefined;
  return steps.sanitize(parts.join(""));
}
