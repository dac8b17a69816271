// One unambiguous block per skill SOP in the prompt (issue 21 item 2):
//
//   <skill name="csv-report" source="builtin">
//   …the SOP, its own headings and separators included…
//   </skill>
//
// Real bodies have `###` headings and `---` rules of their own, so a heading cannot mark where a skill
// starts or ends. The tag can, because no body can write it: inside a body every `<skill` and `</skill`
// (any case, followed by a space, `>`, `/` or the end) has its `<` written as `&lt;`, and the attribute
// values are escaped. So the first `</skill>` after an opening tag is always that skill's end, for a
// model and for code. Code still finds skills by segment (the environment's sections), never by parsing.

/** The tag's name, in the opening and closing delimiters. */
export const SKILL_TAG = "skill";
export const SKILL_CLOSE = `</${SKILL_TAG}>`;

/** `<skill` or `</skill` as a tag would start, in any case: what a body may not contain as written. */
const DELIMITER_START = /<(\/?)(skill)(?=[\s/>]|$)/gi;

/** A body with every delimiter-like `<skill` / `</skill` neutralised (`&lt;skill`, `&lt;/skill`). */
export function neutralizeDelimiters(text: string): string {
  return text.replace(DELIMITER_START, (_whole, slash: string, tag: string) => `&lt;${slash}${tag}`);
}

/** An attribute value: `&`, `"`, `<`, `>` as entities, so a name or source cannot close the tag. */
export function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** `<skill name="…" source="…">` (source left out when unknown, e.g. a snapshot's override). */
export function skillOpenTag(name: string, source?: string): string {
  const sourceAttribute = source ? ` source="${escapeAttribute(source)}"` : "";
  return `<${SKILL_TAG} name="${escapeAttribute(name)}"${sourceAttribute}>`;
}

/** The whole block: opening tag, the content (delimiters neutralised, trimmed), closing tag. */
export function skillBlock(name: string, source: string | undefined, content: string): string {
  return `${skillOpenTag(name, source)}\n${neutralizeDelimiters(content.trim())}\n${SKILL_CLOSE}`;
}
