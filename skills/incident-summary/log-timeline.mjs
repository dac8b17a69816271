#!/usr/bin/env node
// log_timeline: reads {"path": "<workdir-relative log>", "levels"?: [...], "bucket_minutes"?: n,
// "max_lines"?: n} on stdin and prints an incident timeline: time span, counts per level, per-bucket
// counts of the chosen levels, the most repeated messages (numbers and ids normalised) and the first/last
// matching lines. Refuses paths outside the session workdir.
import { lstatSync, readFileSync, readlinkSync, realpathSync, statSync } from "node:fs";
import path from "node:path";

const MAX_BYTES = 50 * 1024 * 1024;
const LEVEL_PATTERN = /\b(FATAL|CRITICAL|ERROR|WARN(?:ING)?|INFO|DEBUG|TRACE)\b/i;
const TIME_PATTERN = /(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:[.,]\d+)?(Z|[+-]\d{2}:?\d{2})?/;

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

function normalizeLevel(level) {
  const upper = level.toUpperCase();
  if (upper === "WARNING") return "WARN";
  if (upper === "CRITICAL") return "FATAL";
  return upper;
}

/** Collapses ids and numbers so repeats of one failure group together. */
function signature(message) {
  return message
    .replace(/\b[0-9a-f]{8,}\b/gi, "<id>")
    .replace(/\b\d+(\.\d+)?\b/g, "<n>")
    .slice(0, 160);
}

const input = readInput();
const file = resolveInWorkdir(input.path);
const size = statSync(file).size;
if (size > MAX_BYTES) fail(`${input.path} is ${size} bytes; this tool reads logs up to ${MAX_BYTES} bytes`);
const wanted = new Set(
  (Array.isArray(input.levels) && input.levels.length ? input.levels : ["FATAL", "ERROR", "WARN"]).map(
    (level) => normalizeLevel(String(level)),
  ),
);
const bucketMinutes = Math.max(1, Math.min(Number(input.bucket_minutes ?? 1) || 1, 1440));
const maxLines = Math.max(1, Math.min(Number(input.max_lines ?? 20) || 20, 200));

const levelCounts = new Map();
const buckets = new Map();
const signatures = new Map();
const matches = [];
let first;
let last;
let untimed = 0;
const lines = readFileSync(file, "utf8")
  .split(/\r?\n/)
  .filter((line) => line.trim() !== "");
for (const [index, line] of lines.entries()) {
  const levelMatch = LEVEL_PATTERN.exec(line);
  const level = levelMatch ? normalizeLevel(levelMatch[1]) : "UNKNOWN";
  levelCounts.set(level, (levelCounts.get(level) ?? 0) + 1);
  const time = TIME_PATTERN.exec(line);
  const stamp = time ? `${time[1]}T${time[2].length === 5 ? `${time[2]}:00` : time[2]}` : undefined;
  if (stamp) {
    first ??= stamp;
    last = stamp;
  } else untimed++;
  if (!wanted.has(level)) continue;
  matches.push(`${index + 1}: ${line.trim()}`);
  if (stamp) {
    const minutes = Number(stamp.slice(11, 13)) * 60 + Number(stamp.slice(14, 16));
    const start = minutes - (minutes % bucketMinutes);
    const key = `${stamp.slice(0, 10)} ${String(Math.floor(start / 60)).padStart(2, "0")}:${String(start % 60).padStart(2, "0")}`;
    const bucket = buckets.get(key) ?? new Map();
    bucket.set(level, (bucket.get(level) ?? 0) + 1);
    buckets.set(key, bucket);
  }
  const message = levelMatch
    ? line.slice(levelMatch.index + levelMatch[0].length).replace(/^[\]:\s-]+/, "")
    : line;
  const key = `${level} ${signature(message)}`;
  signatures.set(key, (signatures.get(key) ?? 0) + 1);
}

const out = [`# Timeline of ${input.path}`, ""];
out.push(`- lines: ${lines.length}${untimed ? ` (${untimed} without a timestamp)` : ""}`);
out.push(`- span: ${first ? `${first} → ${last}` : "no timestamps found"}`);
out.push(
  `- levels: ${[...levelCounts]
    .sort((a, b) => b[1] - a[1])
    .map(([level, count]) => `${level} ${count}`)
    .join(", ")}`,
);
out.push(`- matching ${[...wanted].join("/")}: ${matches.length}`);
if (buckets.size) {
  out.push("", `## Per ${bucketMinutes} min`, "");
  for (const [key, bucket] of [...buckets].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    out.push(`- ${key}  ${[...bucket].map(([level, count]) => `${level} ${count}`).join(", ")}`);
  }
}
if (signatures.size) {
  out.push("", "## Most repeated", "");
  for (const [key, count] of [...signatures].sort((a, b) => b[1] - a[1]).slice(0, 8))
    out.push(`- ×${count} ${key}`);
}
if (matches.length) {
  out.push(
    "",
    `## First ${Math.min(maxLines, matches.length)} matching lines`,
    "",
    ...matches.slice(0, maxLines),
  );
  if (matches.length > maxLines)
    out.push(`… ${matches.length - maxLines} more; last: ${matches[matches.length - 1]}`);
}
process.stdout.write(`${out.join("\n")}\n`);
