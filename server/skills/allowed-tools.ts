// `allowed-tools` (Agent Skills spec, experimental; Claude Code): the tools a skill may use WITHOUT ASKING
// while it is active. It is pre-approval, never a dependency: a skill is never removed because a name in
// it is missing here (only the seed's `tools` key can remove a skill). The names are Claude Code's
// (`Read`, `Bash(git:*)`, `mcp__server__tool`) or this playground's (`read_file`); the table below maps
// them onto this playground's tools, for display and for the allow rules a session may honour.
import { LOAD_SKILL_TOOL_NAME } from "../protocol/model.ts";
import type { AllowedToolView } from "../protocol/catalog.ts";
import { SYSTEM_TOOL_NAMES } from "../tools/system/index.ts";

/**
 * Claude Code's tool names → this playground's (null: no equivalent here). A pattern in parentheses
 * carries over: `Read(src/**)` → `read_file(src/**)`, `Bash(git:*)` → `run_command(git:*)`.
 * Sources: code.claude.com/docs/en/settings (tools available to Claude) and /docs/en/skills.
 */
export const CLAUDE_CODE_TOOL_MAP: Readonly<Record<string, string | null>> = {
  Read: "read_file",
  Write: "write_file",
  Edit: "edit_file",
  MultiEdit: "edit_file",
  Bash: "run_command",
  Grep: "search_code",
  Glob: "list_files",
  LS: "list_files",
  Skill: LOAD_SKILL_TOOL_NAME,
  WebFetch: null,
  WebSearch: null,
  Task: null,
  Agent: null,
  TodoWrite: null,
  TodoRead: null,
  NotebookEdit: null,
  NotebookRead: null,
  BashOutput: null,
  KillShell: null,
  KillBash: null,
  ExitPlanMode: null,
  SlashCommand: null,
  AskUserQuestion: null,
};

/** Why a Claude Code tool has no equivalent (shown in the skill detail). */
const NO_EQUIVALENT_REASON: Readonly<Record<string, string>> = {
  WebFetch: "this playground has no web tool (its sandbox has no network by default)",
  WebSearch: "this playground has no web tool (its sandbox has no network by default)",
  Task: "this playground has no sub-agents",
  Agent: "this playground has no sub-agents",
};

const OUR_TOOLS: ReadonlySet<string> = new Set<string>([...SYSTEM_TOOL_NAMES, LOAD_SKILL_TOOL_NAME]);

/** `Name` or `Name(pattern)`; the pattern may hold spaces and colons (`Bash(git add:*)`). */
const ENTRY = /^([A-Za-z0-9_.*-]+)(?:\((.*)\))?$/s;

/**
 * Splits `allowed-tools` into entries: a space- or comma-separated string (the spec's form) or a YAML
 * list of such strings (Claude Code accepts both). Separators inside parentheses belong to the pattern,
 * so `Bash(git add:*) Read` is two entries. Anything that is neither a string nor a list of strings
 * gives no entries (the lint says so).
 */
export function splitAllowedTools(value: unknown): string[] {
  const items = typeof value === "string" ? [value] : Array.isArray(value) ? value : [];
  const entries: string[] = [];
  for (const item of items) {
    if (typeof item !== "string") continue;
    let depth = 0;
    let current = "";
    for (const character of item) {
      if (character === "(") depth += 1;
      if (character === ")") depth = Math.max(0, depth - 1);
      if (depth === 0 && /[\s,]/.test(character)) {
        if (current !== "") entries.push(current);
        current = "";
        continue;
      }
      current += character;
    }
    if (current !== "") entries.push(current);
  }
  return [...new Set(entries)];
}

function withPattern(tool: string, pattern: string | undefined): string {
  return pattern === undefined || pattern.trim() === "" ? tool : `${tool}(${pattern.trim()})`;
}

/**
 * Maps one entry onto this playground's tools. `ownTools`: the skill's tools.json names (they keep
 * their name). A name nothing here knows gets no tool and `unknown: true` (a lint note).
 */
export function mapAllowedTool(
  entry: string,
  ownTools: ReadonlySet<string> = new Set(),
): AllowedToolView & { unknown?: true } {
  const match = ENTRY.exec(entry.trim());
  if (!match) return { entry, note: "not a tool name or Tool(pattern)", unknown: true };
  const [, name, pattern] = match as unknown as [string, string, string | undefined];
  if (Object.hasOwn(CLAUDE_CODE_TOOL_MAP, name)) {
    const tool = CLAUDE_CODE_TOOL_MAP[name];
    if (tool === null) {
      const why = NO_EQUIVALENT_REASON[name] ?? "this playground has no such tool";
      return { entry, note: `Claude Code's ${name}; ${why}` };
    }
    return { entry, tool, rule: withPattern(tool, pattern), note: `Claude Code's ${name}` };
  }
  if (OUR_TOOLS.has(name)) {
    return { entry, tool: name, rule: withPattern(name, pattern), note: "this playground's own name" };
  }
  if (name.startsWith("mcp__")) {
    // Claude Code's `mcp__server` (every tool of a server) is `mcp__server__*` in rule syntax.
    const parts = name.split("__");
    const rule = parts.length === 2 && parts[1] !== "" ? `${name}__*` : name;
    return { entry, tool: rule, rule, note: "an MCP tool, named the same way here (mcp__<server>__<tool>)" };
  }
  if (ownTools.has(name)) {
    return { entry, tool: name, rule: name, note: "one of this skill's own tools.json tools" };
  }
  return {
    entry,
    note: "a tool name nothing here knows (not Claude Code's, not this playground's)",
    unknown: true,
  };
}

/**
 * The tool here that a Claude Code name stands for (`Read` → read_file, `Bash(git:*)` → run_command), or
 * undefined for any other name and for Claude Code tools with no equivalent (WebFetch). Used where a
 * published skill names Claude Code's tools in the seed's `tools` key (the subagent key some collections
 * copy into SKILL.md): such a dependency holds when the equivalent is registered.
 */
export function claudeCodeEquivalent(entry: string): string | undefined {
  const match = ENTRY.exec(entry.trim());
  if (!match || !Object.hasOwn(CLAUDE_CODE_TOOL_MAP, match[1] as string)) return undefined;
  return CLAUDE_CODE_TOOL_MAP[match[1] as string] ?? undefined;
}

/** Every entry of a skill's `allowed-tools`, mapped. */
export function mapAllowedTools(
  entries: readonly string[],
  ownTools: ReadonlySet<string> = new Set(),
): (AllowedToolView & { unknown?: true })[] {
  return entries.map((entry) => mapAllowedTool(entry, ownTools));
}
