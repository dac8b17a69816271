// Reads the skills folders (one per layer): every `<folder>/SKILL.md` (+ optional tools.json) and every
// loose `*.md` directly inside a folder. One bad skill becomes one warning; the others still load.
// Skills are read concurrently (bounded), but results are assembled in layer order then sorted entry
// name, so skills, warnings and duplicate decisions are the same as a one-by-one scan.
import { opendir, stat } from "node:fs/promises";
import type { Dirent } from "node:fs";
import path from "node:path";
import { parseSkillMarkdown, type ParseProblem } from "./parse-skill.ts";
import { MAX_SKILL_FILE_BYTES, readBounded } from "./read-bounded.ts";
import { parseToolsJson, type PathLookups } from "./tools-json.ts";
import { lintResources } from "./resource-lint.ts";
import { nestingProblem } from "./text-limits.ts";
import type { LintNote, Skill, SkillSource, SkillWarning } from "./types.ts";
import { byName } from "../protocol/names.ts";

export { MAX_SKILL_FILE_BYTES };

/**
 * Skill entries in flight at once: enough to keep libuv's thread pool busy while the main thread parses
 * YAML, few enough that a large catalog never holds hundreds of open file descriptors.
 */
export const SCAN_CONCURRENCY = 16;

/**
 * Entries one skills folder may hold. A folder with more is not loaded at all (one warning naming it and
 * the limit): listing, sorting and loading a folder of 100,000 files would hold up every session, and no
 * subset of them is a better guess than none. Five times the largest catalog the benchmarks load.
 */
export const MAX_LAYER_ENTRIES = 5_000;

export interface LoadedSkill {
  skill: Skill;
  /** The SKILL.md text as read, for the detail view and change detection. */
  raw: string;
  /** tools.json text as read ("" when absent), for change detection. */
  toolsRaw: string;
  /** Lint of the files and variables the SKILL.md names (resource-lint.ts). */
  resourceLint: LintNote[];
}

export interface LayerScan {
  skills: LoadedSkill[];
  warnings: SkillWarning[];
}

/** Shared by every skill of one scan, so work that does not depend on the skill is done once. */
export interface ScanContext {
  /** PATH lookups of bare command names (`node`, `python3`). */
  pathLookups: PathLookups;
}

export function newScanContext(): ScanContext {
  return { pathLookups: new Map() };
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

type EntryOutcome = { loaded: LoadedSkill } | { warning: SkillWarning };

/**
 * Loads one skill from its entry file. `toolsPath` is the tools.json next to a folder skill (loose `*.md`
 * skills have none). Returns the skill or exactly one warning; with `missingIsSkip`, null when the entry
 * file does not exist (a folder without SKILL.md is shared material, not a skill).
 */
export async function loadSkillEntry(
  source: SkillSource,
  entryPath: string,
  rootDir: string,
  toolsPath: string | null,
  options: { missingIsSkip: true; context?: ScanContext },
): Promise<EntryOutcome | null>;
export async function loadSkillEntry(
  source: SkillSource,
  entryPath: string,
  rootDir: string,
  toolsPath: string | null,
  options?: { missingIsSkip?: false; context?: ScanContext },
): Promise<EntryOutcome>;
export async function loadSkillEntry(
  source: SkillSource,
  entryPath: string,
  rootDir: string,
  toolsPath: string | null,
  options: { missingIsSkip?: boolean; context?: ScanContext } = {},
): Promise<EntryOutcome | null> {
  let raw: string;
  try {
    raw = await readBounded(entryPath);
  } catch (error) {
    if (options.missingIsSkip && errorCode(error) === "ENOENT") return null;
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
      // Absent tools.json (the common case) is simply no tools: read directly, no exists-check first.
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
      const tooDeep = nestingProblem(toolsRaw, "tools.json");
      if (tooDeep) return { warning: warningFrom(source, toolsPath, tooDeep, name) };
      const toolsResult = await parseToolsJson(toolsRaw, rootDir, {
        pathLookups: options.context?.pathLookups,
      });
      if (!toolsResult.ok) return { warning: warningFrom(source, toolsPath, toolsResult.problem, name) };
      tools = toolsResult.tools;
    }
  }
  const skill: Skill = {
    meta: parsed.skill.meta,
    body: parsed.skill.body,
    frontmatter: parsed.skill.frontmatter,
    entryPath,
    rootDir,
    source,
    tools,
  };
  return { loaded: { skill, raw, toolsRaw, resourceLint: await lintResources(skill, raw) } };
}

/** One folder entry, classified from its directory entry (a stat only for symlinks and odd types). */
async function loadFolderEntry(
  source: SkillSource,
  folder: string,
  entry: Dirent,
  context: ScanContext,
): Promise<EntryOutcome | null> {
  const entryPath = path.join(folder, entry.name);
  let isDirectory = entry.isDirectory();
  if (!isDirectory && !entry.isFile()) {
    // Symlinks (to a skill folder or file) and unknown types: follow them, as the scan always did.
    try {
      isDirectory = (await stat(entryPath)).isDirectory();
    } catch (error) {
      return { warning: { source, path: entryPath, reason: `cannot read: ${describeError(error)}` } };
    }
  }
  if (isDirectory) {
    const toolsPath = path.join(entryPath, "tools.json");
    const options = { missingIsSkip: true, context } as const;
    // `skill.md` in lower case is accepted too (Agent Skills client guide); SKILL.md wins when both exist.
    return (
      (await loadSkillEntry(source, path.join(entryPath, "SKILL.md"), entryPath, toolsPath, options)) ??
      (await loadSkillEntry(source, path.join(entryPath, "skill.md"), entryPath, toolsPath, options)) ??
      nestedSkillsWarning(source, entryPath)
    );
  }
  const lower = entry.name.toLowerCase();
  if (lower.endsWith(".md") && lower !== "readme.md") {
    return loadSkillEntry(source, entryPath, folder, null, { context });
  }
  return null;
}

