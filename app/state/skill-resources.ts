// Level 3 of disclosure in the UI state: per loaded skill, its base directory, its files, and every read
// and use of them in order, each after the request it followed. Derived from runner events only
// (skill_activated with its manifest, skill_resource_read, skill_resource_used, stop). What the lane and
// the catalog show of it — each file listed / read / ran / used / never read, and the token cost — is
// worked out from this log, for one request or the whole session, in ./skill-files.ts (loaded with those
// views, not on first load).
import type { SkillResourceFile, WireRunnerEvent } from "../../server/protocol/index.ts";
import type { SessionView } from "./types.ts";

/**
 * One read of a skill's file (`tokens`, `bytes`: read_file brought it into the conversation) or use
 * (`how`, `tool`: a command ran it or named it), after request `after`: its result is in the requests
 * after that one, not in that one.
 */
export interface SkillFileEvent {
  after: number;
  path: string;
  bytes?: number;
  tokens?: number;
  how?: "ran" | "named";
  tool?: string;
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
  /** Every read and use of its files, in order, including paths past the manifest's bound; kept across reloads. */
  log: SkillFileEvent[];
  /** The newest request when the skill was (re)loaded: its SOP is in the requests after it. */
  loadedAfter: number;
  /** The newest request when a run first ended after the skill was (re)loaded (a referenced file unread then is "never read"). */
  endedAfter?: number;
}

export function applySkillResourceEvent(view: SessionView, event: WireRunnerEvent): SessionView {
  const current = view.skillResources ?? {};
  const after = view.requests.at(-1)?.requestIndex ?? 0;
  const logged = (name: string, entry: SkillFileEvent): SessionView => {
    const skill = current[name];
    if (!skill) return view;
    return { ...view, skillResources: { ...current, [name]: { ...skill, log: [...skill.log, entry] } } };
  };
  switch (event.type) {
    case "skill_activated": {
      if (!event.resources) return view;
      const next: SkillResourceView = {
        skill: event.name,
        baseDir: event.resources.baseDir,
        files: event.resources.files,
        more: event.resources.more,
        referenced: event.resources.referenced,
        ...(event.indexTokens !== undefined ? { indexTokens: event.indexTokens } : {}),
        log: current[event.name]?.log ?? [],
        loadedAfter: after,
      };
      return { ...view, skillResources: { ...current, [event.name]: next } };
    }
    case "skill_resource_read":
      return logged(event.skill, { after, path: event.path, bytes: event.bytes, tokens: event.tokens });
    case "skill_resource_used":
      return logged(event.skill, { after, path: event.path, how: event.how, tool: event.tool });
    case "stop": {
      if (event.console || Object.keys(current).length === 0) return view;
      const ended = Object.fromEntries(
        Object.entries(current).map(([name, skill]) => [
          name,
          skill.endedAfter !== undefined ? skill : { ...skill, endedAfter: after },
        ]),
      );
      return { ...view, skillResources: ended };
    }
    default:
      return view;
  }
}
