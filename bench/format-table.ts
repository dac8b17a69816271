// Renders result rows as a plain-text table (for the terminal) and as Markdown (for the README).
import type { FigureRow } from "./harness.ts";

function formatNumber(value: number | null, unit: string): string {
  if (value === null) return "—";
  const magnitude = Math.abs(value);
  const digits = magnitude >= 1000 ? 0 : magnitude >= 100 ? 1 : magnitude >= 10 ? 2 : 3;
  const text = value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: 0 });
  return unit ? `${text} ${unit}` : text;
}

function formatRatio(ratio: number | null): string {
  return ratio === null ? "—" : `${ratio.toFixed(2)}×`;
}

function cells(row: FigureRow): string[] {
  return [
    row.figure,
    row.workload,
    formatNumber(row.median, row.unit),
    formatNumber(row.baselineMedian, row.unit),
    formatRatio(row.ratio),
    row.target,
    row.status,
  ];
}

const HEADER = ["figure", "workload", "median", "baseline median", "ratio", "target", "result"];

export function formatTable(rows: FigureRow[]): string {
  const table = [HEADER, ...rows.map(cells)];
  const widths = HEADER.map((_, column) => Math.max(...table.map((line) => [...line[column]].length)));
  const render = (line: string[]) =>
    line.map((cell, column) => cell.padEnd(widths[column] + cell.length - [...cell].length)).join("  ");
  const lines = [
    render(HEADER),
    widths.map((width) => "-".repeat(width)).join("  "),
    ...rows.map((row) => render(cells(row))),
  ];
  const notes = rows.filter((row) => row.note).map((row) => `- ${row.figure}: ${row.note}`);
  return notes.length > 0 ? `${lines.join("\n")}\n\nnotes:\n${notes.join("\n")}` : lines.join("\n");
}

export function formatMarkdownTable(rows: FigureRow[]): string {
  const escape = (cell: string) => cell.replace(/\|/g, "\\|");
  const lines = [`| ${HEADER.join(" | ")} |`, `|${HEADER.map(() => "---").join("|")}|`];
  for (const row of rows) lines.push(`| ${cells(row).map(escape).join(" | ")} |`);
  return lines.join("\n");
}
