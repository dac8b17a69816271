// Where a shell line writes: redirections and the files common programs change (`cp`, `mv`, `tee`,
// `dd of=`, `sed -i`, `rm`, …), resolved lexically (the engine is pure) against every folder the line may
// be in after its `cd`s. A target whose value is unknown before the line runs (`$X`, `$(…)`, a glob, the
// arguments `xargs` reads) counts as outside the working directory.
import path from "node:path";
import { tryLinearRegExp, type LinearRegExp } from "../protocol/linear-regex.ts";
import { configuredAreaAt, isInside, protectedAreaOf } from "../tools/confine.ts";
import { inFolder } from "./option-reader.ts";
import { folderOf, programEffects, type ProgramEffect } from "./program-effects.ts";
import type { ShellAnalysis, ShellWord, SimpleCommand } from "./shell-types.ts";

export type Place =
  | { kind: "absolute"; path: string }
  /** A folder in the home folder (`path` relative to it, "" for home itself). */
  | { kind: "home"; path: string }
  | { kind: "unknown"; why: string };

/** Folders a line may run in are followed up to this many; beyond, the folder counts as unknown. */
const MAX_PLACES = 16;
/** Devices that are safe write targets although they live outside the workdir. */
const HARMLESS_TARGETS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero"]);

/** Resolves a word against a folder; patterns are resolved as written only when asked (the wipe check). */
export function resolvePlace(word: ShellWord, base: Place, options: { patterns?: boolean } = {}): Place {
  const value = word.value;
  if (value === undefined) return { kind: "unknown", why: `\`${word.raw}\` is expanded when the line runs` };
  if (word.pattern && !options.patterns && patternMayEscape(value))
    return {
      kind: "unknown",
      why: `\`${word.raw}\` is a pattern that may match .., .git, .PseudoClaude or .mcp.json`,
    };
  if (value === "~" || value.startsWith("~/")) return home(path.posix.normalize(value.slice(2) || "."));
  if (value.startsWith("~")) return { kind: "unknown", why: `\`${value}\` is another user's home folder` };
  if (value.startsWith("/")) return { kind: "absolute", path: path.posix.resolve(value) };
  if (base.kind === "absolute") return { kind: "absolute", path: path.posix.resolve(base.path, value) };
  if (base.kind === "home") return home(path.posix.normalize(path.posix.join(base.path || ".", value)));
  return base;
}

/** Names a glob must never reach: the parent folder and the protected dot-names (any case). */
const GUARDED_NAMES = ["..", ".git", ".pseudoclaude", ".mcp.json"];

/**
 * Whether a glob may expand to a path its literal text does not show: a segment matching `..` (`.*` does
 * in dash), `.git` or `.PseudoClaude`, or a brace list. A segment not starting with `.` never matches a
 * dot name in sh, so `*.o` stays where it is written.
 */
