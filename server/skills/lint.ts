// Agent Skills lint: advice shown in the catalog, never a reason to drop a skill.
import path from "node:path";
import type { LintNote, Skill } from "./types.ts";

export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_BODY_LINES = 500;

const NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The name a skill is expected to have: its folder, or the file name of a loose `*.md` skill. */
export function expectedSkillName(skill: Pick<Skill, "entryPath" | "rootDir">): string {
  const file = path.basename(skill.entryPath);
  if (file.toLowerCase() === "skill.md") return path.basename(skill.rootDir);
  return file.replace(/\.md$/i, "");
}

export function lintSkill(skill: Skill): LintNote[] {
  const notes: LintNote[] = [];
  const { name, description } = skill.meta;
  const note = (rule: string, message: string) =>
    notes.push({ skill: name, path: skill.entryPath, rule, message });

  if (name.length < 1 || name.length > MAX_NAME_LENGTH) {
    note("name-length", `name is ${name.length} characters; Agent Skills allows 1–${MAX_NAME_LENGTH}`);
  }
  if (!NAME_PATTERN.test(name)) {
    note(
      "name-format",
      `name "${name}" should use only a-z, 0-9 and single hyphens, with no leading or trailing hyphen`,
    );
  }
  const expected = expectedSkillName(skill);
  if (name !== expected)
    note("name-matches-folder", `name "${name}" differs from its folder/file name "${expected}"`);
  if (description.length > MAX_DESCRIPTION_LENGTH) {
    note(
      "description-length",
      `description is ${description.length} characters; the limit is ${MAX_DESCRIPTION_LENGTH}. The catalog ` +
        `keeps it whole, but its line in the skills index is cut at ${MAX_DESCRIPTION_LENGTH} characters`,
    );
  }
  const bodyLines = skill.body.split("\n").length;
  if (bodyLines > MAX_BODY_LINES) {
    note(
      "body-length",
      `body is ${bodyLines} lines; keep it under ${MAX_BODY_LINES} and move detail into referenced files`,
    );
  }
  return notes;
}
