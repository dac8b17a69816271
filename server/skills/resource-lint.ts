// Lint of what a skill says about its own folder: a file the body names that is not there (with the
// case-insensitive match when there is one: `REFERENCE.md` → `reference.md`), and `${…}` variables
// nothing replaces. Runs in the scan's bounded pool; a skill that names no file costs no file access.
import type { Dirent } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { blankCode } from "./code-spans.ts";
import type { LintNote, Skill } from "./types.ts";
import { namedFiles, SKILL_DIR_VARIABLES, unknownVariables } from "./resource-references.ts";

/** True for a folder skill (`<folder>/SKILL.md` or `skill.md`); a loose `*.md` skill has no folder of its own. */
export function hasOwnFolder(skill: Pick<Skill, "entryPath">): boolean {
  return path.basename(skill.entryPath).toLowerCase() === "skill.md";
}

type Lookup = { kind: "exists" } | { kind: "other-case"; actual: string } | { kind: "missing" };

/** Finds `relative` under `root`, exactly or (segment by segment) ignoring case. */
async function lookUp(
  root: string,
  relative: string,
  listings: Map<string, Dirent[] | null>,
): Promise<Lookup> {
  const exact = await lstat(path.join(root, relative)).then(
    () => true,
    () => false,
  );
  if (exact) return { kind: "exists" };
  let folder = root;
  const actual: string[] = [];
  for (const segment of relative.split("/")) {
    let entries = listings.get(folder);
    if (entries === undefined) {
      entries = await readdir(folder, { withFileTypes: true }).catch(() => null);
      listings.set(folder, entries);
    }
    const match =
      entries?.find((entry) => entry.name === segment) ??
      entries?.find((entry) => entry.name.toLowerCase() === segment.toLowerCase());
    if (!match) return { kind: "missing" };
    actual.push(match.name);
    folder = path.join(folder, match.name);
  }
  return { kind: "other-case", actual: actual.join("/") };
}

/**
 * Notes on `raw` (the SKILL.md text as read; lines are lines of that file), with fenced, indented and
 * inline code left out (code-spans.ts: examples there name no file of the skill):
 * - `resource-case`: a named file is missing but one differing only in case exists;
 * - `resource-missing`: a file named as `${SKILL_DIR}/…` or as a Markdown link target does not exist
 *   (a bare file name may well be a file of the working directory, so it is not reported);
 * - `unknown-variable`: a `${NAME}` other than `${SKILL_DIR}` / `${CLAUDE_SKILL_DIR}`, left as typed.
 */
export async function lintResources(skill: Skill, raw: string): Promise<LintNote[]> {
  const notes: LintNote[] = [];
  const note = (rule: string, line: number, message: string) =>
    notes.push({
      skill: skill.meta.name,
      path: skill.entryPath,
      line,
      rule,
      message,
      profile: "playground",
      level: "warning",
    });
  const ownFolder = hasOwnFolder(skill);
  // Most SKILL.md files name no file and use no variable: read them once, and only parse the Markdown
  // (to leave code out) when there is something to check.
  const inRaw = ownFolder ? namedFiles(raw) : [];
  if (inRaw.length === 0 && !raw.includes("${")) return notes;
  const prose = blankCode(raw);
  const known = SKILL_DIR_VARIABLES.map((name) => `\${${name}}`).join(" and ");
  for (const use of unknownVariables(prose)) {
    note(
      "unknown-variable",
      use.line,
      `\${${use.name}} is not replaced (only ${known} are, with the skill's folder); it reaches the model as typed`,
    );
  }
  if (!ownFolder) return notes;
  // In code only a `${SKILL_DIR}/…` path is a claim about the folder (`python ${SKILL_DIR}/run.py`).
  const inProse = namedFiles(prose);
  const seen = new Set(inProse.map((reference) => reference.path));
  const references = [
    ...inProse,
    ...inRaw.filter((reference) => reference.viaSkillDir && !seen.has(reference.path)),
  ];
  if (references.length === 0) return notes;
  const listings = new Map<string, Dirent[] | null>();
  for (const reference of references) {
    const found = await lookUp(skill.rootDir, reference.path, listings);
    if (found.kind === "other-case") {
      note(
        "resource-case",
        reference.line,
        `names ${reference.path}, which does not exist; the folder has ${found.actual} (file names are case-sensitive)`,
      );
    } else if (found.kind === "missing" && reference.explicit) {
      note("resource-missing", reference.line, `names ${reference.path}, which is not in the skill's folder`);
    }
  }
  return notes;
}
