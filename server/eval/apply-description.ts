// Apply: the optimizer panel writes a chosen description into a skill's SKILL.md, only when the person
// clicks Apply after seeing the diff (issue 25). Only `description` changes: the frontmatter is edited as
// a YAML document (the `yaml` library keeps the other keys, their order and comments), the body is kept
// byte for byte, and the new text must parse back to the same skill with the new description before it
// replaces the file (temp file + rename). Builtin skills belong to the playground and are not written.
import { readFile } from "node:fs/promises";
import { parseDocument } from "yaml";
import { PlaygroundError, errorMessage } from "../errors/index.ts";
import { INDEX_DESCRIPTION_LIMIT } from "../prompt/stable-system.ts";
import { parseSkillMarkdown } from "../skills/parse-skill.ts";
import type { Skill } from "../skills/types.ts";
import { writeAtomically } from "./results.ts";

export interface AppliedDescription {
  file: string;
  before: string;
  after: string;
}

function refuse(message: string): PlaygroundError {
  return new PlaygroundError("invalid_arguments", message);
}

/** The file's text with only the frontmatter's `description` replaced. */
export function withDescription(text: string, description: string, file: string): string {
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const lines = text.slice(bom.length).split("\n");
  const close = lines.findIndex((line, index) => index > 0 && /^(---|\.\.\.)\r?$/.test(line));
  if (lines[0]?.replace(/\r$/, "") !== "---" || close === -1) {
    throw refuse(`${file}: no frontmatter between --- lines to put the description in`);
  }
  const eol = lines[0].endsWith("\r") ? "\r\n" : "\n";
  const document = parseDocument(lines.slice(1, close).join("\n"));
  if (document.errors.length > 0)
    throw refuse(`${file}: its frontmatter does not parse: ${document.errors[0].message}`);
  document.set("description", description);
  const frontmatter = document.toString({ lineWidth: 0 }).replace(/\n$/, "").split("\n").join(eol);
  return `${bom}${lines[0]}\n${frontmatter}${eol}${lines.slice(close).join("\n")}`;
}

export async function applyDescription(skill: Skill, proposed: string): Promise<AppliedDescription> {
  const description = proposed.replace(/\s+/g, " ").trim();
  if (skill.source === "builtin") {
    throw refuse(
      `${skill.meta.name} is a builtin skill of the playground: copy it to the project (or user) layer to change its description`,
    );
  }
  if (description === "" || description.length > INDEX_DESCRIPTION_LIMIT) {
    throw refuse(
      `a description must have 1 to ${INDEX_DESCRIPTION_LIMIT} characters (got ${description.length})`,
    );
  }
  if (/[<>]/.test(description))
    throw refuse("a description may not contain < or > (Agent Skills upload rules)");
  let text: string;
  try {
    text = await readFile(skill.entryPath, "utf8");
  } catch (error) {
    throw new PlaygroundError("io_error", `${skill.entryPath}: cannot read it: ${errorMessage(error)}`);
  }
  const next = withDescription(text, description, skill.entryPath);
  const parsed = parseSkillMarkdown(next);
  if (
    !parsed.ok ||
    parsed.skill.meta.name !== skill.meta.name ||
    parsed.skill.meta.description !== description
  ) {
    throw refuse(
      `${skill.entryPath}: the edited file would not read back as ${skill.meta.name} with the new description; nothing was written`,
    );
  }
  try {
    await writeAtomically(skill.entryPath, next);
  } catch (error) {
    throw new PlaygroundError("io_error", `${skill.entryPath}: cannot write it: ${errorMessage(error)}`);
  }
  return { file: skill.entryPath, before: skill.meta.description, after: description };
}
