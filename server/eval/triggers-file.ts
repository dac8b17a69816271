// The trigger lab's eval file (`<workdir>/.PseudoClaude/evals/triggers.yaml`, or any path):
//
//   queries:
//     - { query: "make a short report from data/sales.csv", expect: csv-report, kind: implicit }
//     - { query: "what is two plus two?", expect: none, kind: negative }
//   scenarios: trigger-scenarios     # optional: scripted-model scenarios (relative to this file)
//   ablation: { skill: csv-report, description: "…" }   # optional: the B side of an A/B
//
// A query may add checks beyond triggering: `first_tool: NAME` (the response's first tool call),
// `never_tool: NAME | [NAMES]` (never called in the response), `max_input_tokens: N` (the request's input).
//
// skill-creator's JSON form is read too: `[{"query": "…", "should_trigger": true|false}, …]` (the same
// optional checks allowed), for one skill named by the caller (`--skill NAME`). A positive expects that
// skill; a negative must not trigger it (another skill may load: it `avoid`s that one only).
//
// Checked completely at load time, like a scenario: an error names the file, the line and the field.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { LineCounter, isMap, isSeq, parseDocument, type Node } from "yaml";
import { PlaygroundError, errorMessage } from "../errors/index.ts";
import type { TriggerQueryKind } from "../protocol/trigger-lab.ts";

export const DEFAULT_EVAL_PATH = path.join(".PseudoClaude", "evals", "triggers.yaml");
export const EXPECT_NONE = "none";
export const QUERY_KINDS: readonly TriggerQueryKind[] = ["explicit", "implicit", "contextual", "negative"];

export interface TriggerQuery {
  query: string;
  /** A skill name, or "none". */
  expect: string;
  kind: TriggerQueryKind;
  /** 1-based line of the entry in the file. */
  line: number;
  /** A negative of skill-creator's form: the skill it must not trigger. */
  avoid?: string;
  checks?: QueryChecks;
}

export interface QueryChecks {
  firstTool?: string;
  neverTool?: string[];
  maxInputTokens?: number;
}

export interface TriggerAblation {
  skill: string;
  description: string;
}

export interface TriggerEvalFile {
  /** Absolute path of the file. */
  file: string;
  queries: TriggerQuery[];
  /** Absolute path of the scripted-model scenarios named in the file, if any. */
  scenarios?: string;
  ablation?: TriggerAblation;
}

const FILE_KEYS = ["queries", "scenarios", "ablation"];
const CHECK_KEYS = ["first_tool", "never_tool", "max_input_tokens"];
const QUERY_KEYS = ["query", "expect", "kind", ...CHECK_KEYS];
const JSON_QUERY_KEYS = ["query", "should_trigger", ...CHECK_KEYS];
const ABLATION_KEYS = ["skill", "description"];

function invalid(file: string, line: number | undefined, problem: string): PlaygroundError {
  return new PlaygroundError("invalid_eval", `${file}${line ? `:${line}` : ""}: ${problem}`, {
    file,
    ...(line ? { line } : {}),
  });
}

function lineOf(node: unknown, counter: LineCounter): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range ? counter.linePos(range[0]).line : undefined;
}

function rejectUnknown(
  file: string,
  line: number | undefined,
  where: string,
  value: Record<string, unknown>,
  known: string[],
) {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      throw invalid(file, line, `${where}${key} is not a known field (expected one of: ${known.join(", ")})`);
    }
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

