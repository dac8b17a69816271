// Lint profiles (issue 21 item 6): which notes refuse a skill. Every note names its rule set
// (lint.ts); a profile enforces one of them.
// - lenient (the default): warns and loads. Only what the parser cannot read is not loaded (no
//   frontmatter, bad YAML, no name, no description, no body) — as with every profile.
// - agent-skills: refuses a skill that breaks an error rule of the spec (name, description,
//   compatibility, metadata, allowed-tools).
// - claude-code: refuses a skill that breaks an error rule Claude Code's API applies (a reserved word
//   in the name, XML tags in name or description); its own extra keys are fine.
import type { LintNote, LintProfileName } from "./types.ts";

export const LINT_PROFILES: readonly LintProfileName[] = ["lenient", "agent-skills", "claude-code"];

/** What each profile does, for the CLI's help and the page. */
export const LINT_PROFILE_HELP: Readonly<Record<LintProfileName, string>> = {
  lenient: "warn but load (default): only a skill the parser cannot read is left out",
  "agent-skills":
    "refuse a skill that breaks the Agent Skills spec (name, description, compatibility, metadata, allowed-tools)",
  "claude-code":
    "refuse a skill the Claude API would refuse (reserved word in the name, XML tags in name or description)",
};

export function isLintProfile(value: unknown): value is LintProfileName {
  return typeof value === "string" && (LINT_PROFILES as readonly string[]).includes(value);
}

/** The notes that refuse a skill under `profile`, grouped by the skill's entry path. */
export function refusalsByPath(
  notes: readonly LintNote[],
  profile: LintProfileName,
): Map<string, LintNote[]> {
  const refusals = new Map<string, LintNote[]>();
  if (profile === "lenient") return refusals;
  for (const note of notes) {
    if (note.profile !== profile || note.level !== "error") continue;
    const list = refusals.get(note.path) ?? [];
    list.push(note);
    refusals.set(note.path, list);
  }
  return refusals;
}
