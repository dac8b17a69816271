// Sanitized Markdown: marked renders, DOMPurify removes anything executable. Skill bodies and model
// output are never inserted as raw HTML. Both libraries load on first use, outside the first-load JS.
"use client";
import { useEffect, useState } from "react";

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

export function SafeMarkdown({
  markdown,
  testId,
  className = "text-sm",
}: {
  markdown: string;
  testId?: string;
  className?: string;
}) {
  const [html, setHtml] = useState<string | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  useEffect(() => {
    let current = true;
    loadRenderer().then(
      (render) => current && setHtml(render(markdown)),
      (error: unknown) => current && setFailure(String(error)),
    );
    return () => {
      current = false;
    };
  }, [markdown]);
  if (failure)
    return (
      <pre className={`whitespace-pre-wrap ${className}`} data-testid={testId}>
        {markdown}
      </pre>
    );
  // Until the renderer has loaded, show the text as it is rather than a blank.
  if (html === undefined)
    return (
      <p className={`whitespace-pre-wrap ${className}`} data-testid={testId}>
        {markdown}
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
