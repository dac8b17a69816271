// Lint: notes on a skill, each naming the rule set it comes from (issue 21 item 6). Three rule sets:
// - `agent-skills`: the spec (agentskills.io/specification): name 1–64 characters of lowercase letters,
//   digits and single hyphens (Unicode lowercase accepted after NFKC, as the reference validator does),
//   equal to its folder; description 1–1,024; compatibility ≤ 500; metadata a string map; allowed-tools
//   a string; body under 500 lines (a recommendation).
// - `claude-code`: what Claude Code and the Claude API add: its extra keys are fine; no "anthropic" or
//   "claude" in a name; no XML tags in name or description.
// - `playground`: this playground's advice: YAML traps other parsers fall into silently, files and
//   variables the body names (resource-lint.ts), descriptions with no sign of when to use them or that
//   overlap strongly, allowed-tools names with no equivalent here, keys nobody reads.
// A note is an "error" or a "warning". Which errors refuse a skill is the catalog's lint profile
// (lint-profile.ts); the default, lenient, refuses none.
import path from "node:path";
import { mapAllowedTools } from "./allowed-tools.ts";
import type { LintNote, LintRuleSet, Skill } from "./types.ts";

export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_COMPATIBILITY_LENGTH = 500;
export const MAX_BODY_LINES = 500;

/** The spec's six keys. */
export const SPEC_KEYS: readonly string[] = [
  "name",
  "description",
  "license",
  "compatibility",
  "metadata",
  "allowed-tools",
];
/** Claude Code's extra keys (code.claude.com/docs/en/skills, frontmatter reference). */
export const CLAUDE_CODE_KEYS: readonly string[] = [
  "when_to_use",
  "argument-hint",
  "disable-model-invocation",
  "user-invocable",
  "model",
  "effort",
  "context",
  "agent",
  "hooks",
  "paths",
  "shell",
];
/** The seed's keys, which this playground reads. */
export const PLAYGROUND_KEYS: readonly string[] = ["tools", "mode", "history", "model"];

const KNOWN_KEYS = new Set([...SPEC_KEYS, ...CLAUDE_CODE_KEYS, ...PLAYGROUND_KEYS]);

/** The name a skill is expected to have: its folder, or the file name of a loose `*.md` skill. */
export function expectedSkillName(skill: Pick<Skill, "entryPath" | "rootDir">): string {
  const file = path.basename(skill.entryPath);
  if (file.toLowerCase() === "skill.md") return path.basename(skill.rootDir);
  return file.replace(/\.md$/i, "");
}

/** Lowercase letters and digits (any script, after NFKC) in runs joined by single hyphens. */
const SPEC_NAME = /^[\p{Ll}\p{Lo}\p{Nd}]+(-[\p{Ll}\p{Lo}\p{Nd}]+)*$/u;
/** An opening or closing XML-like tag: `<example>`, `</b>`, `<tool name="x">`. */
const XML_TAG = /<\/?[A-Za-z][\w.:-]*(\s[^<>]*)?\/?>/;
/** Words that say when to use a skill (the description's trigger), in the forms descriptions use. */
const WHEN_CUE =
  /\b(when|whenever|if|use (this|it|for|to|on|with|after|before)|used (for|to|by|when)|asks?|requests?|trigger(s|ed)?|invoke[ds]?|before|after|during|while|for tasks|in case)\b/i;

function isStringMap(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((item) => typeof item === "string")
  );
}

