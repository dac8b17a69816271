import type { Registry } from "../registry.ts";
import type { SkillRootsProvider } from "../skill-roots.ts";
import type { Tool } from "../types.ts";
import { createEditFileTool } from "./edit-file.ts";
import { createListFilesTool } from "./list-files.ts";
import { createReadFileTool } from "./read-file.ts";
import { createRunCommandTool } from "./run-command.ts";
import { createSearchCodeTool } from "./search-code.ts";
import { createWriteFileTool } from "./write-file.ts";

export const SYSTEM_TOOL_NAMES = [
  "read_file",
  "list_files",
  "search_code",
  "write_file",
  "edit_file",
  "run_command",
] as const;
export type SystemToolName = (typeof SYSTEM_TOOL_NAMES)[number];

/**
 * A system tool as listed here, its input type erased to `object` (each is declared with its own input
 * type; the Registry validates every call against the tool's schema before the tool sees it).
 */
export type SystemTool = Tool<object>;

/**
 * `skillRoots`: the session's loaded skills' folders (level 3 of disclosure). The read-only tools may read
 * inside them and run_command binds them read-only; write_file and edit_file never see them.
 */
export function createSystemTools(options: { skillRoots?: SkillRootsProvider } = {}): SystemTool[] {
  const roots = options.skillRoots ? { skillRoots: options.skillRoots } : {};
  return [
    createReadFileTool(roots),
    createListFilesTool(roots),
    createSearchCodeTool(roots),
    createWriteFileTool(),
    createEditFileTool(),
    createRunCommandTool(roots),
  ];
}

/** Registers the built-ins as protected: a skill's tools.json cannot replace them. */
export function registerSystemTools(
  registry: Registry,
  options: { skillRoots?: SkillRootsProvider } = {},
): void {
  for (const tool of createSystemTools(options)) registry.register(tool, { protected: true });
}
