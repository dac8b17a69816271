// Sanitized Markdown: marked renders, DOMPurify removes anything executable. Skill bodies and model
// output are never inserted as raw HTML. Both libraries load on first use, outside the first-load JS.
"use client";
import { memo, useEffect, useState } from "react";

type Render = (markdown: string) => string;
let loading: Promise<Render> | undefined;

function loadRenderer(): Promise<Render> {
  loading ??= Promise.all([import("marked"), import("dompurify")]).then(([markedModule, purifyModule]) => {
    const purify = purifyModule.default;
    return (markdown: string) => {
      const html = markedModule.marked.parse(markdown, { async: false, gfm: true }) as string;
      return purify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ["style", "form", "input"] });
    };
  });
  return loading;
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
  useEffect(() => {
    if (streaming) return;
    let current = true;
    loadRenderer().then(
      (render) => current && setHtml(render(markdown)),
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
