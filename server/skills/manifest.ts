// Level 3 of disclosure: a skill folder's own files. Built by load_skill (never at catalog load, so a
// catalog of 1,000 skills costs nothing extra): the folder's realpath and a bounded listing of its files.
import type { Dirent } from "node:fs";
import { lstat, readdir, realpath } from "node:fs/promises";
import path from "node:path";
import type { SkillResourceFile, SkillResources } from "../protocol/skill-resources.ts";
import { byName } from "../protocol/names.ts";
import { namedFiles } from "./resource-references.ts";

export const MANIFEST_MAX_DEPTH = 4;
export const MANIFEST_MAX_ENTRIES = 100;
/** Folders never listed (and never descended into). */
export const MANIFEST_SKIPPED_FOLDERS: readonly string[] = [".git", "node_modules"];
/** Top-level files the mechanism itself reads (the skill's tools are already installed from it). */
const MECHANISM_FILES: readonly string[] = ["tools.json"];

/**
 * The skill's base directory (realpath of `rootDir`) and its files, breadth first, by name within a
 * folder: depth ≤ 4 (files directly in the folder are depth 1), at most 100 entries, `.git` and
 * `node_modules` skipped, symlinks left out (the file tools refuse those that lead out of the folder),
 * the entry file and tools.json left out. A folder that cannot be read lists what could be.
 */
export async function buildSkillManifest(
  rootDir: string,
  entryPath: string,
  body: string,
): Promise<SkillResources> {
  const baseDir = await realpath(rootDir);
  const entryReal = await realpath(entryPath).catch(() => path.resolve(entryPath));
  const files: SkillResourceFile[] = [];
  let more = 0;
  let level: { folder: string; relative: string }[] = [{ folder: baseDir, relative: "" }];
  for (let depth = 1; depth <= MANIFEST_MAX_DEPTH && level.length > 0; depth++) {
    const next: { folder: string; relative: string }[] = [];
    for (const { folder, relative } of level) {
      let entries: Dirent[];
      try {
        entries = (await readdir(folder, { withFileTypes: true })).sort(byName);
      } catch {
        continue;
      }
      for (const entry of entries) {
        const childRelative = relative === "" ? entry.name : `${relative}/${entry.name}`;
        const childPath = path.join(folder, entry.name);
        if (entry.isDirectory()) {
          if (!MANIFEST_SKIPPED_FOLDERS.includes(entry.name)) {
            next.push({ folder: childPath, relative: childRelative });
          }
          continue;
        }
        if (!entry.isFile() || childPath === entryReal) continue;
        if (depth === 1 && MECHANISM_FILES.includes(entry.name)) continue;
        if (files.length >= MANIFEST_MAX_ENTRIES) {
          more++;
          continue;
        }
        const size = await lstat(childPath).then(
          (stats) => stats.size,
          () => undefined,
        );
        if (size !== undefined) files.push({ path: childRelative, bytes: size });
      }
    }
    level = next;
  }
  return { baseDir, files, more, referenced: referencedManifestFiles(body, files) };
}

/** Manifest paths the body names, by relative path or by file name (exact case; lint reports the rest). */
export function referencedManifestFiles(body: string, files: readonly SkillResourceFile[]): string[] {
  const named = new Set(namedFiles(body).map((reference) => reference.path));
  return files
    .map((file) => file.path)
    .filter((file) => named.has(file) || named.has(path.posix.basename(file)));
}

function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`;
}

/** The lines appended to a rendered SOP: where the skill lives and what it ships. */
export function renderResourcesBlock(resources: SkillResources): string {
  const lines = [`Skill base directory: ${resources.baseDir}`];
  if (resources.files.length === 0) return lines[0]!;
  lines.push(
    "Files in this skill (relative to the base directory; read one with read_file on <base directory>/<path> only when a step needs it):",
    ...resources.files.map((file) => `- ${file.path} (${formatBytes(file.bytes)})`),
  );
  if (resources.more > 0) lines.push(`… and ${resources.more} more`);
  return lines.join("\n");
}
