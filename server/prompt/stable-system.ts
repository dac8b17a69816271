// The stable system: built once per run, identical bytes while the catalog is unchanged, so a provider's
// prompt cache can reuse it. It lists skills by name and description only (progressive disclosure);
// bodies arrive later through the environment, once the model asks for them with load_skill.
import type { DisclosureMode } from "../protocol/model.ts";
import type { PromptItem } from "../skills/types.ts";
import { byName } from "../protocol/names.ts";
import type { ClientProfileName } from "../protocol/trigger-lab.ts";
import { catalogBudget, describeBudget, listingLine } from "./catalog-budget.ts";
import { skillBlock } from "./skill-block.ts";

export interface SkillBody {
  name: string;
  /** The layer it came from, named in its block's opening tag (absent: left out of the tag). */
  source?: string;
  body: string;
  /** The arguments it was loaded with; eager mode shows them, since its body in the environment is omitted. */
  arguments?: string;
}

export interface StableSystemInput {
  skills: readonly PromptItem[];
  disclosure: DisclosureMode;
  /** Rendered bodies of every catalog skill; used only in eager mode. */
  eagerBodies?: readonly SkillBody[];
  /**
   * Optional (default off): trim the index as this client profile would, and say in the stable system
   * which skills were trimmed. Progressive mode only; without it the bytes are exactly as before.
   */
  listingBudget?: ListingBudget;
}

export interface ListingBudget {
  profile: ClientProfileName;
  /** Context window in tokens; absent: the profile's character fallback. */
  contextWindow?: number;
}

const BASE_INSTRUCTIONS = `You are PseudoClaude, a coding agent running in the PseudoClaude Playground. You help the user with tasks in their working directory: you read files, run commands and follow skills.

# How to work
- Work out what the user wants, then act with tools. Do not guess what a file says when you can read it.
- Call a tool only with the arguments its input schema describes. A failed call comes back as an error result: read it, fix the arguments or choose another approach.
- Tools that change files or run programs may need the user's approval. If a call is denied, do not repeat it unchanged: say what you wanted to do and carry on without it.
- Paths are relative to the working directory. Never try to reach files outside it.
- When the task is done, answer in plain text without calling any tool. Keep the answer short and concrete.`;

/** Deterministic order: by name, so the index never depends on scan or map order. */
function sortedByName<T extends { name: string }>(items: readonly T[]): T[] {
  return [...items].sort(byName);
}

/** Newlines in a description would break the one-line-per-skill index, so whitespace is folded. */
function foldedDescription(item: PromptItem): string {
  return item.description.replace(/\s+/g, " ").trim();
}

/** Characters of a description its index line keeps (Agent Skills' limit; the catalog keeps it whole). */
export const INDEX_DESCRIPTION_LIMIT = 1024;

/**
 * A description as its index line carries it: folded, cut at 1,024 characters (with `…`), and `<` / `>`
 * escaped, so a description cannot open or close a tag-like block of the prompt (Agent Skills client guide).
 */
function indexDescription(item: PromptItem): string {
  const folded = foldedDescription(item);
  const cut =
    folded.length > INDEX_DESCRIPTION_LIMIT ? `${folded.slice(0, INDEX_DESCRIPTION_LIMIT)}…` : folded;
  return cut.replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** One skill's line in the skills index (level 1 of disclosure). */
export function indexLine(item: PromptItem): string {
  return `- ${item.name}: ${indexDescription(item)}`;
}

/**
 * Each listed skill's line of the index, in index order: the lines the stable system carries, and whose
 * tokens the inspector shows per skill (one text, so one count).
 */
export function indexLineTexts(
  skills: readonly PromptItem[],
  budget: ListingBudget | undefined,
): { name: string; line: string }[] {
  if (!budget) return sortedByName(skills).map((item) => ({ name: item.name, line: indexLine(item) }));
  return catalogBudget({ items: skills, ...budget })
    .entries.filter((entry) => entry.listed)
    .map((entry) => ({ name: entry.name, line: listingLine(entry.name, entry.shown) }));
}

/** The index lines, trimmed by the listing budget when one is set, and the report line that says how. */
function indexLines(skills: readonly PromptItem[], budget: ListingBudget | undefined): string[] {
  const lines = indexLineTexts(skills, budget).map((entry) => entry.line);
  if (!budget) return lines;
  return [...lines, "", `(${describeBudget(catalogBudget({ items: skills, ...budget }))})`];
}

function progressiveSkillsSection(skills: readonly PromptItem[], budget?: ListingBudget): string {
  if (skills.length === 0) {
    return "# Skills\nNo skills are installed in this workspace. Use the system tools directly.";
  }
  return [
    "# Skills",
    "Skills are standard operating procedures (SOPs) for recurring tasks. Only their names and descriptions are listed here; a skill's full instructions are loaded on demand.",
    "",
    "Available skills:",
    ...indexLines(skills, budget),
    "",
    "How to use a skill:",
    "1. When a skill fits the user's task, call the `load_skill` tool with its `name` (and optional `arguments`) before you start the work.",
    '2. Its SOP then appears under "## Active Skills" in the environment message of your next request. Follow it step by step.',
    "3. A skill may bring its own tools. They are installed at once, but may only become visible to you from the user's next message on; until then use the system tools.",
    "4. Do not load a skill that does not fit, and do not load the same skill twice for one task.",
  ].join("\n");
}

function eagerSkillsSection(skills: readonly PromptItem[], bodies: readonly SkillBody[]): string {
  if (skills.length === 0) {
    return "# Skills\nNo skills are installed in this workspace. Use the system tools directly.";
  }
  const bodyByName = new Map(bodies.map((entry) => [entry.name, entry]));
  // One delimited block per SOP (skill-block.ts), as in the environment: a body's headings cannot end it.
  const sections = sortedByName(skills).map((item) => {
    const entry = bodyByName.get(item.name);
    const body = (entry?.body ?? "").trim();
    return skillBlock(item.name, entry?.source, `${foldedDescription(item)}\n\n${body}`);
  });
  return [
    "# Skills",
    "Skills are standard operating procedures (SOPs) for recurring tasks. Every skill's full SOP is included below (eager disclosure). Follow the one that fits the user's task. Calling `load_skill` is not needed to read an SOP; it still installs a skill's own tools, which may only become visible to you from the user's next message on.",
    "",
    sections.join("\n\n"),
  ].join("\n");
}

/** Base instructions + tool-use rules + the skills index (or, in eager mode, every body). */
export function buildStableSystem(input: StableSystemInput): string {
  const skills =
    input.disclosure === "eager"
      ? eagerSkillsSection(input.skills, input.eagerBodies ?? [])
      : progressiveSkillsSection(input.skills, input.listingBudget);
  return `${BASE_INSTRUCTIONS}\n\n${skills}\n`;
}
