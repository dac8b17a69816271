// What the lane and the catalog show of a loaded skill's files (./skill-resources.ts keeps the log): each
// file listed / read / ran as a script / used by a command / never read, with its reads and uses, and
// level 3's token cost — as one request carried them, or for the whole session so far.
//
// A file read (or run, or named by a command) after request #N is in the conversation of the requests
// after #N (its result is), so request #R carries what was logged after a request before #R; "never
// read" holds at #R when a run ended before #R without the file being read, run or named. Only lazily
// loaded views import this, so none of it is first-load JS.
import type { SkillFileEvent, SkillResourceView } from "./skill-resources.ts";

/**
 * `read`: read_file brought it into the conversation; `ran`: a command ran it as a script; `used`: a
 * command named it as an argument; `never-read`: the SOP points to it and a run ended without any of
 * these. A file the run used in any way is never "never read".
 */
export type SkillFileState = "listed" | "read" | "ran" | "used" | "never-read";

/** How often commands used one file (skill_resource_used), and the last tool that did. */
export interface SkillFileUses {
  ran: number;
  named: number;
  tool: string;
}

export interface SkillFileReads {
  reads: number;
  bytes: number;
  tokens: number;
}

/** A skill's files at one moment: the reads and uses by path, and whether a run had ended since it was loaded. */
export interface SkillFilesAt {
  view: SkillResourceView;
  reads: Record<string, SkillFileReads>;
  uses: Record<string, SkillFileUses>;
  runEnded: boolean;
}

export interface SkillFileRow {
  path: string;
  bytes?: number;
  state: SkillFileState;
  reads?: SkillFileReads;
  uses?: SkillFileUses;
  referenced: boolean;
}

/**
 * The skill's files as request #`requestIndex` carried them (the reads and uses logged after a request
 * before it); without a request, the whole session so far.
 */
export function filesAt(view: SkillResourceView, requestIndex = Infinity): SkillFilesAt {
  const reads: Record<string, SkillFileReads> = {};
  const uses: Record<string, SkillFileUses> = {};
  for (const entry of view.log) {
    if (entry.after >= requestIndex) continue;
    if (entry.tokens !== undefined) {
      const before = reads[entry.path] ?? { reads: 0, bytes: 0, tokens: 0 };
      reads[entry.path] = {
        reads: before.reads + 1,
        bytes: before.bytes + (entry.bytes ?? 0),
        tokens: before.tokens + entry.tokens,
      };
    }
    if (entry.how && entry.tool) {
      const before = uses[entry.path] ?? { ran: 0, named: 0, tool: entry.tool };
      uses[entry.path] = {
        ran: before.ran + (entry.how === "ran" ? 1 : 0),
        named: before.named + (entry.how === "named" ? 1 : 0),
        tool: entry.tool,
      };
    }
  }
  // A request before the skill's last (re)load: whether a run ended without a read before it is not
  // kept, so no file is called "never read" there.
  const runEnded =
    view.loadedAfter < requestIndex && view.endedAfter !== undefined && view.endedAfter < requestIndex;
  return { view, reads, uses, runEnded };
}

function stateOf(reads: SkillFileReads | undefined, uses: SkillFileUses | undefined): SkillFileState {
  if (uses && uses.ran > 0) return "ran";
  if (reads) return "read";
  if (uses) return "used";
  return "listed";
}

function row(at: SkillFilesAt, path: string, bytes: number | undefined): SkillFileRow {
  const reads = at.reads[path];
  const uses = at.uses[path];
  const referenced = at.view.referenced.includes(path);
  const used = stateOf(reads, uses);
  const state: SkillFileState = used === "listed" && referenced && at.runEnded ? "never-read" : used;
  return {
    path,
    ...(bytes !== undefined ? { bytes } : {}),
    state,
    ...(reads ? { reads } : {}),
    ...(uses ? { uses } : {}),
    referenced,
  };
}

/** The files of a loaded skill with their state, manifest order first, then files read beyond it. */
export function skillFileRows(at: SkillFilesAt): SkillFileRow[] {
  const listed = new Set(at.view.files.map((file) => file.path));
  const rows = at.view.files.map((file) => row(at, file.path, file.bytes));
  const beyond = new Set([...Object.keys(at.reads), ...Object.keys(at.uses)]);
  for (const path of beyond) if (!listed.has(path)) rows.push(row(at, path, undefined));
  return rows;
}

/** Level 3's cost: the tokens of every read of the skill's files. */
export function readTokens(at: SkillFilesAt): number {
  return Object.values(at.reads).reduce((sum, reads) => sum + reads.tokens, 0);
}

/** The hint the catalog shows after a run: files the SOP points to that no tool read, ran or named. */
export function neverReadFiles(view: SkillResourceView): string[] {
  return skillFileRows(filesAt(view))
    .filter((file) => file.state === "never-read")
    .map((file) => file.path);
}

/** What the session did with the skill's files after request #R (in the requests after it), each once, in order. */
export function usesAfterRequest(view: SkillResourceView, requestIndex: number): string[] {
  const said = (entry: SkillFileEvent) =>
    `${entry.path} ${entry.tokens !== undefined ? "read" : entry.how === "ran" ? "ran" : "named by a command"}`;
  return [...new Set(view.log.filter((entry) => entry.after >= requestIndex).map(said))];
}
