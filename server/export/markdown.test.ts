// The export's Markdown: formatting becomes HTML, and nothing written in the text becomes markup — every
// tag in the output is one of marked's own formatting tags, with no attribute but a table cell's `align`
// or a code block's language class, whatever the text holds.
import { describe, expect, it } from "vitest";
import { markdownToSafeHtml } from "./markdown.ts";

const FORMATTING_TAGS = new Set([
  "p",
  "br",
  "hr",
  "em",
  "strong",
  "del",
  "code",
  "pre",
  "blockquote",
  "ul",
  "ol",
  "li",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
]);

/** Every tag in `html` with its attribute text. */
function tags(html: string): { name: string; attributes: string }[] {
  return [...html.matchAll(/<\/?([a-zA-Z][^\s/>]*)([^>]*)>/g)].map((match) => ({
    name: match[1].toLowerCase(),
    attributes: match[2].trim(),
  }));
}

const HOSTILE = [
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(2)>",
  "text <b onclick=alert(3)>bold</b> and <a href='javascript:alert(4)'>a link</a>",
  '[click](javascript:alert(5)) and [ok](https://example.com/a?b="c")',
  "![x](https://tracker.example/p.png)",
  "<details open><summary>s</summary><iframe src=//evil></iframe></details>",
  '<div style="position:fixed">\n\n*still* markdown\n\n</div>',
  "```js\" onmouseover=\"alert(6)\nconsole.log('<b>')\n```",
  "- [x] done\n- [ ] <svg onload=alert(7)>",
  "| a | b |\n|:--|--:|\n| <u>x</u> | `<i>` |",
  "<!-- comment --> &lt;already&gt; & more",
  "<https://autolink.example> and www.bare.example",
].join("\n\n");

describe("markdownToSafeHtml", () => {
  it("renders formatting: emphasis, lists, code, tables, headings", () => {
    const html = markdownToSafeHtml(
      "## Shape\n\n**12 rows**, *4 columns*\n\n- `qty`: integer\n- price\n\n| a | b |\n|---|---|\n| 1 | 2 |",
    );
    expect(html).toContain("<h2>Shape</h2>");
    expect(html).toContain("<strong>12 rows</strong>");
    expect(html).toContain("<em>4 columns</em>");
    expect(html).toContain("<li><code>qty</code>: integer</li>");
    expect(html).toContain("<td>1</td>");
  });

  it("lets nothing in the text become markup: only formatting tags, no attributes that act", () => {
    const html = markdownToSafeHtml(HOSTILE);
    for (const tag of tags(html)) {
      expect(FORMATTING_TAGS.has(tag.name), `<${tag.name}>`).toBe(true);
      if (tag.attributes)
        expect(tag.attributes, `<${tag.name} ${tag.attributes}>`).toMatch(
          /^(align="(left|right|center)"|class="language-[^"<>]*")$/,
        );
    }
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=x onerror=alert(2)&gt;");
    // A link is its text and its address, written out; an image is its alt text.
    expect(html).toContain("click (javascript:alert(5))");
    expect(html).toContain("[image: x]");
    expect(html).toContain("[x] done");
  });
});
