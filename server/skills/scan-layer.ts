// Reads one skills folder (one layer): every `<folder>/SKILL.md` (+ optional tools.json) and every loose
// `*.md` directly inside it. One bad skill becomes one warning; the others still load.
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { parseSkillMarkdown, type ParseProblem } from "./parse-skill.ts";
import { parseToolsJson } from "./tools-json.ts";
import type { Skill, SkillSource, SkillWarning } from "./types.ts";

/** A SKILL.md larger than this is refused: a skill body is meant to be read by a model in one go. */
export const MAX_SKILL_FILE_BYTES = 1024 * 1024;

export interface LoadedSkill {
  skill: Skill;
  /** The SKILL.md text as read, for the detail view and change detection. */
  raw: string;
  /** tools.json text as read ("" when absent), for change detection. */
  toolsRaw: string;
}

export interface LayerScan {
  skills: LoadedSkill[];
  warnings: SkillWarning[];
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error
    ? String((error as { code: unknown }).code)
    : undefined;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function warningFrom(
  source: SkillSource,
  filePath: string,
  problem: ParseProblem,
  skill?: string,
): SkillWarning {
  return {
    source,
    path: filePath,
    ...(skill ? { skill } : {}),
    ...(problem.line !== undefined ? { line: problem.line } : {}),
    ...(problem.column !== undefined ? { column: problem.column } : {}),
    reason: problem.reason,
  };
}

async function readBounded(filePath: string): Promise<string> {
  const info = await stat(filePath);
  if (info.size > MAX_SKILL_FILE_BYTES) {
    throw new Error(`file is ${info.size} bytes; the limit is ${MAX_SKILL_FILE_BYTES}`);
  }
  return readFile(filePath, "utf8");
}

/**
 * Loads one skill from its entry file. `toolsPath` is the tools.json next to a folder skill (loose `*.md`
 * skills have none). Returns the skill or exactly one warning.
 */
export async function loadSkillEntry(
  source: SkillSource,
  entryPath: string,
  rootDir: string,
  toolsPath: string | null,
): Promise<{ loaded: LoadedSkill } | { warning: SkillWarning }> {
  let raw: string;
  try {
    raw = await readBounded(entryPath);
  } catch (error) {
    return {
      warning: {
        source,
        path: entryPath,
        reason: `cannot read ${path.basename(entryPath)}: ${describeError(error)}`,
      },
    };
  }
  const parsed = parseSkillMarkdown(raw);
  if (!parsed.ok) return { warning: warningFrom(source, entryPath, parsed.problem) };
  const name = parsed.skill.meta.name;

  let toolsRaw = "";
  let tools: Skill["tools"] = [];
  if (toolsPath) {
    try {
      toolsRaw = await readBounded(toolsPath);
    } catch (error) {
      if (errorCode(error) !== "ENOENT") {
        return {
          warning: {
            source,
            path: toolsPath,
            skill: name,
            reason: `cannot read tools.json: ${describeError(error)}`,
          },
        };
      }
    }
    if (toolsRaw !== "") {
      const toolsResult = await parseToolsJson(toolsRaw, rootDir);
      if (!toolsResult.ok) return { warning: warningFrom(source, toolsPath, toolsResult.problem, name) };
      tools = toolsResult.tools;
    }
  }
  return {
    loaded: {
      skill: { meta: parsed.skill.meta, body: parsed.skill.body, entryPath, rootDir, source, tools },
      raw,
      toolsRaw,
    },
  };
}

/** Scans one layer folder. A missing folder is an empty layer, not a warning (most users have no user layer). */
export async function scanLayer(source: SkillSource, folder: string): Promise<LayerScan> {
  const result: LayerScan = { skills: [], warnings: [] };
  let entries: string[];
  try {
    entries = (await readdir(folder)).sort();
  } catch (error) {
    if (errorCode(error) === "ENOENT") return result;
    result.warnings.push({
      source,
      path: folder,
      reason: `cannot read skills folder: ${describeError(error)}`,
    });
    return result;
  }
  const seen = new Map<string, string>();
  for (const entry of entries) {
    if (entry.startsWith(".")) continue;
    const entryPath = path.join(folder, entry);
    let isDirectory: boolean;
    try {
      isDirectory = (await stat(entryPath)).isDirectory();
    } catch (error) {
      result.warnings.push({ source, path: entryPath, reason: `cannot read: ${describeError(error)}` });
      continue;
    }
    let outcome: Awaited<ReturnType<typeof loadSkillEntry>>;
    if (isDirectory) {
      const skillFile = path.join(entryPath, "SKILL.md");
      try {
        await stat(skillFile);
      } catch (error) {
        // A folder without SKILL.md is shared material (scripts, assets), not a skill.
        if (errorCode(error) === "ENOENT") continue;
        result.warnings.push({
          source,
          path: skillFile,
          reason: `cannot read SKILL.md: ${describeError(error)}`,
        });
        continue;
      }
      outcome = await loadSkillEntry(source, skillFile, entryPath, path.join(entryPath, "tools.json"));
    } else if (entry.toLowerCase().endsWith(".md") && entry.toLowerCase() !== "readme.md") {
      outcome = await loadSkillEntry(source, entryPath, folder, null);
    } else {
      continue;
    }
    if ("warning" in outcome) {
      result.warnings.push(outcome.warning);
      continue;
    }
    const name = outcome.loaded.skill.meta.name;
    const earlier = seen.get(name);
    if (earlier) {
      result.warnings.push({
        source,
        path: outcome.loaded.skill.entryPath,
        skill: name,
        reason: `duplicate skill name "${name}" in the ${source} layer; ${earlier} already defines it`,
      });
      continue;
    }
    seen.set(name, outcome.loaded.skill.entryPath);
    result.skills.push(outcome.loaded);
  }
  return result;
}
