// The environment: regathered before every model request. It carries the facts that change (date, model,
// working directory) and the bodies of the skills loaded so far, so the stable system never has to change.
import type { DisclosureMode } from "../protocol/model.ts";
import type { SkillBody } from "./stable-system.ts";

export interface EnvironmentInput {
  version: string;
  provider: string;
  model: string;
  cwd: string;
  /** A Date (rendered as YYYY-MM-DD) or an already formatted date. */
  date: Date | string;
  platform: string;
  /** Rendered bodies in activation order. */
  activeSkills: readonly SkillBody[];
  /** In eager mode the bodies are already in the stable system, so only the names are listed here. */
  disclosure?: DisclosureMode;
}

function formatDate(date: Date | string): string {
  return typeof date === "string" ? date : date.toISOString().slice(0, 10);
}

/** Eager bodies are rendered without arguments, so the ones given to load_skill would be lost otherwise. */
function eagerArguments(skill: SkillBody): string {
  const args = skill.arguments?.trim() ?? "";
  return args === "" ? "" : `\nArguments: ${args}`;
}

function activeSkillsSection(skills: readonly SkillBody[], disclosure: DisclosureMode): string {
  if (skills.length === 0) return "## Active Skills\n(none yet — call load_skill when a skill fits the task)";
  const entries = skills.map((skill) =>
    disclosure === "eager"
      ? `### ${skill.name}\n(loaded; its SOP is in the system prompt above)${eagerArguments(skill)}`
      : `### ${skill.name}\n${skill.body.trim()}`,
  );
  return `## Active Skills\n${entries.join("\n\n")}`;
}

export function buildEnvironment(input: EnvironmentInput): string {
  return [
    "# Environment",
    `- PseudoClaude Playground version: ${input.version}`,
    `- Provider: ${input.provider}`,
    `- Model: ${input.model}`,
    `- Working directory: ${input.cwd}`,
    `- Date: ${formatDate(input.date)}`,
    `- Platform: ${input.platform}`,
    "",
    activeSkillsSection(input.activeSkills, input.disclosure ?? "progressive"),
    "",
  ].join("\n");
}
