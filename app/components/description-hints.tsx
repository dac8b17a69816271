// Description hints where the author works (issue 25): the lint's notes about a skill's description — no
// sign of when to use it, strong overlap with another skill (named) — on the skill card, in the skill
// detail and in the optimizer panel. The notes come from the catalog's lint (server/skills/lint.ts,
// description-overlap.ts); this only picks the description rules and shows them the same way everywhere.
"use client";
import type { LintNote } from "../../server/protocol/index.ts";

/** The lint rules about what a description says (the rest of the lint is about other fields). */
export const DESCRIPTION_RULES: ReadonlySet<string> = new Set(["description-no-when", "description-overlap"]);

export function descriptionHints(lint: readonly LintNote[] | undefined, skill: string): LintNote[] {
  return (lint ?? []).filter((note) => note.skill === skill && DESCRIPTION_RULES.has(note.rule));
}

export function DescriptionHints({
  notes,
  testId,
  compact = false,
}: {
  notes: readonly LintNote[];
  testId: string;
  /** One short line per note (the card); otherwise the whole message. */
  compact?: boolean;
}) {
  if (notes.length === 0) return null;
  return (
    <ul className="mt-0.5 space-y-0.5" data-testid={testId}>
      {notes.map((note) => (
        <li
          key={note.rule}
          className="text-xs text-amber-900"
          data-testid={`${testId}-${note.rule}`}
          title={`${note.rule}: ${note.message}`}
        >
          <span className="font-semibold">hint: </span>
          {compact ? shortHint(note) : note.message}
        </li>
      ))}
    </ul>
  );
}

function shortHint(note: LintNote): string {
  if (note.rule === "description-no-when") return "says what, not when to use it";
  // The overlap note names the other skill in quotes (description-overlap.ts).
  const other = /"([^"]+)"/.exec(note.message);
  return other ? `overlaps with ${other[1]}` : "overlaps with another skill";
}