/** Per-skill notes of every rule set (the overlap of descriptions is catalog-wide: `overlapNotes`). */
export function lintSkill(skill: Skill): LintNote[] {
  const notes: LintNote[] = [];
  const { name, description, extra } = skill.meta;
  const lines = skill.frontmatter?.keyLines ?? {};
  const note = (
    profile: LintRuleSet,
    level: "error" | "warning",
    rule: string,
    message: string,
    key?: string,
  ) =>
    notes.push({
      skill: name,
      path: skill.entryPath,
      ...(key !== undefined && lines[key] !== undefined ? { line: lines[key] } : {}),
      rule,
      message,
      profile,
      level,
    });

  // Agent Skills.
  const normalized = name.normalize("NFKC");
  const length = [...normalized].length;
  if (length < 1 || length > MAX_NAME_LENGTH) {
    note(
      "agent-skills",
      "error",
      "name-length",
      `name is ${length} characters; Agent Skills allows 1–${MAX_NAME_LENGTH}`,
      "name",
    );
  }
  if (!SPEC_NAME.test(normalized)) {
    note(
      "agent-skills",
      "error",
      "name-format",
      `name "${name}" should use only lowercase letters, digits and single hyphens, with no leading or trailing hyphen`,
      "name",
    );
  }
  const expected = expectedSkillName(skill);
  if (normalized !== expected.normalize("NFKC")) {
    note(
      "agent-skills",
      "error",
      "name-matches-folder",
      `name "${name}" differs from its folder/file name "${expected}"`,
      "name",
    );
  }
  if (description.length > MAX_DESCRIPTION_LENGTH) {
    note(
      "agent-skills",
      "error",
      "description-length",
      `description is ${description.length} characters; the limit is ${MAX_DESCRIPTION_LENGTH}. The catalog ` +
        `keeps it whole, but its line in the skills index is cut at ${MAX_DESCRIPTION_LENGTH} characters`,
      "description",
    );
  }
  const compatibility = extra.compatibility;
  if (compatibility !== undefined && typeof compatibility !== "string") {
    note("agent-skills", "error", "compatibility", "compatibility must be text", "compatibility");
  } else if (typeof compatibility === "string" && compatibility.length > MAX_COMPATIBILITY_LENGTH) {
    note(
      "agent-skills",
      "error",
      "compatibility",
      `compatibility is ${compatibility.length} characters; the limit is ${MAX_COMPATIBILITY_LENGTH}`,
      "compatibility",
    );
  }
  if (extra.metadata !== undefined && !isStringMap(extra.metadata)) {
    note(
      "agent-skills",
      "error",
      "metadata",
      "metadata must map text keys to text values (quote numbers and dates; no lists or nested maps)",
      "metadata",
    );
  }
  const allowed = extra["allowed-tools"];
  if (Array.isArray(allowed) && allowed.every((item) => typeof item === "string")) {
    note(
      "agent-skills",
      "warning",
      "allowed-tools-format",
      "allowed-tools is a YAML list; the spec writes one space-separated string (Claude Code reads both)",
      "allowed-tools",
    );
  } else if (allowed !== undefined && typeof allowed !== "string") {
    note(
      "agent-skills",
      "error",
      "allowed-tools-format",
      `allowed-tools must be a space-separated string of tool names; found ${JSON.stringify(allowed)}, so no tool is pre-approved`,
      "allowed-tools",
    );
  }
  const bodyLines = skill.body.split("\n").length;
  if (bodyLines > MAX_BODY_LINES) {
    note(
      "agent-skills",
      "warning",
      "body-length",
      `body is ${bodyLines} lines; keep it under ${MAX_BODY_LINES} and move detail into referenced files`,
    );
  }

  // Claude Code.
  const reserved = /anthropic|claude/i.exec(name);
  if (reserved) {
    note(
      "claude-code",
      "error",
      "name-reserved-word",
      `name contains "${reserved[0]}", which the Claude API refuses in a skill name`,
      "name",
    );
  }
  for (const [key, value] of [
    ["name", name],
    ["description", description],
  ] as const) {
    const tag = XML_TAG.exec(value);
    if (tag) {
      note(
        "claude-code",
        "error",
        "xml-tag",
        `${key} contains the XML tag ${tag[0]}, which the Claude API refuses in a skill's ${key}`,
        key,
      );
    }
  }

  // This playground's advice.
  for (const parserNote of skill.frontmatter?.notes ?? []) {
    notes.push({ skill: name, path: skill.entryPath, ...parserNote });
  }
  if (description.includes("---")) {
    note(
      "playground",
      "warning",
      "yaml-dashes-in-value",
      'description contains "---": a client that splits the frontmatter on "---" (not only on a line of its own) cuts the description there',
      "description",
    );
  }
  if (!skill.meta.whenToUse && !WHEN_CUE.test(description)) {
    note(
      "playground",
      "warning",
      "description-no-when",
      'description says what the skill does but not when to use it; the model decides from this line alone, so add a "Use when …" sentence',
      "description",
    );
  }
  const unknownTools = mapAllowedTools(
    skill.meta.allowedTools ?? [],
    new Set(skill.tools.map((tool) => tool.name)),
  ).filter((entry) => entry.unknown);
  if (unknownTools.length > 0) {
    note(
      "playground",
      "warning",
      "allowed-tools-unknown",
      `allowed-tools names ${unknownTools.map((entry) => entry.entry).join(", ")}, which nothing here maps to (not a Claude Code tool, ` +
        "not one of this playground's, not an MCP tool): it pre-approves nothing",
      "allowed-tools",
    );
  }
  const unknownKeys = Object.keys(extra).filter((key) => !KNOWN_KEYS.has(key));
  for (const key of unknownKeys) {
    const hint = key.replace(/_/g, "-");
    const suggestion = KNOWN_KEYS.has(hint)
      ? ` (did you mean "${hint}"?)`
      : KNOWN_KEYS.has(key.replace(/-/g, "_"))
        ? ` (did you mean "${key.replace(/-/g, "_")}"?)`
        : "";
    note(
      "playground",
      "warning",
      "unknown-key",
      `"${key}" is not a key of Agent Skills, Claude Code or this playground${suggestion}; it is kept in meta.extra and read by nothing`,
      key,
    );
  }
  return notes;
}
