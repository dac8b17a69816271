#!/usr/bin/env node
// profile_csv: reads {"path": "<workdir-relative CSV>", "sample_rows"?: n} on stdin and prints a Markdown
// profile: row count, and per column the inferred type, empty cells, distinct values, min/max/mean or the
// most common values. Refuses paths outside the session workdir (PSEUDOCLAUDE_WORKDIR).
import { lstatSync, readFileSync, readlinkSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { guessDelimiter, parseCsv } from "./scripts/parse-csv.mjs";

const MAX_BYTES = 20 * 1024 * 1024;

function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function readInput() {
  const text = readFileSync(0, "utf8");
  try {
    return text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    fail("input must be a JSON object");
  }
}

/** Resolves a workdir-relative path and refuses anything whose realpath is outside the workdir. */
function resolveInWorkdir(relative) {
  const workdir = process.env.PSEUDOCLAUDE_WORKDIR;
  if (!workdir) fail("PSEUDOCLAUDE_WORKDIR is not set: this tool must be run by the playground");
  if (typeof relative !== "string" || relative === "" || relative.includes("\0"))
    fail('"path" must be a non-empty string');
  const root = realpathSync(workdir);
  const outside = (candidate) => {
    const rel = path.relative(root, candidate);
    return rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
  };
  const lexical = path.resolve(root, relative);
  if (outside(lexical)) fail(`refused: ${relative} is outside the workdir`);
  let target;
  try {
    target = realpathSync(lexical);
  } catch {
    // In the sandbox a symlink to a place outside may dangle (that place is hidden): say where it points.
    const link = symlinkTarget(lexical);
    if (link !== undefined && outside(link))
      fail(`refused: ${relative} is outside the workdir (a symlink to ${link})`);
    fail(`no such file in the workdir: ${relative}`);
  }
  if (outside(target)) fail(`refused: ${relative} is outside the workdir`);
  return target;
}

/** Where a symlink points (resolved against its folder), or undefined when the path is not a symlink. */
function symlinkTarget(candidate) {
  try {
    if (!lstatSync(candidate).isSymbolicLink()) return undefined;
    return path.resolve(path.dirname(candidate), readlinkSync(candidate));
  } catch {
    return undefined;
  }
}

function columnType(values) {
  if (values.length === 0) return "empty";
  // Digits with leading zeros are identifiers (reference/column-types.md): text, never averaged.
  if (values.some((value) => /^0\d+$/.test(value))) return "text";
  if (values.every((value) => /^-?\d+$/.test(value))) return "integer";
  if (values.every((value) => /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(value))) return "number";
  if (values.every((value) => /^(true|false|yes|no)$/i.test(value))) return "boolean";
  if (values.every((value) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+Z?)?$/.test(value))) return "date";
  return "text";
}

/** Keeps Markdown table cells intact when a value contains a pipe or a newline. */
function cell(text) {
  return String(text).replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

function formatNumber(value) {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

function describeColumn(name, values) {
  const present = values.filter((value) => value.trim() !== "").map((value) => value.trim());
  const type = columnType(present);
  const distinct = new Set(present).size;
  let summary;
  if (type === "integer" || type === "number") {
    const numbers = present.map(Number);
    const sum = numbers.reduce((total, value) => total + value, 0);
    summary = `min ${formatNumber(Math.min(...numbers))}, max ${formatNumber(Math.max(...numbers))}, mean ${formatNumber(sum / numbers.length)}, sum ${formatNumber(sum)}`;
  } else if (type === "date") {
    const sorted = [...present].sort();
    summary = `from ${sorted[0]} to ${sorted[sorted.length - 1]}`;
  } else {
    const counts = new Map();
    for (const value of present) counts.set(value, (counts.get(value) ?? 0) + 1);
    const top = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 3);
    summary = top.length
      ? `top: ${top.map(([value, count]) => `${JSON.stringify(value)} ×${count}`).join(", ")}`
      : "";
  }
  const empty = values.length - present.length;
  return `| ${cell(name)} | ${type} | ${empty} | ${distinct} | ${cell(summary)} |`;
}

const input = readInput();
const file = resolveInWorkdir(input.path);
const size = statSync(file).size;
if (size > MAX_BYTES)
  fail(`${input.path} is ${size} bytes; this tool profiles files up to ${MAX_BYTES} bytes`);
const text = readFileSync(file, "utf8").replace(/^\uFEFF/, "");
const delimiter = guessDelimiter(text.split(/\r?\n/, 1)[0] ?? "");
const rows = parseCsv(text, delimiter);
if (rows.length === 0) fail(`${input.path} is empty`);
const [header, ...records] = rows;
const ragged = records.filter((record) => record.length !== header.length).length;
const sampleCount = Math.max(0, Math.min(Number(input.sample_rows ?? 3) || 0, 20));

const lines = [
  `# Profile of ${input.path}`,
  "",
  `- rows: ${records.length} (plus a header row)`,
  `- columns: ${header.length}`,
  `- delimiter: ${JSON.stringify(delimiter)}`,
  ...(ragged ? [`- warning: ${ragged} rows do not have ${header.length} fields`] : []),
  "",
  "| column | type | empty | distinct | summary |",
  "|---|---|---|---|---|",
  ...header.map((name, index) =>
    describeColumn(
      name || `(column ${index + 1})`,
      records.map((record) => record[index] ?? ""),
    ),
  ),
];
if (sampleCount > 0) {
  lines.push(
    "",
    `First ${Math.min(sampleCount, records.length)} rows:`,
    "",
    `| ${header.map(cell).join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
  );
  for (const record of records.slice(0, sampleCount)) lines.push(`| ${record.map(cell).join(" | ")} |`);
}
process.stdout.write(`${lines.join("\n")}\n`);
