// Sanitized Markdown: marked renders, DOMPurify removes anything executable. Skill bodies and model
// output are never inserted as raw HTML. Both libraries load on first use, outside the first-load JS.
"use client";
import { memo, useEffect, useState } from "react";
import type { BlockList, MarkdownSteps } from "./markdown-steps.ts";
import { whenIdle } from "./when-idle.ts";

type Render = (markdown: string, isCurrent: () => boolean) => Promise<string | undefined>;
let loading: Promise<Render> | undefined;

/** marked, DOMPurify and the stepping around them, loaded together on first use (not first-load JS). */
function loadRenderer(): Promise<Render> {
  loading ??= Promise.all([import("marked"), import("dompurify"), import("./markdown-steps.ts")]).then(
    ([markedModule, purifyModule, stepsModule]) => {
      const purify = purifyModule.default;
      const options = { async: false, gfm: true } as const;
      const steps: MarkdownSteps = {
        lex: (markdown) => markedModule.marked.lexer(markdown, options) as unknown as BlockList,
        parse: (blocks) => markedModule.marked.parser(blocks as never, options),
        sanitize: (html) =>
          purify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ["style", "form", "input"] }),
      };
      // In steps, each in its own task (./markdown-steps.ts): a long answer never renders in one long task.
      return (markdown, isCurrent) => stepsModule.renderInSteps(markdown, steps, nextTask, isCurrent);
    },
  );
  return loading;
}

/**
 * Loads the renderer while an answer streams, when the page is idle (or after a second at the latest), so
 * the finished answer does not wait for the chunk to arrive and compile in the same task that renders it.
 */
function preloadRenderer(): () => void {
  return loading ? () => undefined : whenIdle(() => void loadRenderer());
}

/** Lets the browser paint and handle input before the next step (scheduler.yield where there is one). */
function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === "function") return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Characters per piece of plain text: a piece once full never changes again. */
const PIECE = 2048;

const Piece = memo(function Piece({ text }: { text: string }) {
  return <span>{text}</span>;
});

/**
 * Plain text in fixed pieces: while an answer streams only its last piece changes, so React writes one
 * short text node per batch and the browser reshapes that piece, not the whole answer (a 10,000-word
 * answer is one paragraph). The pieces are inline spans of one paragraph: lines break, find-in-page
 * matches and a selection copies across them as across one text.
 */
export function PlainText({ text }: { text: string }) {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += PIECE) pieces.push(text.slice(start, start + PIECE));
  return (
    <>
      {pieces.map((piece, index) => (
        <Piece key={index} text={piece} />
      ))}
    </>
  );
}

export function SafeMarkdown({
  markdown,
  testId,
  className = "text-sm",
  streaming = false,
}: {
  markdown: string;
  testId?: string;
  className?: string;
  /** Still arriving: shown as plain text (the same paragraph the rendered Markdown replaces once it ends). */
  streaming?: boolean;
}) {
  const [html, setHtml] = useState<string | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  // Keyed on `streaming` alone: a delta must not push the preload back.
  useEffect(() => (streaming ? preloadRenderer() : undefined), [streaming]);
  useEffect(() => {
    if (streaming) return;
    let current = true;
    loadRenderer()
      .then((render) => render(markdown, () => current))
      .then(
        (rendered) => current && rendered !== undefined && setHtml(rendered),
        (error: unknown) => current && setFailure(String(error)),
      );
    return () => {
      current = false;
    };
  }, [markdown, streaming]);
  if (failure)
    return (
      <pre className={`whitespace-pre-wrap ${className}`} data-testid={testId}>
        {markdown}
      </pre>
    );
  // While streaming, and until the renderer has loaded, the text as it is rather than a blank.
  if (streaming || html === undefined)
    return (
      <p className={`whitespace-pre-wrap ${className}`} data-testid={testId}>
        <PlainText text={markdown} />
      </p>
    );
  // The HTML comes from DOMPurify.sanitize above, never straight from the model or a skill file.
  return (
    <div
      className={`markdown ${className}`}
      data-testid={testId}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
