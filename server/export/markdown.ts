// Markdown for the exported HTML page, rendered by marked on the server. The page has no DOM sanitizer
// (it opens from file:// with a strict CSP), so the rule is structural: nothing in the output comes from
// the input as markup. marked escapes text, code and attribute values itself; what it would pass through
// is overridden here — raw HTML (blocks and inline tags) is shown as escaped text, a link becomes its text
// followed by its address (no <a>: an export never navigates), an image becomes its alt text (img-src is
// 'none'), a task checkbox becomes [x] / [ ]. So the only tags are marked's own formatting tags.
import { Marked, type Tokens } from "marked";
import { Markup, escapeHtml } from "./html-markup.ts";

const markdown = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(text);
    },
    link({ tokens, href }: Tokens.Link): string {
      const label = this.parser.parseInline(tokens);
      // An address written as itself (an autolink) is not repeated.
      const bare = (text: string) => text.replace(/^(https?:\/\/|mailto:)/, "");
      const plain = tokens.map((token) => token.raw).join("");
      return bare(plain) === bare(href) ? label : `${label} (${escapeHtml(href)})`;
    },
    image({ text }: Tokens.Image): string {
      return escapeHtml(text ? `[image: ${text}]` : "[image]");
    },
    checkbox({ checked }: Tokens.Checkbox): string {
      return checked ? "[x] " : "[ ] ";
    },
  },
});

/** Model text as HTML whose every tag is marked's formatting (see above); safe to place in the page. */
export function markdownToSafeHtml(text: string): string {
  return markdown.parse(text, { async: false }) as string;
}

/**
 * The answer's Markdown as markup for the export page's `markup` tag: safe to insert as it is, because
 * every text token and attribute above went through escapeHtml and only marked's own tags are written.
 */
export function markdownMarkup(text: string): Markup {
  return new Markup(markdownToSafeHtml(text));
}