/** Subfolders of a folder without SKILL.md that are looked into for skills nested one level too deep. */
const MAX_NESTED_LOOKS = 64;

/**
 * A folder without SKILL.md is shared material, unless folders inside it hold skills: a collection that
 * groups its skills (`document-skills/pdf/SKILL.md`). A skill is a folder directly in a skills folder (as
 * Claude Code reads them), so those are not loaded; rather than drop them silently this is one warning
 * naming them and the fix. Looks at most MAX_NESTED_LOOKS subfolders, one level down.
 */
async function nestedSkillsWarning(source: SkillSource, folder: string): Promise<EntryOutcome | null> {
  const nested: string[] = [];
  let looked = 0;
  try {
    for await (const entry of await opendir(folder, { bufferSize: 64 })) {
      if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
      if (looked++ === MAX_NESTED_LOOKS) break;
      for (const file of ["SKILL.md", "skill.md"]) {
        const found = await stat(path.join(folder, entry.name, file)).then(
          (info) => info.isFile(),
          () => false,
        );
        if (found) {
          nested.push(entry.name);
          break;
        }
      }
    }
  } catch {
    return null; // unreadable: the folder was shared material to the scan before, and stays so
  }
  if (nested.length === 0) return null;
  nested.sort();
  const reason =
    `holds no SKILL.md, but ${nested.length} folder(s) inside it hold skills (${nested.join(", ")}): ` +
    `a skill is a folder directly in the skills folder (one folder deep), so these are not loaded; ` +
    `move each up one level to offer it`;
  return { warning: { source, path: folder, reason } };
}

/** Runs `work` over `items` with at most `limit` in flight; results keep the input order. */
async function mapBounded<Item, Result>(
  items: readonly Item[],
  limit: number,
  work: (item: Item) => Promise<Result>,
): Promise<Result[]> {
  const results = new Array<Result>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index]);
      } catch (error) {
        failed = true; // stop the other workers from starting new items; Promise.all reports the error
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

interface LayerListing {
  source: SkillSource;
  folder: string;
  entries: Dirent[];
  folderWarning?: SkillWarning;
}

async function listLayer(source: SkillSource, folder: string): Promise<LayerListing> {
  const entries: Dirent[] = [];
  try {
    // One entry at a time, stopping past the limit, so a huge folder costs no more than the limit
    // (leaving the loop closes the directory).
    for await (const entry of await opendir(folder, { bufferSize: 256 })) {
      if (entries.length === MAX_LAYER_ENTRIES) {
        const reason = `this skills folder has more than ${MAX_LAYER_ENTRIES} entries; the limit is ${MAX_LAYER_ENTRIES}, so none of its skills were loaded (move what is not a skill out of it)`;
        return { source, folder, entries: [], folderWarning: { source, path: folder, reason } };
      }
      entries.push(entry);
    }
  } catch (error) {
    // A missing folder is an empty layer, not a warning (most users have no user layer).
    if (errorCode(error) === "ENOENT") return { source, folder, entries: [] };
    return {
      source,
      folder,
      entries: [],
      folderWarning: { source, path: folder, reason: `cannot read skills folder: ${describeError(error)}` },
    };
  }
  return { source, folder, entries: entries.filter((entry) => !entry.name.startsWith(".")).sort(byName) };
}

/**
 * Scans several layer folders at once (one bounded pool over all their entries). Returns one LayerScan
 * per input, in input order, each exactly what a one-by-one scan of that folder would give.
 */
export async function scanLayers(
  layers: readonly { source: SkillSource; folder: string }[],
  context: ScanContext = newScanContext(),
): Promise<LayerScan[]> {
  const listings = await Promise.all(layers.map((layer) => listLayer(layer.source, layer.folder)));
  const jobs = listings.flatMap((listing) => listing.entries.map((entry) => ({ listing, entry })));
  // One skill is one outcome, whatever it holds: anything a skill makes a parser or compiler throw is that
  // skill's warning, never the end of the scan (and with it every other skill).
  const outcomes = await mapBounded(jobs, SCAN_CONCURRENCY, ({ listing, entry }) =>
    loadFolderEntry(listing.source, listing.folder, entry, context).catch((error: unknown): EntryOutcome => ({
      warning: {
        source: listing.source,
        path: path.join(listing.folder, entry.name),
        reason: `cannot load this skill: ${describeError(error)}`,
      },
    })),
  );
  let cursor = 0;
  return listings.map((listing) => {
    const result: LayerScan = { skills: [], warnings: listing.folderWarning ? [listing.folderWarning] : [] };
    const seen = new Map<string, string>();
    for (let index = 0; index < listing.entries.length; index++) {
      const outcome = outcomes[cursor++];
      if (outcome === null) continue;
      if ("warning" in outcome) {
        result.warnings.push(outcome.warning);
        continue;
      }
      const name = outcome.loaded.skill.meta.name;
      const earlier = seen.get(name);
      if (earlier) {
        result.warnings.push({
          source: listing.source,
          path: outcome.loaded.skill.entryPath,
          skill: name,
          reason: `duplicate skill name "${name}" in the ${listing.source} layer; ${earlier} already defines it`,
        });
        continue;
      }
      seen.set(name, outcome.loaded.skill.entryPath);
      result.skills.push(outcome.loaded);
    }
    return result;
  });
}
