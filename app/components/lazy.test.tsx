// The views a session shows at once are loaded as the page starts (preloadColumns) and, once loaded,
// render in the same pass as everything else: a reopened session's first render is not thrown away at
// the first such view to wait a microtask for a module that is already here (React's server renderer
// shows a boundary's fallback exactly where a render would suspend).
import { Suspense } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { McpPanel, preloadColumns } from "./lazy.tsx";

const FALLBACK = "still loading";

function renderPanel(): string {
  return renderToStaticMarkup(
    <Suspense fallback={<p>{FALLBACK}</p>}>
      <McpPanel
        servers={[]}
        warnings={[]}
        consoleResults={[]}
        onReconnect={() => undefined}
        onRunTool={() => undefined}
      />
    </Suspense>,
  );
}

describe("views loaded at once", () => {
  it("render without suspending on their first render once preloadColumns has settled", async () => {
    await preloadColumns();
    const html = renderPanel();
    expect(html).not.toContain(FALLBACK);
    expect(html).toContain('data-testid="mcp-panel"');
  });
});
