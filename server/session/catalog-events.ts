// The catalog as a session reports it: a snapshot of skills and tools, and the diff of a rescan of the
// three skill layers (with only the warnings that are new since the previous scan).
import type { SessionEvent } from "../protocol/wire.ts";
import type { SessionWorkspace } from "./session-types.ts";

/** `visibleTools`: what the model sees in the current run; all registered tools between runs. */
export function catalogSnapshotEvent(
  workspace: SessionWorkspace,
  visibleTools: string[] = workspace.registry.names(),
): SessionEvent {
  return {
    type: "catalog_snapshot",
    catalog: workspace.catalog.snapshot(),
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
