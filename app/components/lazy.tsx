// Views the workspace does not show on first load (its dialogs, the compare view, a skill's detail, the
// line diff) are loaded when first shown, so their code and libraries (diff, fflate) stay out of the
// first-load JS (bench page-weight). Each renders inside a <Suspense>; its fallback says it is loading.
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
