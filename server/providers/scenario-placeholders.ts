// `{{skill_dir:NAME}}` in a scripted tool call's input: the base directory the environment gives for the
// loaded skill NAME (its "Skill base directory:" line), read from that skill's own section of the
// request — found by segment (its name), never by parsing headings. Not loaded (or no folder): the
// placeholder stays as typed, and the call fails as a model's guess would.
import type { ModelRequest } from "./types.ts";

const PLACEHOLDER = /\{\{skill_dir:([a-z0-9][a-z0-9-]*)\}\}/gi;

/** What the placeholders read: the request's environment sections (the skill's is named after it). */
export type SkillSections = Pick<ModelRequest, "environmentSections">;

/** The base directory the environment names for `skill`, if it is loaded there. */
export function skillDirIn(request: SkillSections, skill: string): string | undefined {
  // The first section is always the base block; skills follow (so even a skill named "base" is found).
  const section = request.environmentSections?.slice(1).find((candidate) => candidate.name === skill);
  if (!section) return undefined;
  // The manifest's line comes last in the rendered SOP (skills/render.ts); a body's own such line is earlier.
  const lines = [...section.text.matchAll(/\nSkill base directory: (.+)/g)];
  return lines[lines.length - 1]?.[1]?.trim();
}

/** A copy of `value` with every `{{skill_dir:NAME}}` in its strings replaced where the skill is loaded. */
export function expandSkillDirs<T>(value: T, request: SkillSections): T {
  if (typeof value === "string") {
    return value.replace(PLACEHOLDER, (whole, skill: string) => skillDirIn(request, skill) ?? whole) as T;
  }
  if (Array.isArray(value)) return value.map((item) => expandSkillDirs(item, request)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, expandSkillDirs(item, request)]),
    ) as T;
  }
  return value;
}

const TOOL_STATUS = /\{\{tool_status:([A-Za-z0-9_-]+)\}\}/g;

/**
 * `{{tool_status:NAME}}` in a scripted line: whether NAME is in the tool list of the request being
 * answered, so a line about what the model can see is true whatever happened earlier in the session
 * (a skill loaded in an earlier run has its tools visible from the start of this one).
 */
export function expandToolStatus(text: string, visibleTools: readonly { name: string }[]): string {
  return text.replace(TOOL_STATUS, (_whole, name: string) =>
    visibleTools.some((tool) => tool.name === name)
      ? `\`${name}\` is in my tool list in this run`
      : `\`${name}\` is not in my tool list in this run (a tool a skill installs reaches the list with the next message)`,
  );
}
