// Where the tokens of one request go, finer than the token bar (like Claude Code's /context): each skill's
// index line, the rest of the stable system, each active SOP, each tool definition (skill tools with their
// skill, MCP tools with their server), and the messages by kind. Every figure is the server's count: the
// segments', and each index line's (`indexLineTokens`, the count the skill lane shows too). Only logs
// written before those were recorded get an index line's share estimated by its characters, and say so;
// the rest of the stable system is its count minus the lines'. Pure.
import type { ChatMessage, RequestSnapshot, ToolDefinition } from "../../server/protocol/index.ts";

export interface ContextItem {
  group: "skill index" | "stable system" | "environment" | "tools" | "messages";
  label: string;
  tokens: number;
  /** "server" (the server's o200k_base count) or "estimate" (share of a counted part by characters). */
  basis: "server" | "estimate";
}

function toolLabel(tool: ToolDefinition | undefined, name: string): string {
  if (!tool) return name;
  if (tool.mcpServer) return `${name} (MCP: ${tool.mcpServer})`;
  if (tool.origin === "skill" && tool.skill) return `${name} (skill: ${tool.skill})`;
  return `${name} (${tool.origin})`;
}

function messageKind(message: ChatMessage | undefined): string {
  if (!message) return "message";
  if (message.role === "tool") return `tool results: ${message.toolName}`;
  if (message.role === "assistant")
    return message.toolCalls.length > 0 ? "assistant turns with tool calls" : "assistant text";
  return "user messages";
}

export function contextBreakdown(snapshot: RequestSnapshot & { messages?: ChatMessage[] }): ContextItem[] {
  const segments = snapshot.segments ?? [];
  const items: ContextItem[] = [];
  const stable = segments.find((segment) => segment.kind === "system");
  if (stable) {
    const text = snapshot.system.stable;
    let indexed = 0;
    const counted = snapshot.indexLineTokens;
    for (const skill of snapshot.listedSkills) {
      const tokens = counted?.[skill];
      if (tokens !== undefined) {
        indexed += tokens;
        items.push({ group: "skill index", label: `${skill} (index line)`, tokens, basis: "server" });
        continue;
      }
      const line = text.split("\n").find((candidate) => candidate.startsWith(`- ${skill}:`));
      if (!line || text.length === 0) continue;
      const estimate = Math.round((stable.tokens * (line.length + 1)) / text.length);
      indexed += estimate;
      items.push({
        group: "skill index",
        label: `${skill} (index line)`,
        tokens: estimate,
        basis: "estimate",
      });
    }
    items.push({
      group: "stable system",
      label: "instructions and rules",
      tokens: Math.max(0, stable.tokens - indexed),
      basis: indexed > 0 && !counted ? "estimate" : "server",
    });
  }
  const tools = new Map(snapshot.tools.map((tool) => [tool.name, tool]));
  const byKind = new Map<string, number>();
  for (const segment of segments) {
    if (segment.kind === "tool") {
      items.push({
        group: "tools",
        label: toolLabel(tools.get(segment.name), segment.name),
        tokens: segment.tokens,
        basis: "server",
      });
    } else if (segment.kind === "environment") {
      const label = segment.name === "base" ? "environment facts" : `${segment.name} (active SOP)`;
      items.push({ group: "environment", label, tokens: segment.tokens, basis: "server" });
    } else if (segment.kind === "message") {
      const kind = messageKind(snapshot.messages?.[Number(segment.name)]);
      byKind.set(kind, (byKind.get(kind) ?? 0) + segment.tokens);
    }
  }
  for (const [label, tokens] of byKind) items.push({ group: "messages", label, tokens, basis: "server" });
  return items.sort((a, b) => b.tokens - a.tokens || a.label.localeCompare(b.label));
}
