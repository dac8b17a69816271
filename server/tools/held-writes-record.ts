// What a held call wrote (held-writes.ts), recorded from its upper layer just before it is applied, so the
// chat can show it: every path the call added, changed or removed, and for a small text file its text
// before and after (a line diff on the tool card). Files the user later runs on purpose (package.json
// scripts, a Makefile, `.envrc`) are theirs to review; this list is how they see every such write.
//
// THE READ RULE: the text "before" is read from the real workdir, which other processes may change at the
// same moment (an MCP server, the user's editor), with the host's privileges: so it is read as the apply
// writes (held-writes-apply.ts), never following a symbolic link — each folder held open from the one
// above it (O_DIRECTORY | O_NOFOLLOW) and the file opened O_NOFOLLOW | O_NONBLOCK through
// `/proc/self/fd/<folder>/<name>` (a fifo planted there must not stall the server). The text "after" is
// read from upper, the server's private folder, which nothing writes once the call has ended.
//
// Bounded: at most WRITES_LISTED paths (then a count), at most DIFF_TEXT_PER_CALL characters of text per
// call (then paths only), files of at most DIFF_FILE_BYTES, and a new folder's files are counted up to
// ENTRIES_COUNTED (npm's 100,000 files must not hold the call's result). The walk goes a folder level at
// a time, so what sits at the workdir's top (package.json, a Makefile) is listed before what is deep.
import { constants, type Stats } from "node:fs";
import { lstat, open, readdir, type FileHandle } from "node:fs/promises";
import path from "node:path";
import type { WrittenPath } from "../protocol/model.ts";
import { FOLDER_FLAGS, at } from "./held-writes-apply.ts";

export const WRITES_LISTED = 200;
export const DIFF_FILE_BYTES = 64 * 1024;
export const DIFF_TEXT_PER_CALL = 256 * 1024;
const ENTRIES_COUNTED = 5_000;

/** What a call wrote: the listed paths, how many more, and whether that count stopped early. */
export interface CallWrites {
  writes: WrittenPath[];
  omitted: number;
  omittedAtLeast: boolean;
}

const FILE_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

function isWhiteout(info: Stats): boolean {
  return info.isCharacterDevice() && info.rdev === 0;
}

/** A small UTF-8 text file's content, or why there is none. Never follows a link at the final name. */
async function smallText(target: string): Promise<{ text: string } | { why: string }> {
  let file: FileHandle;
  try {
    file = await open(target, FILE_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { why: code === "ELOOP" ? "a symbolic link" : `could not be read (${code ?? "error"})` };
  }
  try {
    return await textOf(file);
  } catch (error) {
    return { why: `could not be read (${(error as NodeJS.ErrnoException).code ?? "error"})` };
  } finally {
    await file.close().catch(() => undefined);
  }
}

/** The text of the file open as `file` (a fifo or a device opened there is not read: it is no file). */
async function textOf(file: FileHandle): Promise<{ text: string } | { why: string }> {
  const info = await file.stat();
  if (!info.isFile()) return { why: "not a regular file" };
  if (info.size > DIFF_FILE_BYTES) return { why: `over ${DIFF_FILE_BYTES / 1024} KB` };
  const bytes = new Uint8Array(info.size);
  const { bytesRead } = await file.read(bytes, 0, info.size, 0);
  const content = bytes.subarray(0, bytesRead);
  if (content.includes(0)) return { why: "not text (a NUL byte)" };
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(content) };
  } catch {
    return { why: "not text (not UTF-8)" };
  }
}

class Recorder {
  readonly writes: WrittenPath[] = [];
  omitted = 0;
  /** Entries and folders looked at: the walk stops at ENTRIES_COUNTED. */
  counted = 0;
  private textChars = 0;

  constructor(private readonly upper: string) {}

  get full(): boolean {
    return this.counted >= ENTRIES_COUNTED;
  }

