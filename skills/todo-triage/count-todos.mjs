#!/usr/bin/env node
// count_todos: reads {"path"?: ".", "markers"?: ["TODO", ...], "max_items"?: n} on stdin and prints every
// TODO-style marker under that workdir path (file:line and the comment), with counts per marker and per
// file. Skips .git, node_modules, build output and binary files. Refuses paths outside the workdir.
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";

const DEFAULT_MARKERS = ["TODO", "FIXME", "HACK", "XXX", "BUG"];
const SKIP_FOLDERS = new Set([
  ".git",
  "node_modules",
  ".next",
  "dist",
  "build",
  "coverage",
  ".PseudoClaude",
  "out",
]);
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const MAX_FILES = 20_000;

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

function resolveInWorkdir(relative) {
  const workdir = process.env.PSEUDOCLAUDE_WORKDIR;
  if (!workdir) fail("PSEUDOCLAUDE_WORKDIR is not set: this tool must be run by the playground");
  if (typeof relative !== "string" || relative === "" || relative.includes("\0"))
    fail('"path" must be a non-empty string');
  const root = realpathSync(workdir);
  let target;
  try {
    target = realpathSync(path.resolve(root, relative));
  } catch {
    fail(`no such path in the workdir: ${relative}`);
  }
  const rel = path.relative(root, target);
  if (rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel))
    fail(`refused: ${relative} is outside the workdir`);
  return { root, target };
}

function* walk(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : 1,
  )) {
    const full = path.join(folder, entry.name);
    // Symlinks are not followed: they could lead out of the workdir.
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) {
      if (!SKIP_FOLDERS.has(entry.name)) yield* walk(full);
    } else if (entry.isFile()) yield full;
  }
}

const input = readInput();
const markers =
  Array.isArray(input.markers) && input.markers.length ? input.markers.map(String) : DEFAULT_MARKERS;
const maxItems = Math.max(1, Math.min(Number(input.max_items ?? 200) || 200, 1000));
const { root, target } = resolveInWorkdir(input.path ?? ".");
const escaped = markers.map((marker) => marker.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
// A marker counts as a word followed by ":" / "(" / whitespace, so "TODOS" or "todoList" do not match.
// An optional owner in parentheses is kept: "FIXME(bob): overflow" → "FIXME (bob) overflow".
const pattern = new RegExp(`\\b(${escaped.join("|")})\\b(?:\\(([^)]*)\\))?:?\\s*(.*)$`);

const files = statSync(target).isDirectory() ? walk(target) : [target];
const items = [];
const perMarker = new Map(markers.map((marker) => [marker, 0]));
const perFile = new Map();
let scanned = 0;
for (const file of files) {
  if (++scanned > MAX_FILES) break;
  if (lstatSync(file).size > MAX_FILE_BYTES) continue;
  const buffer = readFileSync(file);
  if (buffer.subarray(0, 8000).includes(0)) continue;
  const lines = buffer.toString("utf8").split(/\r?\n/);
  lines.forEach((line, index) => {
    const match = pattern.exec(line);
    if (!match) return;
    const relative = path.relative(root, file) || path.basename(file);
    perMarker.set(match[1], (perMarker.get(match[1]) ?? 0) + 1);
    perFile.set(relative, (perFile.get(relative) ?? 0) + 1);
    const owner = match[2] ? ` (${match[2]})` : "";
    items.push(`${relative}:${index + 1}: ${match[1]}${owner} ${match[3].replace(/\*\/\s*$/, "").trim()}`);
  });
}

const total = items.length;
const out = [
  `${total} markers in ${scanned > MAX_FILES ? `the first ${MAX_FILES}` : scanned} files under ${path.relative(root, target) || "."}`,
];
if (total > 0) {
  out.push(
    "",
    "By marker: " +
      [...perMarker]
        .filter(([, count]) => count > 0)
        .map(([marker, count]) => `${marker} ${count}`)
        .join(", "),
  );
  out.push(
    "By file: " +
      [...perFile]
        .sort((a, b) => b[1] - a[1])
        .map(([file, count]) => `${file} ${count}`)
        .join(", "),
  );
  out.push("", ...items.slice(0, maxItems));
  if (total > maxItems) out.push(`… ${total - maxItems} more (raise max_items to see them)`);
}
process.stdout.write(`${out.join("\n")}\n`);
