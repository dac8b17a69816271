// Views the workspace does not show on first load (its dialogs, the edit and compare views, a skill's detail, the
// line diff) are loaded when first shown, so their code and libraries (diff, fflate) stay out of the
// first-load JS (bench page-weight). Each renders inside a <Suspense>; its fallback says it is loading.
// What shows a session (the catalog's panels, the inspector, the chat's tool-call cards, an approval,
// the chat's virtual list for a long one) has nothing to show before the session arrives over the socket:
// it is loaded too, but at once (preloadColumns, called as the workspace module runs, before it hydrates), so it arrives while the
// socket connects. Popovers (run settings, the session list and menu), the manual composer, the replay
// and branch banners, the confirmation and trust dialogs and MCP result views load when first shown.
// First-load JS is bench row page-weight (≤ 160 KB gz; Next's runtime and React DOM are 131 of it).
"use client";
import { lazy, Suspense, type ComponentType, type ReactNode } from "react";

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
/** Edit & resend and the compare view, with their glue: loaded when either is first opened. */
export const ExperimentsLayer = lazy(() =>
  import("./experiments-layer.tsx").then((module) => ({ default: module.ExperimentsLayer })),
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

/**
 * A view loaded at once (preloadColumns) and rendered from the module as soon as it has arrived. React's
 * lazy() suspends on its first render even when the chunk has long been loaded — its loader's promise
 * settles a microtask later — and a reopened session's first render then ran twice (thrown away at the
 * first lazy view, run again after it), with a "Loading…" commit between. So once the module is here,
 * the loader answers with a thenable that calls back at once (lazy() takes any thenable), and the view
 * renders in the same pass.
 */
function preloaded<M, P>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>) {
  let loaded: { default: ComponentType<P> } | undefined;
  const start = () =>
    load().then((module) => {
      loaded = { default: pick(module) };
      return loaded;
    });
  const settled = (module: { default: ComponentType<P> }) =>
    ({ then: (resolve: (value: typeof module) => void) => resolve(module) }) as unknown as Promise<
      typeof module
    >;
  return { View: lazy(() => (loaded ? settled(loaded) : start())), preload: start };
}

const inspectorPanel = preloaded(
  () => import("./inspector-panel.tsx"),
  (module) => module.InspectorPanel,
);
const catalogPanel = preloaded(
  () => import("./catalog-panel.tsx"),
  (module) => module.CatalogPanel,
);
const mcpPanel = preloaded(
  () => import("./mcp-panel.tsx"),
  (module) => module.McpPanel,
);
const approvalCard = preloaded(
  () => import("./approval-card.tsx"),
  (module) => module.ApprovalCard,
);
const virtualRows = preloaded(
  () => import("./chat-virtual-rows.tsx"),
  (module) => module.VirtualRows,
);
const toolCallCard = preloaded(
  () => import("./tool-call-card.tsx"),
  (module) => module.ToolCallCard,
);

export const InspectorPanel = inspectorPanel.View;
export const CatalogPanel = catalogPanel.View;
export const McpPanel = mcpPanel.View;
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
export const WorkdirGoneBanner = lazy(() =>
  import("./workdir-gone-banner.tsx").then((module) => ({ default: module.WorkdirGoneBanner })),
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
export const ToolCallCard = toolCallCard.View;
export const ManualComposer = lazy(() =>
  import("./manual-composer.tsx").then((module) => ({ default: module.ManualComposer })),
);
export const VirtualRows = virtualRows.View;
export const ApprovalCard = approvalCard.View;

/**
 * Starts loading, as the workspace module runs (before the page hydrates), what a session shows as soon as it arrives: the columns, the
 * chat's tool-call cards and approval card, and its virtual list (a reopened long session); settles once each has loaded
 * or failed. A load that fails here is tried again by the view that needs it, and that failure shows in its panel's boundary.
 */
export function preloadColumns(): Promise<void> {
  const views = [inspectorPanel, catalogPanel, mcpPanel, approvalCard, virtualRows, toolCallCard];
  return Promise.all(views.map((view) => view.preload().then(noValue, noValue))).then(noValue);
}

const noValue = (): void => undefined;
