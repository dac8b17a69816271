#!/usr/bin/env node
// git_log_summary: reads {"range"?: "v1.2.0..HEAD", "since"?: "2 weeks ago", "path"?: "src", "max"?: 200}
// on stdin, runs `git log` in the session workdir (no shell) and prints the commits grouped by
// Conventional Commit type, with breaking changes first, authors, and the latest tags.
import { execFileSync } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";

const TYPES = [
  ["feat", "Features"],
  ["fix", "Fixes"],
  ["perf", "Performance"],
  ["refactor", "Refactoring"],
  ["docs", "Documentation"],
  ["test", "Tests"],
  ["build", "Build"],
  ["ci", "CI"],
  ["chore", "Chores"],
  ["style", "Style"],
  ["revert", "Reverts"],
];

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

/** Values passed to git must never be read as options (`--output=...` would write files). */
function safeArgument(value, field) {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string" || value.startsWith("-") || value.includes("\0") || value.includes("\n")) {
    fail(`"${field}" must be a plain string that does not start with "-"`);
  }
  return value;
}

function git(workdir, args) {
  try {
    return execFileSync("git", ["-C", workdir, ...args], {
      encoding: "utf8",
      maxBuffer: 32 * 1024 * 1024,
      stdio: ["ignore", "pipe", "pipe"],
      // Stop git from climbing above the workdir: a workdir nested in another repo has no history of its own.
      env: { ...process.env, GIT_CEILING_DIRECTORIES: path.dirname(workdir) },
    });
  } catch (error) {
    const stderr = String(error.stderr ?? error.message).trim();
    if (/not a git repository/i.test(stderr))
      fail(`the workdir is not a git repository (${workdir}); there is no history to summarise`);
    fail(`git ${args[0]} failed: ${stderr}`);
  }
}

const input = readInput();
const workdirEnv = process.env.PSEUDOCLAUDE_WORKDIR;
if (!workdirEnv) fail("PSEUDOCLAUDE_WORKDIR is not set: this tool must be run by the playground");
const workdir = realpathSync(workdirEnv);
const range = safeArgument(input.range, "range");
const since = safeArgument(input.since, "since");
const scope = safeArgument(input.path, "path");
if (scope) {
  const target = path.resolve(workdir, scope);
  const rel = path.relative(workdir, target);
  if (rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel))
    fail(`refused: ${scope} is outside the workdir`);
}
const max = Math.max(1, Math.min(Number(input.max ?? 200) || 200, 2000));

const args = [
  "log",
  "--no-merges",
  "--date=short",
  `--max-count=${max}`,
  "--pretty=format:%h%x1f%ad%x1f%an%x1f%s%x1f%b%x1e",
];
if (since) args.push(`--since=${since}`);
if (range) args.push(range);
args.push("--");
if (scope) args.push(scope);

const commits = git(workdir, args)
  .split("\x1e")
  .map((record) => record.trim())
  .filter(Boolean)
  .map((record) => {
    const [hash, date, author, subject, body = ""] = record.split("\x1f");
    const match = /^(\w+)(\(([^)]*)\))?(!)?:\s*(.*)$/.exec(subject);
    const type =
      match && TYPES.some(([known]) => known === match[1].toLowerCase()) ? match[1].toLowerCase() : "other";
    return {
      hash,
      date,
      author,
      type,
      scope: match?.[3],
      text: match ? match[5] : subject,
      breaking: Boolean(match?.[4]) || /BREAKING[ -]CHANGE/.test(body),
    };
  });

const tags = git(workdir, ["tag", "--sort=-creatordate"]).split("\n").filter(Boolean).slice(0, 5);
const out = [];
const label = [range ?? "all history", since ? `since ${since}` : "", scope ? `in ${scope}` : ""]
  .filter(Boolean)
  .join(", ");
out.push(`# ${commits.length} commits (${label})${commits.length === max ? ` — capped at ${max}` : ""}`);
if (commits.length) out.push(`Dates: ${commits[commits.length - 1].date} → ${commits[0].date}`);
out.push(`Latest tags: ${tags.length ? tags.join(", ") : "(none)"}`);

const line = (commit) =>
  `- ${commit.scope ? `**${commit.scope}:** ` : ""}${commit.text} (${commit.hash}, ${commit.author})`;
const breaking = commits.filter((commit) => commit.breaking);
if (breaking.length) out.push("", "## Breaking changes", ...breaking.map(line));
for (const [type, title] of [...TYPES, ["other", "Other (not Conventional Commits)"]]) {
  const group = commits.filter((commit) => commit.type === type);
  if (group.length) out.push("", `## ${title} (${group.length})`, ...group.map(line));
}
const authors = new Map();
for (const commit of commits) authors.set(commit.author, (authors.get(commit.author) ?? 0) + 1);
if (authors.size)
  out.push(
    "",
    `Authors: ${[...authors]
      .sort((a, b) => b[1] - a[1])
      .map(([name, count]) => `${name} (${count})`)
      .join(", ")}`,
  );
process.stdout.write(`${out.join("\n")}\n`);
