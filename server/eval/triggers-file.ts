// The trigger lab's eval file (`<workdir>/.PseudoClaude/evals/triggers.yaml`, or any path):
//
//   queries:
//     - { query: "make a short report from data/sales.csv", expect: csv-report, kind: implicit }
//     - { query: "what is two plus two?", expect: none, kind: negative }
//   scenarios: trigger-scenarios     # optional: scripted-model scenarios (relative to this file)
//   ablation: { skill: csv-report, description: "…" }   # optional: the B side of an A/B
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
const QUERY_KEYS = ["query", "expect", "kind"];
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
    return { query: entry.query, expect, kind: kind as TriggerQueryKind, line };
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

export async function loadTriggersFile(file: string): Promise<TriggerEvalFile> {
  const absolute = path.resolve(file);
  let source: string;
  try {
    source = await readFile(absolute, "utf8");
  } catch (error) {
    throw invalid(absolute, undefined, `cannot read the eval file: ${errorMessage(error)}`);
  }
  return parseTriggersFile(source, absolute);
}

/**
 * Every expected skill must be in the catalog, or the file names a skill the model is never offered:
 * refused with the line and the catalog's names.
 */
export function checkExpectedSkills(evals: TriggerEvalFile, catalogNames: readonly string[]): void {
  for (const query of evals.queries) {
    if (query.expect !== EXPECT_NONE && !catalogNames.includes(query.expect)) {
      throw invalid(
        evals.file,
        query.line,
        `expect names "${query.expect}", which is not in the catalog (skills: ${catalogNames.join(", ") || "none"})`,
      );
    }
  }
  if (evals.ablation && !catalogNames.includes(evals.ablation.skill)) {
    throw invalid(evals.file, undefined, `ablation.skill "${evals.ablation.skill}" is not in the catalog`);
  }
}