/** Parses and checks an eval file's text; `file` names the source in errors and anchors relative paths. */
export function parseTriggersFile(source: string, file: string): TriggerEvalFile {
  const counter = new LineCounter();
  const document = parseDocument(source, { lineCounter: counter, prettyErrors: false });
  if (document.errors.length > 0) {
    const first = document.errors[0];
    const line = first.linePos?.[0]?.line;
    throw invalid(file, line, `YAML error: ${first.message.split("\n")[0]}`);
  }
  const root = document.contents;
  const value: unknown = document.toJS();
  if (!isPlainObject(value) || !isMap(root)) {
    throw invalid(file, undefined, "the file must be a YAML mapping with a `queries` list");
  }
  rejectUnknown(file, lineOf(root, counter), "", value, FILE_KEYS);
  const queriesNode = root.get("queries", true);
  if (!Array.isArray(value.queries) || value.queries.length === 0 || !isSeq(queriesNode)) {
    throw invalid(file, lineOf(queriesNode, counter), "queries must be a non-empty list");
  }
  const queries = value.queries.map((entry: unknown, index: number): TriggerQuery => {
    const line = lineOf(queriesNode.items[index], counter) ?? 1;
    const where = `queries[${index}]`;
    if (!isPlainObject(entry))
      throw invalid(file, line, `${where} must be a mapping with query, expect, kind`);
    rejectUnknown(file, line, `${where}.`, entry, QUERY_KEYS);
    if (!nonEmptyString(entry.query)) throw invalid(file, line, `${where}.query must be a non-empty string`);
    if (!nonEmptyString(entry.expect)) {
      throw invalid(file, line, `${where}.expect must be a skill name or "${EXPECT_NONE}"`);
    }
    const kind = entry.kind;
    if (typeof kind !== "string" || !QUERY_KINDS.includes(kind as TriggerQueryKind)) {
      throw invalid(file, line, `${where}.kind must be one of ${QUERY_KINDS.join(", ")}`);
    }
    const expect = entry.expect.trim();
    if ((kind === "negative") !== (expect === EXPECT_NONE)) {
      throw invalid(
        file,
        line,
        `${where}: a negative query expects "${EXPECT_NONE}", and only a negative one does (kind ${kind}, expect ${expect})`,
      );
    }
    const checks = parseChecks(file, line, where, entry);
    return {
      query: entry.query,
      expect,
      kind: kind as TriggerQueryKind,
      line,
      ...(checks ? { checks } : {}),
    };
  });
  let scenarios: string | undefined;
  if (value.scenarios !== undefined) {
    if (!nonEmptyString(value.scenarios)) {
      throw invalid(
        file,
        lineOf(root.get("scenarios", true), counter),
        "scenarios must be a path (a folder or file)",
      );
    }
    scenarios = path.resolve(path.dirname(file), value.scenarios);
  }
  let ablation: TriggerAblation | undefined;
  if (value.ablation !== undefined) {
    const line = lineOf(root.get("ablation", true), counter);
    if (!isPlainObject(value.ablation))
      throw invalid(file, line, "ablation must be a mapping with skill, description");
    rejectUnknown(file, line, "ablation.", value.ablation, ABLATION_KEYS);
    if (!nonEmptyString(value.ablation.skill) || !nonEmptyString(value.ablation.description)) {
      throw invalid(file, line, "ablation needs a skill name and a non-empty description");
    }
    ablation = { skill: value.ablation.skill, description: value.ablation.description };
  }
  return { file, queries, ...(scenarios ? { scenarios } : {}), ...(ablation ? { ablation } : {}) };
}

function parseChecks(
  file: string,
  line: number,
  where: string,
  entry: Record<string, unknown>,
): QueryChecks | undefined {
  const checks: QueryChecks = {};
  if (entry.first_tool !== undefined) {
    if (!nonEmptyString(entry.first_tool))
      throw invalid(file, line, `${where}.first_tool must be a tool name`);
    checks.firstTool = entry.first_tool.trim();
  }
  if (entry.never_tool !== undefined) {
    const names = Array.isArray(entry.never_tool) ? entry.never_tool : [entry.never_tool];
    if (names.length === 0 || !names.every(nonEmptyString)) {
      throw invalid(file, line, `${where}.never_tool must be a tool name or a list of them`);
    }
    checks.neverTool = names.map((name) => name.trim());
  }
  if (entry.max_input_tokens !== undefined) {
    if (!Number.isInteger(entry.max_input_tokens) || (entry.max_input_tokens as number) < 1) {
      throw invalid(file, line, `${where}.max_input_tokens must be a whole number of tokens ≥ 1`);
    }
    checks.maxInputTokens = entry.max_input_tokens as number;
  }
  return Object.keys(checks).length > 0 ? checks : undefined;
}

