// Whether a command is shaped so that the approval card's scrolling box may not show all of it: many
// lines, blank lines, a long run of blanks, or sheer length. The card then says so above the buttons.
import { formatCount } from "../../server/shared/figures.ts";

/** More lines than this, or any blank line among more than this many, deserve a warning. */
const MAX_QUIET_LINES = 8;
/** A run of spaces or tabs this long can push the rest of a line out of view. */
const MAX_QUIET_BLANKS = 24;
/** About what the box shows without scrolling. */
const MAX_QUIET_CHARACTERS = 1200;

export function commandShapeWarning(command: string): string | undefined {
  const lines = command.split(/\r\n|\r|\n/);
  const blank = lines.filter((line) => line.trim() === "").length;
  const longestRun = Math.max(0, ...[...command.matchAll(/[ \t]+/g)].map((match) => match[0].length));
  const parts: string[] = [];
  if (lines.length > MAX_QUIET_LINES || (blank > 0 && lines.length > 2))
    parts.push(`${lines.length} lines${blank > 0 ? ` (${blank} blank)` : ""}`);
  if (longestRun >= MAX_QUIET_BLANKS) parts.push(`a run of ${longestRun} blanks`);
  if (command.length > MAX_QUIET_CHARACTERS) parts.push(`${formatCount(command.length)} characters`);
  if (parts.length === 0) return undefined;
  return `This command has ${parts.join(", ")}: scroll the box and read all of it, every line runs.`;
}