  /** Adds a path; texts are read only for listed ones. `before` reads the workdir's file (changed only). */
  async add(
    relative: string,
    change: WrittenPath["change"],
    info?: Stats,
    before?: () => Promise<{ text: string } | { why: string }>,
  ): Promise<void> {
    this.counted++;
    if (this.writes.length >= WRITES_LISTED) {
      this.omitted++;
      return;
    }
    const entry: WrittenPath = { path: relative, change };
    this.writes.push(entry);
    if (change === "removed" || !info) return;
    if (info.isSymbolicLink()) return void (entry.noDiff = "a symbolic link");
    if (!info.isFile()) return void (entry.noDiff = "not a regular file");
    if (this.textChars >= DIFF_TEXT_PER_CALL)
      return void (entry.noDiff = `the call's diffs passed ${DIFF_TEXT_PER_CALL / 1024} KB of text`);
    const after = await smallText(path.join(this.upper, relative));
    if ("why" in after) return void (entry.noDiff = after.why);
    const old = before ? await before() : { text: "" };
    if ("why" in old) return void (entry.noDiff = `before: ${old.why}`);
    const size = after.text.length + old.text.length;
    if (this.textChars + size > DIFF_TEXT_PER_CALL) {
      this.textChars = DIFF_TEXT_PER_CALL;
      return void (entry.noDiff = `the call's diffs passed ${DIFF_TEXT_PER_CALL / 1024} KB of text`);
    }
    this.textChars += size;
    if (before) entry.before = old.text;
    entry.after = after.text;
  }
}

/** One folder of upper to look at: its path, and the workdir's folder held open when it has one. */
type Level = { relative: string; workdir?: FileHandle };

/**
 * Records what `upper` (a call's upper layer) will do to `workdir` once applied. Call it before the
 * apply, which moves upper's entries away. Never throws: an entry that cannot be looked at is listed
 * without its text.
 */
export async function recordHeldWrites(upper: string, workdir: string): Promise<CallWrites> {
  const record = new Recorder(upper);
  let root: FileHandle | undefined;
  try {
    root = await open(workdir, FOLDER_FLAGS);
  } catch {
    // Listed as if the workdir had nothing: every path "added", no "before".
  }
  let level: Level[] = [{ relative: "", ...(root ? { workdir: root } : {}) }];
  try {
    while (level.length > 0 && !record.full) {
      const next: Level[] = [];
      for (const folder of level) {
        if (record.full) break;
        next.push(...(await recordFolder(record, upper, folder)));
      }
      for (const folder of level) await folder.workdir?.close().catch(() => undefined);
      level = next;
    }
  } finally {
    // Folders of a level the walk did not reach (it stopped counting).
    for (const folder of level) await folder.workdir?.close().catch(() => undefined);
  }
  return { writes: record.writes, omitted: record.omitted, omittedAtLeast: record.full };
}

/** The entries of one folder of upper; returns its subfolders to walk next. */
async function recordFolder(record: Recorder, upper: string, { relative, workdir }: Level): Promise<Level[]> {
  const next: Level[] = [];
  record.counted++;
  let names: string[];
  try {
    names = (await readdir(path.join(upper, relative))).sort();
  } catch {
    return next;
  }
  if (names.length === 0 && !workdir) await record.add(`${relative}/`, "added");
  for (const name of names) {
    if (record.full) break;
    const child = path.join(relative, name);
    const info = await lstat(path.join(upper, child)).catch(() => undefined);
    if (!info) continue;
    const existing = workdir ? await lstat(at(workdir, name)).catch(() => undefined) : undefined;
    if (isWhiteout(info)) {
      // A whiteout in a folder the workdir does not have marks nothing (the apply drops it).
      if (existing) await record.add(existing.isDirectory() ? `${child}/` : child, "removed");
    } else if (info.isDirectory()) {
      if (existing && !existing.isDirectory()) await record.add(child, "removed");
      const inner =
        workdir && existing?.isDirectory()
          ? await open(at(workdir, name), FOLDER_FLAGS).catch(() => undefined)
          : undefined;
      next.push({ relative: child, ...(inner ? { workdir: inner } : {}) });
    } else if (existing && workdir) {
      const folder = workdir;
      await record.add(child, "changed", info, () =>
        existing.isDirectory() ? Promise.resolve({ why: "was a folder" }) : smallText(at(folder, name)),
      );
    } else {
      await record.add(child, "added", info);
    }
  }
  return next;
}

/** Adds the entries the apply removed from folders the call made anew (ApplyReport.removedHidden). */
export function withHiddenRemovals(writes: CallWrites, removed: readonly string[]): CallWrites {
  const room = Math.max(0, WRITES_LISTED - writes.writes.length);
  const listed = removed
    .slice(0, room)
    .map((relative): WrittenPath => ({ path: relative, change: "removed" }));
  return {
    writes: [...writes.writes, ...listed],
    omitted: writes.omitted + removed.length - listed.length,
    omittedAtLeast: writes.omittedAtLeast,
  };
}
