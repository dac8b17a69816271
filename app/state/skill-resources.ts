// Level 3 of disclosure in the UI: per loaded skill, its base directory and files as listed / read / ran /
// used by a command / never read, and what each level cost in tokens. Derived from runner events only
// (skill_activated with its manifest, skill_resource_read, skill_resource_used, stop); the components
// read it and never compute it.
import type { SkillResourceFile, WireRunnerEvent } from "../../server/protocol/index.ts";
import type { SessionView } from "./types.ts";

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

export interface SkillResourceView {
  skill: string;
  baseDir: string;
  files: SkillResourceFile[];
  more: number;
  /** Files the SOP names: unread when a run ends, they are "never read" (a lint hint). */
  referenced: string[];
  /** Tokens of its line in the skills index (level 1), from the server's tokenizer. */
  indexTokens?: number;
  /** Reads per path (relative to the base directory), including paths past the manifest's bound. */
  reads: Record<string, SkillFileReads>;
  /** Uses by commands per path (absent before any, and in logs written before they were recorded). */
  uses?: Record<string, SkillFileUses>;
  /** A run has ended since the skill was (re)loaded. */
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

/** The files of a loaded skill with their state, manifest order first, then files read beyond it. */
export function skillFileRows(view: SkillResourceView): SkillFileRow[] {
  const listed = new Set(view.files.map((file) => file.path));
  const rows = view.files.map((file) => row(view, file.path, file.bytes));
  const beyond = new Set([...Object.keys(view.reads), ...Object.keys(view.uses ?? {})]);
  for (const path of beyond) if (!listed.has(path)) rows.push(row(view, path, undefined));
  return rows;
}

function stateOf(reads: SkillFileReads | undefined, uses: SkillFileUses | undefined): SkillFileState {
  if (uses && uses.ran > 0) return "ran";
  if (reads) return "read";
  if (uses) return "used";
  return "listed";
}

function row(view: SkillResourceView, path: string, bytes: number | undefined): SkillFileRow {
  const reads = view.reads[path];
  const uses = view.uses?.[path];
  const referenced = view.referenced.includes(path);
  const used = stateOf(reads, uses);
  const state: SkillFileState = used === "listed" && referenced && view.runEnded ? "never-read" : used;
  return {
    path,
    ...(bytes !== undefined ? { bytes } : {}),
    state,
    ...(reads ? { reads } : {}),
    ...(uses ? { uses } : {}),
    referenced,
  };
}

/** Level 3's cost so far: the tokens of every read of the skill's files. */
export function readTokens(view: SkillResourceView): number {
  return Object.values(view.reads).reduce((sum, reads) => sum + reads.tokens, 0);
}

/** The hint the catalog shows after a run: files the SOP points to that no tool read, ran or named. */
export function neverReadFiles(view: SkillResourceView): string[] {
  return skillFileRows(view)
    .filter((file) => file.state === "never-read")
    .map((file) => file.path);
}

export function applySkillResourceEvent(view: SessionView, event: WireRunnerEvent): SessionView {
  const current = view.skillResources ?? {};
  switch (event.type) {
    case "skill_activated": {
      if (!event.resources) return view;
      const previous = current[event.name];
      const next: SkillResourceView = {
        skill: event.name,
        baseDir: event.resources.baseDir,
        files: event.resources.files,
        more: event.resources.more,
        referenced: event.resources.referenced,
        ...(event.indexTokens !== undefined ? { indexTokens: event.indexTokens } : {}),
        reads: previous?.reads ?? {},
        ...(previous?.uses ? { uses: previous.uses } : {}),
        runEnded: false,
      };
      return { ...view, skillResources: { ...current, [event.name]: next } };
    }
    case "skill_resource_read": {
      const skill = current[event.skill];
      if (!skill) return view;
      const before = skill.reads[event.path] ?? { reads: 0, bytes: 0, tokens: 0 };
      const reads = {
        ...skill.reads,
        [event.path]: {
          reads: before.reads + 1,
          bytes: before.bytes + event.bytes,
          tokens: before.tokens + event.tokens,
        },
      };
      return { ...view, skillResources: { ...current, [event.skill]: { ...skill, reads } } };
    }
    case "skill_resource_used": {
      const skill = current[event.skill];
      if (!skill) return view;
      const before = skill.uses?.[event.path] ?? { ran: 0, named: 0, tool: event.tool };
      const uses = {
        ...skill.uses,
        [event.path]: {
          ran: before.ran + (event.how === "ran" ? 1 : 0),
          named: before.named + (event.how === "named" ? 1 : 0),
          tool: event.tool,
        },
      };
      return { ...view, skillResources: { ...current, [event.skill]: { ...skill, uses } } };
    }
    case "stop": {
      if (event.console || Object.keys(current).length === 0) return view;
      const ended = Object.fromEntries(
        Object.entries(current).map(([name, skill]) => [
          name,
          skill.runEnded ? skill : { ...skill, runEnded: true },
        ]),
      );
      return { ...view, skillResources: ended };
    }
    default:
      return view;
  }
}
