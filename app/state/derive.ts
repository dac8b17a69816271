// Derived views over UiState: per-skill disclosure state and request-to-request diffs. Pure functions.
import type { ChatMessage, FolderTrust, RequestSnapshot, SkillView } from "../../server/protocol/index.ts";
import type { RequestView, SessionView } from "./types.ts";

/** How far a skill has come on the road to the model: the four states of DESIGN.md §1. */
export type SkillStage = "listed" | "loaded" | "tools_registered" | "tools_visible";

export const skillStageLabels: Record<SkillStage, string> = {
  listed: "listed",
  loaded: "loaded (active)",
  tools_registered: "tools registered",
  tools_visible: "tools visible to the model",
};

export function latestRequest(session: SessionView | undefined): RequestView | undefined {
  return session?.requests[session.requests.length - 1];
}

export function skillStage(skill: SkillView, session: SessionView): SkillStage {
  const active = session.activeSkills.includes(skill.name);
  if (!active) return "listed";
  if (skill.toolNames.length === 0) return "loaded";
  const registered = skill.toolNames.every((tool) => session.registeredTools.includes(tool));
  if (!registered) return "loaded";
  const latest = latestRequest(session);
  const visibleNames = latest ? latest.snapshot.tools.map((tool) => tool.name) : session.visibleTools;
  const visible = skill.toolNames.every((tool) => visibleNames.includes(tool));
  return visible ? "tools_visible" : "tools_registered";
}

export interface EnvironmentSection {
  heading: string;
  text: string;
}

/**
 * Splits the environment into named sections: each `# `/`## ` heading of the environment itself, and inside
 * `## Active Skills` one section per active skill (`### <name>`). A skill body's own headings stay inside
 * its section, so a diff names the skill that changed, not the headings of its SOP.
 */
export function environmentSections(environment: string, activeSkills: string[] = []): EnvironmentSection[] {
  const sections: EnvironmentSection[] = [];
  let current: EnvironmentSection = { heading: "(preamble)", text: "" };
  let inActiveSkills = false;
  const skillHeadings = new Set(activeSkills.map((name) => `### ${name}`));
  for (const line of environment.split("\n")) {
    const trimmed = line.trim();
    const startsSkill = inActiveSkills && skillHeadings.has(trimmed);
    const startsTopLevel = !inActiveSkills && /^#{1,2}\s+\S/.test(line);
    if (startsSkill || startsTopLevel) {
      if (current.text.trim() || current.heading !== "(preamble)") sections.push(current);
      current = { heading: trimmed, text: "" };
      if (/^##\s+Active Skills\b/i.test(trimmed)) inActiveSkills = true;
    } else current = { ...current, text: current.text + line + "\n" };
  }
  if (current.text.trim() || current.heading !== "(preamble)") sections.push(current);
  return sections;
}

export interface RequestDiff {
  addedMessages: ChatMessage[];
  /** True when the earlier messages are not a prefix of this request's (history was rewritten). */
  historyRewritten: boolean;
  environment: { added: string[]; removed: string[]; changed: string[] };
  toolsAdded: string[];
  toolsRemoved: string[];
  stableChanged: boolean;
}

export function diffRequests(previous: RequestSnapshot, current: RequestSnapshot): RequestDiff {
  const prefixHolds = previous.messages.every(
    (message, index) => JSON.stringify(message) === JSON.stringify(current.messages[index]),
  );
  const previousSections = new Map(
    environmentSections(previous.system.environment, previous.activeSkills).map((section) => [
      section.heading,
      section.text,
    ]),
  );
  const currentSections = new Map(
    environmentSections(current.system.environment, current.activeSkills).map((section) => [
      section.heading,
      section.text,
    ]),
  );
  const added = [...currentSections.keys()].filter((heading) => !previousSections.has(heading));
  const removed = [...previousSections.keys()].filter((heading) => !currentSections.has(heading));
  const changed = [...currentSections.keys()].filter(
    (heading) =>
      previousSections.has(heading) && previousSections.get(heading) !== currentSections.get(heading),
  );
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
  const unchangedSinceFirst = !!first && first.snapshot.stableHash === selected.snapshot.stableHash;
  const result: StableComparison = {
    unchangedSinceFirst,
    firstIndex: first?.requestIndex ?? selected.requestIndex,
  };
  if (unchangedSinceFirst) return result;
  const position = requests.findIndex((request) => request.requestIndex === selected.requestIndex);
  // Compare with the nearest earlier request whose stable system differs, so the line shown is the change.
  for (let index = position - 1; index >= 0; index -= 1) {
    const earlier = requests[index].snapshot;
    if (earlier.stableHash === selected.snapshot.stableHash) continue;
    const beforeLines = earlier.system.stable.split("\n");
    const afterLines = selected.snapshot.system.stable.split("\n");
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

/** Text of the Messages pane as the tokenizer should see it. */
export function messagesText(messages: ChatMessage[]): string {
  return messages
    .map((message) => {
      if (message.role === "assistant") {
        const calls = message.toolCalls
          .map((call) => `${call.name}(${JSON.stringify(call.input)})`)
          .join("\n");
        return `assistant: ${message.content}${calls ? `\n${calls}` : ""}`;
      }
      if (message.role === "tool") return `tool ${message.toolName}: ${message.content}`;
      return `user: ${message.content}`;
    })
    .join("\n\n");
}

export function toolsText(snapshot: RequestSnapshot): string {
  return JSON.stringify(
    snapshot.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema,
    })),
  );
}

/** The stable system as eager disclosure would have built it: every catalog body inlined. */
export function eagerStableText(stable: string, skills: SkillView[]): string {
  const bodies = skills.map((skill) => `### ${skill.name}\n\n${skill.body}`).join("\n\n");
  return `${stable}\n\n## Skills (eager: every body inlined)\n\n${bodies}`;
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
  return !!trust && !trust.trusted && folderGrantsSomething(trust) && !session.trustPromptDismissed;
}
