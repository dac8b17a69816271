// Text for HTML text and attribute values, shared by the export page and its Markdown.

/** Escapes both quote kinds, so any attribute quoting is safe. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}
