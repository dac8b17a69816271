// SKILL.md parsing: YAML frontmatter + Markdown body. Never throws: a bad file becomes exactly one
// problem (reason + optional line/column) that the Catalog turns into a warning.
import { LineCounter, isMap, isScalar, parseDocument, type YAMLMap } from "yaml";
import { splitAllowedTools } from "./allowed-tools.ts";
import type { FrontmatterFacts, FrontmatterNote, SkillHistory, SkillMeta, SkillMode } from "./types.ts";
import { frontmatterLimitProblem } from "./text-limits.ts";
import { findHiddenCharacters } from "../shared/hidden-characters.ts";

export interface ParseProblem {
  reason: string;
  /** 1-based, relative to the whole file (not to the frontmatter). */
  line?: number;
  column?: number;
}

export interface ParsedSkillFile {
  meta: SkillMeta;
  body: string;
  /** What the lint needs from the YAML itself: key lines and notes only the parser can see. */
  frontmatter: FrontmatterFacts;
  /** The frontmatter as JSON, every key as written (an MCP skill's is compared with its entry's). */
  data: Record<string, unknown>;
}

export type SkillParseResult = { ok: true; skill: ParsedSkillFile } | { ok: false; problem: ParseProblem };

const KNOWN_KEYS = new Set(["name", "description", "tools", "mode", "history", "model"]);
const MODES: readonly SkillMode[] = ["shared", "isolated"];
const HISTORIES: readonly SkillHistory[] = ["recent", "none", "summary"];

interface SplitFile {
  frontmatter: string;
  /** 1-based line of the first frontmatter line (the line after the opening `---`). */
  frontmatterFirstLine: number;
  body: string;
  /** 1-based line of the first body line (the line after the closing `---`). */
  bodyFirstLine: number;
}

/**
 * Splits `---\n<yaml>\n---\n<body>`. Returns "none" when the file does not start with `---`, "unclosed"
 * when it does but no closing `---` follows (two different fixes for the author).
 */
function splitFrontmatter(text: string): SplitFile | "none" | "unclosed" {
  const withoutBom = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const lines = withoutBom.split(/\r?\n/);
  if (lines[0]?.trimEnd() !== "---") return "none";
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index].trimEnd();
    if (line === "---" || line === "...") {
      return {
        frontmatter: lines.slice(1, index).join("\n"),
        frontmatterFirstLine: 2,
        body: lines.slice(index + 1).join("\n"),
        bodyFirstLine: index + 2,
      };
    }
  }
  return "unclosed";
}

/**
 * File position of a top-level frontmatter key, so a field problem points at its line; a missing key
 * points at the opening `---` (line 1), where the author has to add it.
 */
function keyPosition(
  map: YAMLMap,
  key: string,
  lineCounter: LineCounter,
  firstLine: number,
): { line: number; column?: number } {
  const pair = map.items.find((item) => isScalar(item.key) && String(item.key.value) === key);
  const offset = pair && isScalar(pair.key) ? pair.key.range?.[0] : undefined;
  if (offset === undefined) return { line: 1 };
  const position = lineCounter.linePos(offset);
  return { line: position.line + firstLine - 1, column: position.col };
}

/** 1-based file line of every top-level key, so lint notes can point at them. */
function keyLines(map: YAMLMap, lineCounter: LineCounter, firstLine: number): Record<string, number> {
  const lines: Record<string, number> = {};
  for (const item of map.items) {
    if (!isScalar(item.key) || item.key.range === undefined || item.key.range === null) continue;
    lines[String(item.key.value)] = lineCounter.linePos(item.key.range[0]).line + firstLine - 1;
  }
  return lines;
}

/**
 * YAML traps other parsers fall into silently: an unquoted ` #` starts a comment, so the text after it is
 * not part of the value (YAML says so; authors rarely mean it).
 */
function commentTraps(map: YAMLMap, lines: Record<string, number>): FrontmatterNote[] {
  const notes: FrontmatterNote[] = [];
  for (const key of ["description", "when_to_use"]) {
    const pair = map.items.find((item) => isScalar(item.key) && String(item.key.value) === key);
    const value = pair?.value;
    if (!isScalar(value) || value.type !== "PLAIN" || !value.comment) continue;
    notes.push({
      rule: "yaml-comment-in-value",
      profile: "playground",
      level: "warning",
      ...(lines[key] !== undefined ? { line: lines[key] } : {}),
      message:
        `"${key}" is unquoted and holds " #": YAML reads the rest ("#${value.comment.trimEnd()}") as a ` +
        `comment, so the ${key} ends at "${String(value.value).slice(-40)}". Quote the value to keep it`,
    });
  }
  return notes;
}

