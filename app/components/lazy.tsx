// Views the workspace does not show on first load (its dialogs, the compare view, a skill's detail, the
// line diff) are loaded when first shown, so their code and libraries (diff, fflate) stay out of the
// first-load JS (bench page-weight). Each renders inside a <Suspense>; its fallback says it is loading.
// What shows a session (the catalog's panels, the inspector, the chat's tool-call cards, an approval,
// the chat's virtual list for a long one) has nothing to show before the session arrives over the socket:
// it is loaded too, but at once (preloadColumns, called as the workspace module runs, before it hydrates), so it arrives while the
// socket connects. Popovers (run settings, the session list and menu), the manual composer, the replay
// and branch banners, the confirmation and trust dialogs and MCP result views load when first shown.
// First-load JS is bench row page-weight (≤ 160 KB gz; Next's runtime and React DOM are 131 of it).
"use client";
import { lazy, Suspense, type ReactNode } from "react";

export const NewSessionDialog = lazy(() =>
  import("./new-session-dialog.tsx").then((module) => ({ default: module.NewSessionDialog })),
);
export const AddSkillContainer = lazy(() =>
  import("./add-skill-container.tsx").then((module) => ({ default: module.AddSkillContainer })),
);
export const TriggerLabContainer = lazy(() =>
  import("./trigger-lab-container.tsx").then((module) => ({ default: module.TriggerLabContainer })),
);
export const CompareView = lazy(() =>
  import("./compare-view.tsx").then((module) => ({ default: module.CompareView })),
);
export const EditRequest = lazy(() =>
  import("./edit-request.tsx").then((module) => ({ default: module.EditRequest })),
);
export const SkillDetail = lazy(() =>
  import("./skill-detail.tsx").then((module) => ({ default: module.SkillDetail })),
);
export const LineDiffView = lazy(() =>
  import("./line-diff.tsx").then((module) => ({ default: module.LineDiffView })),
);

/** Where a lazily loaded view goes: a short "loading" line for a panel, nothing for a dialog. */
export function Loading({ children, inline = false }: { children: ReactNode; inline?: boolean }) {
  return (
    <Suspense
      fallback={
        inline ? (
          <p className="p-2 text-xs text-slate-500" role="status">
            Loading…
          </p>
        ) : null
      }
    >
      {children}
    </Suspense>
  );
}

const inspectorPanel = () => import("./inspector-panel.tsx");
const catalogPanel = () => import("./catalog-panel.tsx");
const mcpPanel = () => import("./mcp-panel.tsx");
const approvalCard = () => import("./approval-card.tsx");
const virtualRows = () => import("./chat-virtual-rows.tsx");
const toolCallCard = () => import("./tool-call-card.tsx");

export const InspectorPanel = lazy(() =>
  inspectorPanel().then((module) => ({ default: module.InspectorPanel })),
);
export const CatalogPanel = lazy(() => catalogPanel().then((module) => ({ default: module.CatalogPanel })));
export const McpPanel = lazy(() => mcpPanel().then((module) => ({ default: module.McpPanel })));
export const TrustPrompt = lazy(() =>
  import("./trust-prompt.tsx").then((module) => ({ default: module.TrustPrompt })),
);
export const RunSettingsPanel = lazy(() =>
  import("./run-settings-panel.tsx").then((module) => ({ default: module.RunSettingsPanel })),
);
export const ConfirmationDialog = lazy(() =>
  import("./confirmation-dialog.tsx").then((module) => ({ default: module.ConfirmationDialog })),
);
export const ReplayBanner = lazy(() =>
  import("./replay-banner.tsx").then((module) => ({ default: module.ReplayBanner })),
);
export const SessionList = lazy(() =>
  import("./session-list.tsx").then((module) => ({ default: module.SessionList })),
);
export const BranchBanner = lazy(() =>
  import("./branch-banner.tsx").then((module) => ({ default: module.BranchBanner })),
);
export const McpResultView = lazy(() =>
  import("./mcp-result-view.tsx").then((module) => ({ default: module.McpResultView })),
);
export const SessionMenuList = lazy(() =>
  import("./session-menu-list.tsx").then((module) => ({ default: module.SessionMenuList })),
);
export const ToolCallCard = lazy(() => toolCallCard().then((module) => ({ default: module.ToolCallCard })));
export const ManualComposer = lazy(() =>
  import("./manual-composer.tsx").then((module) => ({ default: module.ManualComposer })),
);
export const VirtualRows = lazy(() => virtualRows().then((module) => ({ default: module.VirtualRows })));
export const ApprovalCard = lazy(() => approvalCard().then((module) => ({ default: module.ApprovalCard })));

/**
 * Starts loading, as the workspace module runs (before the page hydrates), what a session shows as soon as it arrives: the columns, the
 * chat's tool-call cards and approval card, and its virtual list (a reopened long session). A load that fails here is tried
 * again by the view that needs it, and that failure shows in its panel's boundary.
 */
export function preloadColumns(): void {
  for (const load of [inspectorPanel, catalogPanel, mcpPanel, approvalCard, virtualRows, toolCallCard])
    load().catch(() => undefined);
}
