// Rendering a skill invocation: the text that goes into the environment's Active Skills section.
import type { Skill } from "./types.ts";

/** Literal (not regex/`$&`-aware) replace-all, so arguments containing `$` stay exactly as typed. */
function replaceLiteral(text: string, placeholder: string, value: string): string {
  return text.split(placeholder).join(value);
}

/**
 * Renders a skill body for activation: replaces `$ARGUMENTS` and `{{arguments}}` with `args`; when the
 * body has no placeholder and `args` is non-empty, appends them as an `Arguments:` line so they are not
 * lost; when `meta.tools` is set, appends the allowed-tools list.
 */
export function renderInvocation(skill: Pick<Skill, "body" | "meta">, args: string = ""): string {
  const hasPlaceholder = skill.body.includes("$ARGUMENTS") || skill.body.includes("{{arguments}}");
  let rendered = replaceLiteral(
    replaceLiteral(skill.body, "$ARGUMENTS", args),
    "{{arguments}}",
    args,
  ).trimEnd();
  if (!hasPlaceholder && args.trim() !== "") rendered += `\n\nArguments: ${args}`;
  if (skill.meta.tools.length > 0) {
    rendered += `\n\nAllowed tools for this skill: ${skill.meta.tools.join(", ")}`;
  }
  return rendered;
}