/** Claude Code's boolean keys: YAML booleans, or the strings "true"/"false". */
function booleanKey(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (value === "true" || value === "false") return value === "true";
  return undefined;
}

/** `tools` (the dependency list): a YAML list of strings, or one string separated by spaces/commas. */
function toolList(value: unknown, key: string): string[] | ParseProblem {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return value.split(/[\s,]+/).filter((part) => part.length > 0);
  if (Array.isArray(value)) {
    const names: string[] = [];
    for (const item of value) {
      if (typeof item !== "string" || item.trim() === "") {
        return { reason: `"${key}" must be a list of tool names (strings); found ${JSON.stringify(item)}` };
      }
      names.push(item.trim());
    }
    return names;
  }
  return { reason: `"${key}" must be a list of tool names or a space-separated string` };
}

function isProblem(value: unknown): value is ParseProblem {
  return typeof value === "object" && value !== null && !Array.isArray(value) && "reason" in value;
}

/** Scalars YAML may give for a name written without quotes (`name: 2024`): accepted as text. */
function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

/**
 * Parses the text of a SKILL.md (or a loose `*.md` skill).
 * Rejects: no frontmatter, bad YAML (with line/column), frontmatter that is not a mapping, empty name,
 * empty description, empty body, invalid `mode`/`history`/`model`/`tools`.
 */
