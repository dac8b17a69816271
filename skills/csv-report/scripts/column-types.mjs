// Counts, per column of a CSV file, how many cells look like each type (the cases of
// reference/column-types.md). Usage: node column-types.mjs <file.csv>. Read-only; prints one line per column.
// Cells are split by the same RFC 4180 parser profile_csv uses (parse-csv.mjs): a quoted "Widget, large"
// is one cell, never two.
import { readFileSync } from "node:fs";
import { parseCsv } from "./parse-csv.mjs";

const file = process.argv[2];
if (!file) {
  console.error("usage: node column-types.mjs <file.csv>");
  process.exit(2);
}
const [header, ...rows] = parseCsv(readFileSync(file, "utf8").replace(/^\uFEFF/, ""));
const kinds = [
  ["empty", (cell) => cell.trim() === ""],
  ["id-with-leading-zeros", (cell) => /^0\d+$/.test(cell)],
  ["integer", (cell) => /^-?\d+$/.test(cell)],
  ["decimal", (cell) => /^-?\d*\.\d+$/.test(cell)],
  ["currency", (cell) => /^-?[$€£][\d,]+(\.\d+)?$/.test(cell)],
  ["percentage", (cell) => /^-?\d+(\.\d+)?%$/.test(cell)],
  ["date", (cell) => /^\d{4}-\d{2}-\d{2}$/.test(cell)],
  ["flag", (cell) => /^(yes|no|true|false|y|n)$/i.test(cell)],
  ["text", () => true],
];
for (const [index, name] of (header ?? []).entries()) {
  const counts = new Map();
  for (const row of rows) {
    const cell = (row[index] ?? "").trim();
    const kind = kinds.find(([, test]) => test(cell))[0];
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  console.log(`${name}: ${[...counts].map(([kind, count]) => `${count} ${kind}`).join(", ")}`);
}
