// Rendering a skill invocation: the text that goes into the environment's Active Skills section.
import type { Skill } from "./types.ts";

/**
 * One pass over both placeholders with a function replacer: `$` in the arguments is not a replacement
 * pattern, and a placeholder typed inside the arguments is not expanded a second time.
 */
function substituteArguments(text: string, value: string): string {
  return text.replace(/\$ARGUMENTS|\{\{arguments\}\}/g, () => value);
}

/**
 * Renders a skill body for activation: replaces `$ARGUMENTS` and `{{arguments}}` with `args`; when the
 * body has no placeholder and `args` is non-empty, appends them as an `Arguments:` line so they are not
 * lost; when `meta.tools` is set, appends the allowed-tools list.
 */
export function renderInvocation(skill: Pick<Skill, "body" | "meta">, args: string = ""): string {
  const hasPlaceholder = skill.body.includes("$ARGUMENTS") || skill.body.includes("{{arguments}}");
  let rendered = substituteArguments(skill.body, args).trimEnd();
  if (!hasPlaceholder && args.trim() !== "") rendered += `\n\nArguments: ${args}`;
  if (skill.meta.tools.length > 0) {
    rendered += `\n\nAllowed tools for this skill: ${skill.meta.tools.join(", ")}`;
  }
  return rendered;
}
