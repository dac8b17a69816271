// The stepped renderer gives the HTML of one marked.parse call, block for block, while pausing between
// steps; sanitizing is its caller's DOMPurify (here the identity: what is checked is the splitting).
import { marked } from "marked";
import { describe, expect, it } from "vitest";
import { renderInSteps, type BlockList, type MarkdownSteps } from "./markdown-steps.ts";

const options = { async: false, gfm: true } as const;

const steps: MarkdownSteps = {
  lex: (markdown) => marked.lexer(markdown, options) as unknown as BlockList,
  parse: (blocks) => marked.parser(blocks as never, options),
  sanitize: (html) => html,
};

/** A long answer with every construct the chat shows: headings, lists, tables, code, links, quotes. */
function longAnswer(sections: number): string {
  const parts: string[] = [];
  for (let index = 0; index < sections; index++)
    parts.push(
      `## Section ${index}\n`,
      `Some *emphasis*, **strong**, \`code\`, a [link](https://example.com/${index}) and a [reference][ref${index % 3}].`,
      `Setext heading ${index}\n---`,
      `1. first\n2. second\n   - nested *item*\n   - another\n3. third`,
      `- loose item\n\n- second loose item`,
      `| name | value |\n| :--- | ---: |\n| a${index} | ${index} |\n| b | \`x\` |`,
      "```ts\nconst answer = " + index + ";\n\nconsole.log(answer); // <b>not html</b>\n```",
      `> a quote\n> over two lines\n>\n> - with a list`,
      `    indented code ${index}`,
      `Line with a hard break  \nand a www.autolink.example and https://bare.example/${index}.`,
      `<details><summary>raw html</summary>\n\ninside\n\n</details>`,
      `- [x] done task\n- [ ] open task`,
      `***`,
    );
  parts.push(
    "[ref0]: https://example.com/zero\n[ref1]: https://example.com/one 'One'\n[ref2]: <https://two.example>",
  );
  return parts.join("\n\n");
}

describe("renderInSteps", () => {
  it("renders a long answer exactly as one marked.parse call, in many steps", async () => {
    const markdown = longAnswer(40);
    let pauses = 0;
    const html = await renderInSteps(
      markdown,
      steps,
      async () => {
        pauses += 1;
      },
      () => true,
      () => 0,
      -1, // every block its own step
    );
    expect(html).toBe(marked.parse(markdown, options));
    expect(html).toContain('<a href="https://example.com/one" title="One">reference</a>');
    expect(html).toContain("<table>");
    expect(pauses).toBeGreaterThan(40 * 12);
  });

  it("takes as many blocks in a step as fit its budget", async () => {
    const markdown = longAnswer(5);
    let clock = 0;
    let pauses = 0;
    // Each parse moves the clock 3 ms: a 8 ms budget fits three blocks a step.
    const timed: MarkdownSteps = {
      ...steps,
      parse: (blocks) => {
        clock += 3;
        return steps.parse(blocks);
      },
    };
    const blocks = steps.lex(markdown).length;
    const html = await renderInSteps(
      markdown,
      timed,
      async () => {
        pauses += 1;
      },
      () => true,
      () => clock,
      8,
    );
    expect(html).toBe(marked.parse(markdown, options));
    // One pause before lexing, one before each step of three blocks, one before sanitizing.
    expect(pauses).toBe(Math.ceil(blocks / 3) + 2);
  });

  it("renders a single 10,000-word paragraph, one block, the same", async () => {
    const markdown = Array.from({ length: 10_000 }, (_, index) => `word${index % 97}`).join(" ");
    const html = await renderInSteps(markdown, steps, async () => undefined);
    expect(html).toBe(marked.parse(markdown, options));
  });

  it("stops when the text it renders is no longer current", async () => {
    let current = true;
    let parsed = 0;
    const counting: MarkdownSteps = {
      ...steps,
      parse: (blocks) => {
        parsed += 1;
        return steps.parse(blocks);
      },
    };
    const html = await renderInSteps(
      longAnswer(3),
      counting,
      async () => {
        if (parsed >= 2) current = false;
      },
      () => current,
      () => 0,
      -1,
    );
    expect(html).toBeUndefined();
    expect(parsed).toBe(2);
  });
});
