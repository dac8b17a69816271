// A line diff of two texts (the `diff` library's diffLines), as numbered rows with long unchanged runs
// folded, for the compare view and the per-request diff. Pure.
import { diffLines } from "diff";

export type LineDiffRow =
  | { kind: "same" | "added" | "removed"; text: string; oldLine?: number; newLine?: number }
  | { kind: "folded"; count: number };

export interface LineDiff {
  rows: LineDiffRow[];
  added: number;
  removed: number;
  identical: boolean;
}

function splitLines(value: string): string[] {
  const lines = value.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Rows of the diff; unchanged runs longer than 2 × `context` keep `context` lines on each side. */
export function lineDiff(before: string, after: string, context = 3): LineDiff {
  const rows: LineDiffRow[] = [];
  let oldLine = 1;
  let newLine = 1;
  let added = 0;
  let removed = 0;
  const changes = diffLines(before, after);
  changes.forEach((change, index) => {
    const lines = splitLines(change.value);
    if (change.added) {
      for (const text of lines) rows.push({ kind: "added", text, newLine: newLine++ });
      added += lines.length;
      return;
    }
    if (change.removed) {
      for (const text of lines) rows.push({ kind: "removed", text, oldLine: oldLine++ });
      removed += lines.length;
      return;
    }
    const keepStart = index === 0 ? 0 : context;
    const keepEnd = index === changes.length - 1 ? 0 : context;
    if (lines.length > keepStart + keepEnd + 1) {
      lines.forEach((text, position) => {
        if (position < keepStart || position >= lines.length - keepEnd)
          rows.push({ kind: "same", text, oldLine: oldLine + position, newLine: newLine + position });
        else if (position === keepStart)
          rows.push({ kind: "folded", count: lines.length - keepStart - keepEnd });
      });
    } else {
      lines.forEach((text, position) =>
        rows.push({ kind: "same", text, oldLine: oldLine + position, newLine: newLine + position }),
      );
    }
    oldLine += lines.length;
    newLine += lines.length;
  });
  return { rows, added, removed, identical: added === 0 && removed === 0 };
}