export function parseSkillMarkdown(text: string): SkillParseResult {
  const split = splitFrontmatter(text);
  if (split === "unclosed") {
    return {
      ok: false,
      problem: {
        reason:
          "the frontmatter opened by '---' on line 1 is never closed: add a line '---' after the YAML, before the Markdown body",
        line: 1,
        column: 1,
      },
    };
  }
  if (split === "none") {
    return {
      ok: false,
      problem: {
        reason: "no YAML frontmatter: the file must start with a line '---', the YAML, then '---'",
        line: 1,
        column: 1,
      },
    };
  }
  const overLimit = frontmatterLimitProblem(split.frontmatter);
  if (overLimit) return { ok: false, problem: overLimit };
  const lineCounter = new LineCounter();
  const document = parseDocument(split.frontmatter, { uniqueKeys: true, lineCounter });
  if (document.errors.length > 0) {
    const error = document.errors[0];
    const position = error.linePos?.[0];
    // yaml's own "at line N" counts from the frontmatter; we report file lines instead.
    const firstLine = (error.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "");
    return {
      ok: false,
      problem: {
        reason: `invalid YAML frontmatter: ${firstLine}`,
        ...(position ? { line: position.line + split.frontmatterFirstLine - 1, column: position.col } : {}),
      },
    };
  }
  if (!isMap(document.contents)) {
    return {
      ok: false,
      problem: {
        reason: "frontmatter must be a YAML mapping (key: value lines)",
        line: split.frontmatterFirstLine,
      },
    };
  }
  const map = document.contents;
  const at = (key: string) => keyPosition(map, key, lineCounter, split.frontmatterFirstLine);
  let data: Record<string, unknown>;
  try {
    // toJS can still fail on pathological aliases (alias-bomb limits); that is a bad file, not a crash.
    data = document.toJS({ maxAliasCount: 100 }) as Record<string, unknown>;
  } catch (error) {
    return {
      ok: false,
      problem: {
        reason: `invalid YAML frontmatter: ${error instanceof Error ? error.message : String(error)}`,
      },
    };
  }

  const requiredText = (key: "name" | "description", example: string): ParseProblem | undefined => {
    const value = data[key];
    if (value === undefined) {
      return {
        reason: `frontmatter field "${key}" is missing: add a line "${key}: ${example}" between the '---' lines`,
        ...at(key),
      };
    }
    if (value !== null && scalarText(value) === undefined) {
      return { reason: `frontmatter field "${key}" must be text, not a list or mapping`, ...at(key) };
    }
    if (value === null || scalarText(value) === "") {
      return { reason: `frontmatter field "${key}" is empty: write ${example} after "${key}:"`, ...at(key) };
    }
    return undefined;
  };
  const nameProblem = requiredText("name", "<skill-name>");
  if (nameProblem) return { ok: false, problem: nameProblem };
  const name = scalarText(data.name)!;
  // The name becomes a heading, an index line and a tool argument: a line break or control character
  // in it would let one skill forge structure in the prompt.
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    return {
      ok: false,
      problem: {
        reason: 'frontmatter field "name" must be one line without control characters',
        ...at("name"),
      },
    };
  }
  // A bidi control or invisible character would make it look like another skill's name (S24); one table
  // says which characters those are (hidden-characters.ts).
  const hidden = findHiddenCharacters(name);
  if (hidden.length > 0) {
    return {
      ok: false,
      problem: {
        reason: `frontmatter field "name" holds hidden characters (${hidden.join(", ")}): bidi or invisible characters make a name look like another; remove them`,
        ...at("name"),
      },
    };
  }
  const descriptionProblem = requiredText("description", "<what the skill does and when to use it>");
  if (descriptionProblem) return { ok: false, problem: descriptionProblem };
  const description = scalarText(data.description)!;

  const mode = data.mode ?? "shared";
  if (!MODES.includes(mode as SkillMode)) {
    return {
      ok: false,
      problem: {
        reason: `"mode" must be one of ${MODES.join(", ")}; found ${JSON.stringify(mode)}`,
        ...at("mode"),
      },
    };
  }
  const history = data.history ?? "recent";
  if (!HISTORIES.includes(history as SkillHistory)) {
    return {
      ok: false,
      problem: {
        reason: `"history" must be one of ${HISTORIES.join(", ")}; found ${JSON.stringify(history)}`,
        ...at("history"),
      },
    };
  }
  if (
    data.model !== undefined &&
    data.model !== null &&
    (typeof data.model !== "string" || data.model.trim() === "")
  ) {
    return { ok: false, problem: { reason: '"model" must be a non-empty string', ...at("model") } };
  }

  // Only the seed's `tools` names dependencies. `allowed-tools` is pre-approval (allowed-tools.ts): it
  // never removes a skill and never rejects one; a value of the wrong type is a lint note.
  const tools = toolList(data.tools, "tools");
  if (isProblem(tools)) return { ok: false, problem: { ...tools, ...at("tools") } };

  const body = split.body.replace(/^\s*\n/, "").trimEnd();
  if (body.trim() === "")
    return {
      ok: false,
      problem: {
        reason:
          "the skill body (the Markdown after the frontmatter) is empty: write the SOP below the closing '---'",
        line: split.bodyFirstLine,
      },
    };

  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (!KNOWN_KEYS.has(key)) extra[key] = value;
  }
  const lines = keyLines(map, lineCounter, split.frontmatterFirstLine);
  const notes = commentTraps(map, lines);
  const disableModel = booleanKey(data["disable-model-invocation"]);
  const userInvocable = booleanKey(data["user-invocable"]);
  for (const [key, value] of [
    ["disable-model-invocation", disableModel],
    ["user-invocable", userInvocable],
  ] as const) {
    if (data[key] === undefined || value !== undefined) continue;
    notes.push({
      rule: "claude-code-key-type",
      profile: "claude-code",
      level: "warning",
      ...(lines[key] !== undefined ? { line: lines[key] } : {}),
      message: `"${key}" must be true or false; found ${JSON.stringify(data[key])}, so it is ignored`,
    });
  }
  const whenToUse = scalarText(data.when_to_use);
  const invocation = { model: disableModel !== true, user: userInvocable !== false };
  const meta: SkillMeta = {
    name,
    description,
    tools: [...new Set(tools)],
    mode: mode as SkillMode,
    history: history as SkillHistory,
    ...(typeof data.model === "string" ? { model: data.model.trim() } : {}),
    extra,
    ...(data["allowed-tools"] !== undefined
      ? { allowedTools: splitAllowedTools(data["allowed-tools"]) }
      : {}),
    ...(!invocation.model || !invocation.user ? { invocation } : {}),
    ...(whenToUse ? { whenToUse } : {}),
  };
  return { ok: true, skill: { meta, body, frontmatter: { keyLines: lines, notes }, data } };
}