function patternMayEscape(value: string): boolean {
  return value.split("/").some((segment) => {
    if (!/[*?[{]/.test(segment)) return false;
    if (segment.includes("{")) return true;
    if (!segment.startsWith(".")) return false;
    const matcher = globSegment(segment);
    return matcher === undefined || GUARDED_NAMES.some((name) => matcher.test(name));
  });
}

/** A case-insensitive matcher for one glob segment; undefined for a bracket expression it cannot read. */
function globSegment(segment: string): LinearRegExp | undefined {
  let source = "";
  for (let index = 0; index < segment.length; index++) {
    const char = segment[index]!;
    if (char === "*") source += ".*";
    else if (char === "?") source += ".";
    else if (char === "[") {
      const close = segment.indexOf("]", index + 2);
      if (close < 0) return undefined;
      const body = segment
        .slice(index + 1, close)
        .replace(/^!/, "^")
        .replace(/\\/g, "\\\\");
      source += `[${body}]`;
      index = close;
    } else source += char.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  // The segment is the agent's text: compiled for the linear-time engine like every untrusted pattern (S18).
  const compiled = tryLinearRegExp(`^${source}$`, "i");
  return compiled.ok ? compiled.regex : undefined;
}

function home(relative: string): Place {
  if (relative === ".." || relative.startsWith("../"))
    return { kind: "unknown", why: "the path leads above the home folder" };
  return { kind: "home", path: relative === "." ? "" : relative };
}

/**
 * Whether the line may set CDPATH (an assignment, `export`, `read`, `for` …, however it is quoted): the
 * child's environment never carries it (process-runner's allowlist), so only the line itself can.
 */
function maySetCdpath(source: string): boolean {
  return /CDPATH/.test(source.replace(/\\\n|['"\\]/g, ""));
}

/** `cd x` looks x up in CDPATH first, unless its first component is `.` or `..` (POSIX cd, step 4-5). */
function searchesCdpath(operand: ShellWord): boolean {
  const value = operand.value ?? operand.raw;
  return !value.startsWith("/") && !/^\.\.?(\/|$)/.test(value);
}

/** Every folder the commands of the line may run in: the cwd, and each `cd`/`pushd` target from it. */
export function possiblePlaces(analysis: ShellAnalysis, cwd: string): Place[] {
  const places: Place[] = [{ kind: "absolute", path: cwd }];
  const cdpath = maySetCdpath(analysis.source);
  for (const command of analysis.commands) {
    if (command.program !== "cd" && command.program !== "pushd") continue;
    const operand = command.args.find((word) => !(word.value ?? "").startsWith("-") || word.value === "-");
    const targets: Place[] =
      operand === undefined
        ? [home("")]
        : operand.value === "-"
          ? [{ kind: "unknown", why: "`cd -` goes back to a folder not known here" }]
          : cdpath && searchesCdpath(operand)
            ? [{ kind: "unknown", why: `the line sets CDPATH, so \`cd ${operand.raw}\` may go anywhere` }]
            : places.map((place) => resolvePlace(operand, place));
    for (const target of targets) {
      if (places.length >= MAX_PLACES) {
        places.push({ kind: "unknown", why: "the line changes folders too often to follow" });
        return places;
      }
      if (!places.some((known) => samePlace(known, target))) places.push(target);
    }
  }
  return places;
}

function samePlace(left: Place, right: Place): boolean {
  if (left.kind === "unknown" || right.kind === "unknown") return left.kind === right.kind;
  return left.kind === right.kind && left.path === right.path;
}

export interface WriteConcern {
  kind: "protected" | "outside";
  /** A redirection (`> file`) or a program's file argument (`cp x file`). */
  via: "redirect" | "program";
  /** The protected area (tools/protected-paths.ts) of a protected write. */
  area?: string;
  /** The target as written. */
  target: string;
  /** What writes it: `> ~/.bashrc` or the command text. */
  by: string;
  why: string;
}

/** The writes of the line that must ask: protected ones first (protected-paths.ts), then outside the workdir. */
export function findWriteConcerns(analysis: ShellAnalysis, cwd: string, workdir: string): WriteConcern[] {
  const places = possiblePlaces(analysis, cwd);
  const writes: { word: ShellWord; by: string; via: WriteConcern["via"] }[] = [];
  for (const redirect of analysis.redirects) {
    if (redirect.isOutput && !redirect.isDescriptor)
      writes.push({
        word: redirect.target,
        by: `${redirect.operator} ${redirect.target.raw}`,
        via: "redirect",
      });
  }
  for (const command of analysis.commands) {
    for (const word of writeTargets(command)) writes.push({ word, by: command.text, via: "program" });
  }
  const protectedWrites: WriteConcern[] = [];
  const outside: WriteConcern[] = [];
  for (const { word, by, via } of writes) {
    for (const place of places) {
      const resolved = resolvePlace(word, place);
      const target = word.raw;
      if (resolved.kind === "unknown") {
        outside.push({ kind: "outside", via, target, by, why: resolved.why });
      } else if (resolved.kind === "home") {
        outside.push({ kind: "outside", via, target, by, why: "it is in the home folder" });
      } else if (!HARMLESS_TARGETS.has(resolved.path)) {
        if (!isInside(workdir, resolved.path)) {
          outside.push({
            kind: "outside",
            via,
            target,
            by,
            why: `${resolved.path} is outside the working directory`,
          });
        } else {
          const area =
            protectedAreaOf(path.posix.relative(workdir, resolved.path)) ??
            configuredAreaAt(workdir, resolved.path);
          if (area)
            protectedWrites.push({
              kind: "protected",
              via,
              area,
              target,
              by,
              why: `it is protected (${area})`,
            });
        }
      }
    }
  }
  return [...protectedWrites, ...outside];
}

const ALL_OPERANDS = new Set([
  "tee",
  "touch",
  "mkdir",
  "rm",
  "rmdir",
  "unlink",
  "shred",
  "truncate",
  "chmod",
  "chown",
  "chgrp",
  "mkfifo",
  "mknod",
  "mv",
]);
/** With `-i` they rewrite every file operand (the script operand resolves inside and is harmless). */
const IN_PLACE_EDITORS = new Set(["sed", "perl", "ruby"]);
const LAST_OPERAND = new Set(["cp", "install", "ln", "rsync"]);
const UNKNOWN: ShellWord = { raw: "(arguments read from stdin)", pattern: false };

/**
 * The backups `-i SUFFIX` makes (sed, perl, ruby): the file's name with the suffix appended, or, when the
 * suffix holds a `*`, the suffix with each `*` replaced by the file's name as given — so
 * `sed -i'.git/info/*' … attributes` writes `.git/info/attributes`, a path the line never shows whole.
 */
function inPlaceBackups(args: readonly ShellWord[], operands: readonly ShellWord[]): ShellWord[] {
  const suffixes = args.flatMap((word) => {
    const text = word.value ?? word.raw;
    const suffix = /^-[a-zA-Z]*i(.+)$/.exec(text)?.[1] ?? /^--in-place=(.+)$/.exec(text)?.[1];
    return suffix === undefined ? [] : [suffix];
  });
  return suffixes.flatMap((suffix) =>
    operands.map((operand) => {
      const name = operand.value ?? operand.raw;
      const value = suffix.includes("*") ? suffix.replaceAll("*", name) : `${name}${suffix}`;
      return { ...operand, value, raw: value };
    }),
  );
}

/** The words a command writes to (files it creates, changes or removes). */
export function writeTargets(command: SimpleCommand): ShellWord[] {
  const program = command.program;
  if (program === undefined) return command.wrappers.length > 0 ? wrapperTargets(command) : [];
  const args = command.args;
  const targets: ShellWord[] = [];
  const operands = operandsOf(args);
  const inPlace =
    IN_PLACE_EDITORS.has(program) &&
    args.some((word) => /^(-[a-zA-Z]*i|--in-place)/.test(word.value ?? word.raw));
  if (ALL_OPERANDS.has(program) || inPlace) targets.push(...operands);
  if (inPlace) targets.push(...inPlaceBackups(args, operands));
  else if (LAST_OPERAND.has(program) && operands.length > 0) targets.push(operands[operands.length - 1]!);
  if (program === "dd") {
    for (const word of args) {
      if (word.value?.startsWith("of=")) targets.push({ ...word, value: word.value.slice(3) });
      else if (word.value === undefined && word.raw.startsWith("of=")) targets.push(word);
    }
  }
  const folder = folderOf(command);
  const moved = folder ? targets.map((target) => inFolder(folder, target)) : targets;
  // Options that write (curl -o, sort -o, git log --output, sed's `w`): the option table's.
  for (const effect of programEffects(command)) if (effect.target) moved.push(effect.target);
  const writes = moved.length > 0 || ALL_OPERANDS.has(program) || LAST_OPERAND.has(program);
  if (writes && command.argsFromInput) moved.push(UNKNOWN);
  return moved;
}

function operandsOf(args: ShellWord[]): ShellWord[] {
  const operands: ShellWord[] = [];
  let optionsEnded = false;
  for (const word of args) {
    const value = word.value ?? word.raw;
    if (!optionsEnded && value === "--") optionsEnded = true;
    else if (optionsEnded || !value.startsWith("-") || value === "-") operands.push(word);
  }
  return operands;
}

/** Targets of a command whose program is not known (`env -S …`): only its wrappers' (`time -o FILE`). */
function wrapperTargets(command: SimpleCommand): ShellWord[] {
  return programEffects(command).flatMap((effect) => (effect.target ? [effect.target] : []));
}

export interface RiskyEffect {
  effect: ProgramEffect;
  /** Where the command is in the line. */
  at: string;
}

/**
 * The option-table rows the line uses that a rule never allows (every row but what a program is for), in
 * order; git's repository counts only where it may be outside the working directory.
 */
export function riskyEffects(analysis: ShellAnalysis, cwd: string, workdir: string): RiskyEffect[] {
  const places = possiblePlaces(analysis, cwd);
  const risky: RiskyEffect[] = [];
  for (const command of analysis.commands) {
    for (const effect of programEffects(command)) {
      if (effect.row.purpose) continue;
      if (effect.onlyOutside && !places.some((place) => outsideWorkdir(effect.onlyOutside!, place, workdir)))
        continue;
      risky.push({ effect, at: command.at });
    }
  }
  return risky;
}

function outsideWorkdir(word: ShellWord, place: Place, workdir: string): boolean {
  const resolved = resolvePlace(word, place);
  return resolved.kind !== "absolute" || !isInside(workdir, resolved.path);
}
