// What an install source (a .zip or a folder) becomes before anything is written: the files of exactly one
// top-level folder, in memory, each path checked against the install rules. A broken rule is an
// InstallRefused naming the entry and the rule, so the CLI can print one line and exit 2.

/** At most this many files (folders do not count). */
export const MAX_INSTALL_FILES = 512;
/** At most this many bytes once inflated, counted while reading (headers are not trusted). */
export const MAX_INSTALL_BYTES = 30 * 1024 * 1024;
/** A path longer than this is refused (no skill needs it; some file systems cannot hold it). */
const MAX_PATH_LENGTH = 1024;

export class InstallRefused extends Error {
  /** The archive entry (or file, or source) that broke the rule. */
  readonly entry: string;
  readonly rule: string;
  constructor(entry: string, rule: string) {
    super(`refused: ${JSON.stringify(entry)}: ${rule}`);
    this.name = "InstallRefused";
    this.entry = entry;
    this.rule = rule;
  }
}

export interface InstallFile {
  /** Relative to the skill folder, `/`-separated, already checked. */
  path: string;
  data: Buffer;
  executable: boolean;
}

export interface InstallTree {
  /** The single top-level folder's name in the archive (the folder's own name for a folder source). */
  topFolder: string;
  files: InstallFile[];
  /** Folders below the top folder (relative), including empty ones. */
  folders: string[];
  bytes: number;
}

/**
 * The checks of one entry name: a relative path of plain segments. Returns the segments.
 * `entryName` is the name as the archive spells it (for the message).
 */
export function checkEntryPath(entryName: string): string[] {
  if (entryName.length > MAX_PATH_LENGTH)
    throw new InstallRefused(entryName.slice(0, 80) + "…", `path longer than ${MAX_PATH_LENGTH} characters`);
  if (/[\u0000-\u001f\u007f]/.test(entryName))
    throw new InstallRefused(entryName, "control character (or NUL) in the path");
  if (entryName.includes("\\"))
    throw new InstallRefused(
      entryName,
      "backslash in the path (zip paths use '/'; a backslash may be a separator elsewhere)",
    );
  if (entryName.startsWith("/") || /^[a-zA-Z]:/.test(entryName))
    throw new InstallRefused(entryName, "absolute path");
  const trimmed = entryName.endsWith("/") ? entryName.slice(0, -1) : entryName;
  const segments = trimmed.split("/");
  if (segments.includes(".."))
    throw new InstallRefused(entryName, "'..' in the path (it would write outside the skill folder)");
  if (segments.some((segment) => segment === "" || segment === "."))
    throw new InstallRefused(entryName, "empty or '.' path segment");
  return segments;
}

/**
 * Names never installed, at any depth, from a zip or a folder alike: `.git`, folder or file (a repository's
 * config and hooks run whenever git runs there, and a `.git` file points git at another repository: an
 * installed skill folder must never be one; any case, as case-insensitive file systems read it), and
 * `node_modules` (dependencies are installed where they run, not shipped with a skill).
 */
export function isSkippedName(name: string): boolean {
  return name.toLowerCase() === ".git" || name === "node_modules";
}

/** Collects checked entries; enforces one top-level folder, the file count, the byte total, duplicates. */
export class InstallTreeBuilder {
  private topFolder: string | undefined;
  private readonly files = new Map<string, InstallFile>();
  private readonly folders = new Set<string>();
  private bytes = 0;

  /**
   * Entries skipped, not installed: `__MACOSX/` (Finder's resource forks: no skill content) and anything
   * at or below a skipped name (isSkippedName) inside the skill folder.
   */
  static isIgnored(segments: readonly string[]): boolean {
    return segments[0] === "__MACOSX" || segments.slice(1).some(isSkippedName);
  }

  private top(entryName: string, segments: string[], isFolder: boolean): string[] {
    if (segments.length === 1 && !isFolder)
      throw new InstallRefused(
        entryName,
        "a file at the top level: the archive must hold exactly one folder (the skill)",
      );
    if (this.topFolder === undefined) this.topFolder = segments[0];
    else if (segments[0] !== this.topFolder)
      throw new InstallRefused(
        entryName,
        `a second top-level folder "${segments[0]}" next to "${this.topFolder}": the archive must hold exactly one folder (the skill)`,
      );
    return segments.slice(1);
  }

  private addParents(relative: string[]): void {
    for (let depth = 1; depth < relative.length; depth++) {
      const parent = relative.slice(0, depth).join("/");
      if (this.files.has(parent)) throw new InstallRefused(parent, "both a file and a folder");
      this.folders.add(parent);
    }
  }

  addFolder(entryName: string, segments: string[]): void {
    const relative = this.top(entryName, segments, true);
    if (relative.length === 0) return;
    const key = relative.join("/");
    if (this.files.has(key)) throw new InstallRefused(entryName, "both a file and a folder");
    this.addParents(relative);
    this.folders.add(key);
  }

  /** Call before reading the content: refuses the 513th file before a byte of it is inflated. */
  beginFile(entryName: string, segments: string[]): string {
    const relative = this.top(entryName, segments, false);
    const key = relative.join("/");
    if (this.files.has(key)) throw new InstallRefused(entryName, "duplicate entry (the same path twice)");
    if (this.folders.has(key)) throw new InstallRefused(entryName, "both a file and a folder");
    if (this.files.size >= MAX_INSTALL_FILES)
      throw new InstallRefused(entryName, `more than ${MAX_INSTALL_FILES} files`);
    this.addParents(relative);
    return key;
  }

  /** Counts bytes as they arrive (a stream calls this per chunk); past the limit it refuses at once. */
  countBytes(entryName: string, byteCount: number): void {
    this.bytes += byteCount;
    if (this.bytes > MAX_INSTALL_BYTES)
      throw new InstallRefused(
        entryName,
        `more than ${MAX_INSTALL_BYTES / (1024 * 1024)} MiB uncompressed (stopped while inflating it)`,
      );
  }

  endFile(key: string, data: Buffer, executable: boolean): void {
    this.files.set(key, { path: key, data, executable });
  }

  finish(sourceName: string): InstallTree {
    if (this.topFolder === undefined) throw new InstallRefused(sourceName, "empty: no folder, no files");
    const files = [...this.files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { topFolder: this.topFolder, files, folders: [...this.folders].sort(), bytes: this.bytes };
  }
}