/** 1-based line of each top-level element of a JSON array (a `{` at nesting depth 1), for error messages. */
function jsonEntryLines(source: string): number[] {
  const lines: number[] = [];
  let depth = 0;
  let line = 1;
  let inString = false;
  for (let index = 0; index < source.length; index += 1) {
    const char = source[index];
    if (char === "\n") line += 1;
    if (inString) {
      if (char === "\\") index += 1;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === "[" || char === "{") {
      if (depth === 1) lines.push(line);
      depth += 1;
    } else if (char === "]" || char === "}") depth -= 1;
  }
  return lines;
}

/** skill-creator's form: a JSON list of {query, should_trigger}, for the skill `skill`. */
export function parseSkillCreatorEvals(
  source: string,
  file: string,
  skill: string | undefined,
): TriggerEvalFile {
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    throw invalid(file, undefined, `not valid JSON: ${errorMessage(error)}`);
  }
  if (!Array.isArray(value) || value.length === 0) {
    throw invalid(
      file,
      undefined,
      'a JSON eval file must be a non-empty list of {"query", "should_trigger"}',
    );
  }
  if (!skill) {
    throw invalid(
      file,
      undefined,
      "a skill-creator eval file (a JSON list of {query, should_trigger}) tests one skill: name it (--skill NAME)",
    );
  }
  const lines = jsonEntryLines(source);
  const queries = value.map((entry: unknown, index: number): TriggerQuery => {
    const line = lines[index] ?? 1;
    const where = `[${index}]`;
    if (!isPlainObject(entry))
      throw invalid(file, line, `${where} must be an object with query, should_trigger`);
    rejectUnknown(file, line, `${where}.`, entry, JSON_QUERY_KEYS);
    if (!nonEmptyString(entry.query)) throw invalid(file, line, `${where}.query must be a non-empty string`);
    if (typeof entry.should_trigger !== "boolean") {
      throw invalid(file, line, `${where}.should_trigger must be true or false`);
    }
    const checks = parseChecks(file, line, where, entry);
    const base = { query: entry.query, line, ...(checks ? { checks } : {}) };
    return entry.should_trigger
      ? { ...base, expect: skill, kind: "implicit" }
      : { ...base, expect: EXPECT_NONE, kind: "negative", avoid: skill };
  });
  return { file, queries };
}

export interface LoadTriggersOptions {
  /** The skill a skill-creator JSON file tests (ignored for the YAML form). */
  skill?: string;
}

export async function loadTriggersFile(
  file: string,
  options: LoadTriggersOptions = {},
): Promise<TriggerEvalFile> {
  const absolute = path.resolve(file);
  let source: string;
  try {
    source = await readFile(absolute, "utf8");
  } catch (error) {
    throw invalid(absolute, undefined, `cannot read the eval file: ${errorMessage(error)}`);
  }
  // A JSON list is skill-creator's form; anything else is the YAML form (YAML would read the list too).
  return source.trimStart().startsWith("[")
    ? parseSkillCreatorEvals(source, absolute, options.skill)
    : parseTriggersFile(source, absolute);
}

/**
 * Every expected skill must be in the catalog, or the file names a skill the model is never offered:
 * refused with the line and the catalog's names.
 */
export function checkExpectedSkills(evals: TriggerEvalFile, catalogNames: readonly string[]): void {
  for (const query of evals.queries) {
    const named = query.avoid ?? query.expect;
    if (named !== EXPECT_NONE && !catalogNames.includes(named)) {
      throw invalid(
        evals.file,
        query.line,
        `${query.avoid ? "the skill tested" : "expect"} names "${named}", which is not in the catalog (skills: ${catalogNames.join(", ") || "none"})`,
      );
    }
  }
  if (evals.ablation && !catalogNames.includes(evals.ablation.skill)) {
    throw invalid(evals.file, undefined, `ablation.skill "${evals.ablation.skill}" is not in the catalog`);
  }
}
