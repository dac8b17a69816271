// The one way the HTML export writes markup (S23): the `markup` template tag escapes every value it
// inserts — strings, numbers, anything, as String(value) — unless the value is Markup this tag made.
// A session log is a file a reader may have been sent, so no field of it is trusted to be what its type
// says: a "token count" that is the string `"><meta http-equiv=refresh …>` is text like any other. The
// rule is the tag, not a list of fields: a new field cannot be inserted unescaped by forgetting a call.

/** Text for HTML text and attribute values (both quote kinds, so any attribute quoting is safe). */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** JSON that cannot end its <script> element or open a comment inside it. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** Markup made by `markup` (or `trusted`): inserted as it is. */
export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/**
 * Markup from the page's own constant text (a style or script body): never for anything read from a log.
 */
export function trusted(text: string): Markup {
  return new Markup(text);
}

function insert(value: unknown): string {
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return value.map(insert).join("");
  // Absent parts and `condition && markup\`…\`` leave nothing.
  if (value === undefined || value === null || value === false) return "";
  return escapeHtml(String(value));
}

/** Builds markup; each `${value}` is escaped unless it is Markup (arrays: each item, joined). */
export function markup(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let text = strings[0]!;
  for (let index = 0; index < values.length; index++) text += insert(values[index]) + strings[index + 1]!;
  return new Markup(text);
}
