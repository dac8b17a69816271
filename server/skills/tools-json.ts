// tools.json: the command tools a skill ships. Validated with ajv against tools-json.schema.json, then
// every command is checked so it cannot escape the skill folder (SECURITY P9: at load and again at run).
import { readFileSync } from "node:fs";
import { access, constants, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { compileValidator, formatIssues, mustCompile } from "../protocol/validator.ts";
import { LineCounter, parseDocument } from "yaml";
import { isInside } from "../tools/confine.ts";
import type { SkillToolSpec } from "./types.ts";
import type { ParseProblem } from "./parse-skill.ts";

export const TOOLS_JSON_SCHEMA: Record<string, unknown> = JSON.parse(
  readFileSync(new URL("./tools-json.schema.json", import.meta.url), "utf8"),
);

const validateToolsJson = mustCompile<{ tools: SkillToolSpec[] }>(TOOLS_JSON_SCHEMA);

/** Null when `schema` compiles as the Registry will compile it, else the validator's message and place. */
function inputSchemaProblem(schema: object): { message: string; pointer?: string } | null {
  const compiled = compileValidator(schema);
  return compiled.ok ? null : compiled;
}

/** PATH lookups by bare program name, shared within one catalog scan (PATH does not change mid-scan). */
export type PathLookups = Map<string, Promise<string | null>>;

export type ToolsJsonResult = { ok: true; tools: SkillToolSpec[] } | { ok: false; problem: ParseProblem };

/** Line/column (1-based) of a character offset in `text`. */
function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  return { line, column };
}

/**
 * File line/column of the value at a JSON pointer (`/tools/0/command`). JSON is YAML, so the yaml
 * parser's node ranges give positions that JSON.parse does not; undefined when it cannot say.
 */
function pointerPosition(text: string, pointer: string): { line: number; column: number } | undefined {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: false });
  if (document.errors.length > 0) return undefined;
  const segments = pointer
    .split("/")
    .slice(1)
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
  const node = document.getIn(segments, true) as { range?: [number, number, number] } | undefined;
  const offset = node?.range?.[0];
  if (offset === undefined) return undefined;
  const position = lineCounter.linePos(offset);
  return { line: position.line, column: position.col };
}

function usesSchemaId(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(usesSchemaId);
  if (typeof value !== "object" || value === null) return false;
  return Object.entries(value).some(([key, inner]) => key === "$id" || usesSchemaId(inner));
}

