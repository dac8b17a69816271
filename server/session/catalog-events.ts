// The catalog as a session reports it: a snapshot of skills and tools, and the diff of a rescan of the
// three skill layers (with only the warnings that are new since the previous scan).
import type { SessionEvent } from "../protocol/wire.ts";
import { withBudgetNotOffered } from "../prompt/not-offered.ts";
import type { ListingBudget } from "../prompt/stable-system.ts";
import type { SessionWorkspace } from "./session-types.ts";

/** `visibleTools`: what the model sees in the current run; all registered tools between runs. */
export function catalogSnapshotEvent(
  workspace: SessionWorkspace,
  visibleTools: string[] = workspace.registry.names(),
  listingBudget?: ListingBudget,
): SessionEvent {
  return {
    type: "catalog_snapshot",
    // "Why isn't it offered?" includes what this session's listing budget leaves out.
    catalog: withBudgetNotOffered(workspace.catalog.snapshot(), workspace.catalog, listingBudget),
    visibleTools,
    registeredTools: workspace.registry.names(),
  };
}

/** Rescans the layers (dropping vanished skills from the active ones when the workspace can). */
export async function catalogDiffEvent(
  workspace: SessionWorkspace,
  trigger: "watch" | "manual",
): Promise<SessionEvent> {
  const { catalog } = workspace;
  const before = new Set(catalog.warnings().map((warning) => JSON.stringify(warning)));
  const diff = workspace.reloadCatalog ? await workspace.reloadCatalog() : await catalog.reload();
  const warnings = catalog.warnings().filter((warning) => !before.has(JSON.stringify(warning)));
  return { type: "catalog_diff", diff, warnings, trigger };
}
