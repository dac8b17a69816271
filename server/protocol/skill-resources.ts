// Level 3 of disclosure on the wire: where a loaded skill lives and which of its own files it ships
// (computed by load_skill), and each read of one of those files.

/** One file of a skill folder, relative to its base directory (`/` separators). */
export interface SkillResourceFile {
  path: string;
  bytes: number;
}

/** A loaded skill's base directory and a bounded manifest of its files (server/skills/manifest.ts). */
export interface SkillResources {
  /** Realpath of the skill folder: the file tools may read inside it once the skill is loaded. */
  baseDir: string;
  /** Depth ≤ 4, at most 100 entries, `.git` and `node_modules` skipped, the entry file (SKILL.md) and tools.json left out. */
  files: SkillResourceFile[];
  /** Files past the 100-entry bound ("… and N more"). */
  more: number;
  /** Manifest paths the SOP names (by path or file name): the ones a run is expected to read. */
  referenced: string[];
}
