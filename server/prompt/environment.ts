// The environment: regathered before every model request. It carries the facts that change (date, model,
// working directory) and the bodies of the skills loaded so far, so the stable system never has to change.
import type { DisclosureMode } from "../protocol/model.ts";
import { skillBlock, skillOpenTag } from "./skill-block.ts";
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
  /**
   * Experiment: "message" delivers each SOP inside its load_skill result instead, and "system" in a
   * mid-conversation system message right after it, so the environment (and the cached prefix) does not
   * change when a skill loads.
   */
  skillPlacement?: "environment" | "message" | "system";
}

function formatDate(date: Date | string): string {
  return typeof date === "string" ? date : date.toISOString().slice(0, 10);
}

/** Eager bodies are rendered without arguments, so the ones given to load_skill would be lost otherwise. */
function eagerArguments(skill: SkillBody): string {
  const args = skill.arguments?.trim() ?? "";
  return args === "" ? "" : `\nArguments: ${args}`;
}

/** One delimited block per active skill (skill-block.ts): a body's own headings cannot end it. */
function activeSkillEntry(skill: SkillBody, disclosure: DisclosureMode): string {
  return disclosure === "eager"
    ? skillBlock(
        skill.name,
        skill.source,
        `(loaded; its SOP is in the system prompt above)${eagerArguments(skill)}`,
      )
    : skillBlock(skill.name, skill.source, skill.body);
}

/** One part of the environment: the base block, then one per active skill; they concatenate to it. */
export interface EnvironmentSection {
  /** "base", or the active skill's name: code finds a skill by this, never by parsing the text. */
  name: string;
  /** The line it starts with ("# Environment", `<skill name="…" source="…">`). */
  heading: string;
  text: string;
}

/**
 * The environment as its sections, in order: `base` (the facts and the "## Active Skills" heading, with
 * the "none yet" line when no skill is active), then one section per active skill. Joined without a
 * separator they are exactly `buildEnvironment`'s text.
 */
export function buildEnvironmentSections(input: EnvironmentInput): EnvironmentSection[] {
  const disclosure = input.disclosure ?? "progressive";
  const facts = [
    "# Environment",
    `- PseudoClaude Playground version: ${input.version}`,
    `- Provider: ${input.provider}`,
    `- Model: ${input.model}`,
    `- Working directory: ${input.cwd}`,
    `- Date: ${formatDate(input.date)}`,
    `- Platform: ${input.platform}`,
    "",
    "## Active Skills",
  ].join("\n");
  const skills = input.activeSkills;
  if (input.skillPlacement === "message" || input.skillPlacement === "system") {
    const note =
      input.skillPlacement === "system"
        ? "(the SOP of a skill you load arrives in a system message right after its load_skill result; follow it from there)"
        : "(the SOP of a skill you load arrives in its load_skill result; follow it from there)";
    return [{ name: "base", heading: "# Environment", text: `${facts}\n${note}\n` }];
  }
  if (skills.length === 0) {
    const none = "(none yet — call load_skill when a skill fits the task)";
    return [{ name: "base", heading: "# Environment", text: `${facts}\n${none}\n` }];
  }
  return [
    { name: "base", heading: "# Environment", text: `${facts}\n` },
    // Each section is its block and one newline, whatever comes after it: a section's bytes (and so its
    // segment hash) are its own, so loading another skill after it changes nothing in it — no "changed"
    // badge for a separator, and the prompt cache's prefix reaches the end of the last unchanged skill.
    ...skills.map((skill) => ({
      name: skill.name,
      heading: skillOpenTag(skill.name, skill.source),
      text: `${activeSkillEntry(skill, disclosure)}\n`,
    })),
  ];
}

export function buildEnvironment(input: EnvironmentInput): string {
  return buildEnvironmentSections(input)
    .map((section) => section.text)
    .join("");
}
