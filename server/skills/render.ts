// Rendering a skill invocation: the text that goes into the environment's Active Skills section.
import type { SkillResources } from "../protocol/skill-resources.ts";
import { renderResourcesBlock } from "./manifest.ts";
import { substituteSkillDir } from "./resource-references.ts";
import type { Skill } from "./types.ts";

/**
 * One pass over both placeholders with a function replacer: `$` in the arguments is not a replacement
 * pattern, and a placeholder typed inside the arguments is not expanded a second time.
 */
function substituteArguments(text: string, value: string): string {
  return text.replace(/\$ARGUMENTS|\{\{arguments\}\}/g, () => value);
}

/**
 * Renders a skill body for activation: replaces `${SKILL_DIR}` / `${CLAUDE_SKILL_DIR}` with the skill's
 * base directory (`resources.baseDir`, else `rootDir` when given), then `$ARGUMENTS` and `{{arguments}}`
 * with `args` (so arguments are never expanded as a directory); when the body has no placeholder and
 * `args` is non-empty, appends them as an `Arguments:` line so they are not lost; when `meta.tools` is
 * set, appends the allowed-tools list; with `resources`, ends with the base directory and file manifest.
 */
export function renderInvocation(
  skill: Pick<Skill, "body" | "meta"> & { rootDir?: string },
  args: string = "",
  resources?: SkillResources,
): string {
  const baseDir = resources?.baseDir ?? skill.rootDir;
  const body = baseDir === undefined ? skill.body : substituteSkillDir(skill.body, baseDir);
  const hasPlaceholder = body.includes("$ARGUMENTS") || body.includes("{{arguments}}");
  let rendered = substituteArguments(body, args).trimEnd();
  if (!hasPlaceholder && args.trim() !== "") rendered += `\n\nArguments: ${args}`;
  if (skill.meta.tools.length > 0) {
    rendered += `\n\nAllowed tools for this skill: ${skill.meta.tools.join(", ")}`;
  }
  if (resources) rendered += `\n\n${renderResourcesBlock(resources)}`;
  return rendered;
}
