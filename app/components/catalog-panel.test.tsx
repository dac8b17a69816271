// The catalog's reload lines say what made the catalog reload. A reload the user asked for is not always
// the Reload button: installing a skill (Add skill) and applying an optimized description reload it too.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { skill } from "../state/test-builders.ts";
import type { ReloadFeedEntry } from "../state/types.ts";
import { CatalogPanel } from "./catalog-panel.tsx";

const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/<!-- -->/g, "");

function panel(trigger: ReloadFeedEntry["trigger"]): string {
  const entry: ReloadFeedEntry = {
    id: "reload-1",
    diff: { added: ["haiku-poet"], removed: [], updated: [] },
    warnings: [],
    trigger,
    seq: 1,
  };
  return text(
    renderToStaticMarkup(
      <CatalogPanel
        catalog={{ skills: [skill("haiku-poet")], warnings: [], removed: [], shadowed: [], lint: [] }}
        stageOf={() => "listed"}
        reloadFeed={[entry]}
        onSelectSkill={() => {}}
        onReload={() => {}}
      />,
    ),
  );
}

describe("catalog reload lines", () => {
  it("do not credit the Reload button with a reload an install asked for", () => {
    const asked = panel("manual");
    expect(asked).not.toContain("(button)");
    expect(asked).toContain("Last reload (asked for): +haiku-poet");
    expect(panel("watch")).toContain("Last reload (file change): +haiku-poet");
  });
});