/** Parses and schema-checks tools.json text. Pure: no file-system checks (see `checkCommand`). */
export function parseToolsJsonText(text: string): ToolsJsonResult {
  let data: unknown;
  try {
    data = JSON.parse(text.startsWith("\uFEFF") ? text.slice(1) : text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const offset = /position (\d+)/.exec(message);
    const where = offset ? positionOf(text, Number(offset[1])) : {};
    return { ok: false, problem: { reason: `tools.json is not valid JSON: ${message}`, ...where } };
  }
  const checked = validateToolsJson(data);
  if (!checked.ok) {
    const problems = formatIssues(checked.issues, "(root)", 3);
    const first = checked.issues[0];
    // An unknown field is best shown at the field itself, not at the object holding it.
    const pointer = first?.field !== undefined ? `${first.path}/${first.field}` : first?.path;
    const where =
      pointer !== undefined
        ? pointerPosition(text.startsWith("\uFEFF") ? text.slice(1) : text, pointer)
        : undefined;
    return {
      ok: false,
      problem: { reason: `tools.json does not match its schema: ${problems}`, ...(where ?? {}) },
    };
  }
  const raw = checked.value.tools;
  const seen = new Set<string>();
  const tools: SkillToolSpec[] = [];
  for (const [index, entry] of raw.entries()) {
    if (seen.has(entry.name)) {
      return { ok: false, problem: { reason: `tools.json: tool name "${entry.name}" appears twice` } };
    }
    seen.add(entry.name);
    if (entry.command[0].trim() === "") {
      return {
        ok: false,
        problem: { reason: `tools.json: /tools/${index}/command/0 (the program) is empty` },
      };
    }
    if (entry.command.some((part) => part.includes("\0"))) {
      return { ok: false, problem: { reason: `tools.json: /tools/${index}/command contains a NUL byte` } };
    }
    const inputSchema = entry.input_schema ?? { type: "object" };
    if (usesSchemaId(inputSchema)) {
      // The Registry compiles every tool's schema in one ajv instance; a `$id` would collide as soon as
      // the skill is loaded a second time (register-or-replace), so it is refused here, at load.
      return {
        ok: false,
        problem: { reason: `tools.json: /tools/${index}/input_schema must not contain "$id"` },
      };
    }
    const problem = inputSchemaProblem(inputSchema);
    if (problem !== null) {
      // A pattern the linear-time engine cannot run (S18) or an unknown $schema is named at its own place.
      const pointer = `/tools/${index}/input_schema${problem.pointer ?? ""}`;
      const where =
        problem.pointer === undefined ? undefined : pointerPosition(text.replace(/^\uFEFF/, ""), pointer);
      const what = problem.pointer === undefined ? "is not a valid JSON Schema" : "cannot be used";
      return {
        ok: false,
        problem: { reason: `tools.json: ${pointer} ${what}: ${problem.message}`, ...(where ?? {}) },
      };
    }
    tools.push({
      name: entry.name,
      description: entry.description,
      input_schema: inputSchema,
      command: [...entry.command],
      ...(entry.timeout_ms !== undefined ? { timeout_ms: entry.timeout_ms } : {}),
    });
  }
  return { ok: true, tools };
}

export type CommandCheck =
  | {
      ok: true;
      /** What to execute: the realpath for path programs, the bare name otherwise. */ program: string;
      isPath: boolean;
    }
  | {
      ok: false;
      reason: string;
      /** "escape": outside the skill folder; "missing": nothing to run. */ kind: "escape" | "missing";
    };

/** A program given as a path (`./x`, `bin/x`, `/usr/bin/x`, `..`) rather than a bare name looked up on PATH. */
export function isPathProgram(program: string): boolean {
  return (
    program.includes("/") || program.includes("\\") || program.startsWith(".") || path.isAbsolute(program)
  );
}

/** Strictly below the skill root (the root folder itself is not a program). */
function isBelow(root: string, target: string): boolean {
  return path.relative(root, target) !== "" && isInside(root, target);
}

async function findOnPath(program: string): Promise<string | null> {
  for (const folder of (process.env.PATH ?? "").split(path.delimiter)) {
    if (folder === "") continue;
    const candidate = path.join(folder, program);
    try {
      await access(candidate, constants.X_OK);
      if ((await stat(candidate)).isFile()) return candidate;
    } catch {
      // Not in this PATH folder; keep looking.
      continue;
    }
  }
  return null;
}

function lookUpOnPath(program: string, lookups: PathLookups | undefined): Promise<string | null> {
  if (!lookups) return findOnPath(program);
  let found = lookups.get(program);
  if (!found) {
    found = findOnPath(program);
    lookups.set(program, found);
  }
  return found;
}

/**
 * Checks `command[0]` of a tools.json tool. A path program must exist and its realpath (symlinks
 * followed) must lie inside the realpath of the skill root; a bare name must be found on PATH.
 * Used when the catalog loads and again right before each run (the folder may have changed since).
 */
export async function checkCommand(
  command: readonly string[],
  rootDir: string,
  options: { pathLookups?: PathLookups } = {},
): Promise<CommandCheck> {
  const program = command[0];
  if (typeof program !== "string" || program.trim() === "")
    return { ok: false, reason: "command is empty", kind: "missing" };
  if (program.includes("\0")) return { ok: false, reason: "command contains a NUL byte", kind: "missing" };
  if (!isPathProgram(program)) {
    const found = await lookUpOnPath(program, options.pathLookups);
    if (!found) return { ok: false, reason: `program "${program}" was not found on PATH`, kind: "missing" };
    return { ok: true, program, isPath: false };
  }
  let rootReal: string;
  try {
    rootReal = await realpath(rootDir);
  } catch {
    return { ok: false, reason: `skill folder ${rootDir} cannot be resolved`, kind: "missing" };
  }
  const target = path.resolve(rootDir, program);
  // Lexical check first so `../../bin/sh` is reported as an escape even when nothing exists there.
  if (!isBelow(path.resolve(rootDir), target)) {
    return {
      ok: false,
      reason: `command "${program}" resolves to ${target}, outside the skill folder ${path.resolve(rootDir)}`,
      kind: "escape",
    };
  }
  let targetReal: string;
  try {
    targetReal = await realpath(target);
  } catch {
    return {
      ok: false,
      reason: `command "${program}" does not exist (resolved to ${target})`,
      kind: "missing",
    };
  }
  if (!isBelow(rootReal, targetReal)) {
    return {
      ok: false,
      reason: `command "${program}" resolves to ${targetReal}, outside the skill folder ${rootReal}`,
      kind: "escape",
    };
  }
  return { ok: true, program: targetReal, isPath: true };
}

/**
 * Parses tools.json text and checks every command against the skill root. A catalog scan passes one
 * `pathLookups` map for all its skills; a run-time check passes none and looks PATH up afresh.
 */
export async function parseToolsJson(
  text: string,
  rootDir: string,
  options: { pathLookups?: PathLookups } = {},
): Promise<ToolsJsonResult> {
  const parsed = parseToolsJsonText(text);
  if (!parsed.ok) return parsed;
  for (const tool of parsed.tools) {
    const check = await checkCommand(tool.command, rootDir, options);
    if (!check.ok)
      return { ok: false, problem: { reason: `tools.json: tool "${tool.name}": ${check.reason}` } };
  }
  return parsed;
}
