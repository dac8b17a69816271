// Derived views over UiState: per-skill disclosure state and request-to-request diffs. Pure functions.
import type { ChatMessage, FolderTrust, SkillView } from "../../server/protocol/index.ts";
import {
  environmentParts,
  requestSnapshot,
  stableHashOf,
  toolNamesOf,
  type EnvironmentPart,
  type ResolvedSnapshot,
} from "./snapshot-view.ts";
import type { RequestView, SessionView } from "./types.ts";

/** How far a skill has come on the road to the model: the four states of DESIGN.md §1. */
export type SkillStage = "listed" | "loaded" | "tools_registered" | "tools_visible";

export const skillStageLabels: Record<SkillStage, string> = {
  listed: "listed",
  loaded: "loaded (active)",
  tools_registered: "tools registered",
  tools_visible: "tools visible to the model",
};

/** The parts of a session a skill's stage is read from. */
export type StageParts = Pick<SessionView, "activeSkills" | "registeredTools" | "requests" | "visibleTools">;

export function latestRequest(session: Pick<SessionView, "requests"> | undefined): RequestView | undefined {
  return session?.requests[session.requests.length - 1];
}

export function skillStage(skill: SkillView, session: StageParts): SkillStage {
  const active = session.activeSkills.includes(skill.name);
  if (!active) return "listed";
  if (skill.toolNames.length === 0) return "loaded";
  const registered = skill.toolNames.every((tool) => session.registeredTools.includes(tool));
  if (!registered) return "loaded";
  const latest = latestRequest(session);
  const visibleNames = latest ? toolNamesOf(latest) : session.visibleTools;
  const visible = skill.toolNames.every((tool) => visibleNames.includes(tool));
  return visible ? "tools_visible" : "tools_registered";
}

export interface RequestDiff {
  addedMessages: ChatMessage[];
  /** True when the earlier messages are not a prefix of this request's (history was rewritten). */
  historyRewritten: boolean;
  /** Section names (the segments' names: "base", or an active skill's name). */
  environment: { added: string[]; removed: string[]; changed: string[] };
  toolsAdded: string[];
  toolsRemoved: string[];
  stableChanged: boolean;
}

/** A section's own text: the newlines after its block separate it from the next one, they are not its own. */
function ownText(part: EnvironmentPart): string {
  return `${part.heading}\n${part.text.replace(/\n+$/, "")}`;
}

/**
 * A section changed only when its own bytes did. Equal segment hashes mean the same bytes. Different
 * hashes are checked against the text without its trailing newlines: an older server ended each skill
 * section but the last with a blank line, so loading a skill after it changed its hash by one separator.
 */
function sectionChanged(before: EnvironmentPart, after: EnvironmentPart): boolean {
  if (before.hash !== undefined && before.hash === after.hash) return false;
  return ownText(before) !== ownText(after);
}

/**
 * Environment sections are the server's (its segments), named by the segment's name ("base", or the
 * active skill's name): a skill is found by its segment, never by parsing a heading out of the text.
 */
export function diffRequests(previous: ResolvedSnapshot, current: ResolvedSnapshot): RequestDiff {
  const prefixHolds = previous.messages.every(
    (message, index) => JSON.stringify(message) === JSON.stringify(current.messages[index]),
  );
  const previousSections = new Map(environmentParts(previous).map((part) => [part.name, part]));
  const currentSections = new Map(environmentParts(current).map((part) => [part.name, part]));
  const added = [...currentSections.keys()].filter((name) => !previousSections.has(name));
  const removed = [...previousSections.keys()].filter((name) => !currentSections.has(name));
  const changed = [...currentSections.entries()].flatMap(([name, part]) => {
    const before = previousSections.get(name);
    return before && sectionChanged(before, part) ? [name] : [];
  });
  const previousTools = new Set(previous.tools.map((tool) => tool.name));
  const currentTools = new Set(current.tools.map((tool) => tool.name));
  return {
    addedMessages: prefixHolds ? current.messages.slice(previous.messages.length) : current.messages,
    historyRewritten: !prefixHolds,
    environment: { added, removed, changed },
    toolsAdded: [...currentTools].filter((name) => !previousTools.has(name)),
    toolsRemoved: [...previousTools].filter((name) => !currentTools.has(name)),
    stableChanged: previous.stableHash !== current.stableHash,
  };
}

export interface StableComparison {
  unchangedSinceFirst: boolean;
  firstIndex: number;
  /** When it changed: the first line (1-based) where it differs from the request before it. */
  firstDifference?: { line: number; before: string; after: string; comparedWith: number };
}

export function compareStable(requests: RequestView[], selected: RequestView): StableComparison {
  const first = requests[0];
  const selectedHash = stableHashOf(selected);
  const unchangedSinceFirst = !!first && stableHashOf(first) === selectedHash;
  const result: StableComparison = {
    unchangedSinceFirst,
    firstIndex: first?.requestIndex ?? selected.requestIndex,
  };
  if (unchangedSinceFirst) return result;
  const position = requests.findIndex((request) => request.requestIndex === selected.requestIndex);
  // Compare with the nearest earlier request whose stable system differs, so the line shown is the change.
  for (let index = position - 1; index >= 0; index -= 1) {
    if (stableHashOf(requests[index]) === selectedHash) continue;
    const beforeLines = requestSnapshot(requests[index]).system.stable.split("\n");
    const afterLines = requestSnapshot(selected).system.stable.split("\n");
    const length = Math.max(beforeLines.length, afterLines.length);
    for (let line = 0; line < length; line += 1) {
      if (beforeLines[line] !== afterLines[line]) {
        result.firstDifference = {
          line: line + 1,
          before: beforeLines[line] ?? "(end of text)",
          after: afterLines[line] ?? "(end of text)",
          comparedWith: requests[index].requestIndex,
        };
        break;
      }
    }
    break;
  }
  return result;
}

/** True when the folder's own settings would grant something (allow rules, MCP servers, a default mode). */
export function folderGrantsSomething(trust: FolderTrust | undefined): boolean {
  if (!trust) return false;
  const grants = trust.grants;
  return grants.allow.length > 0 || grants.mcpServers.length > 0 || !!grants.defaultMode;
}

/** The trust prompt shows while the folder is untrusted, grants something, and the user has not set it aside. */
export function trustPromptOpen(session: SessionView | undefined): boolean {
  const trust = session?.summary.trust;
  // A folder that does not exist has nothing to trust: its session says it is gone instead.
  return (
    !!trust &&
    !trust.trusted &&
    folderGrantsSomething(trust) &&
    !session.trustPromptDismissed &&
    !session.summary.workdirMissing
  );
}
