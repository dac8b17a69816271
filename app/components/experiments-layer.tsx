// The experiment loop's overlays (issue 14): the Edit & resend dialog for one request and the compare
// view (the banner a branch shows above its chat is ./branch-banner.tsx).
"use client";
import type { ProviderInfo, RequestEdit, RunDigest, SessionSummary } from "../../server/protocol/index.ts";
import type { SessionView } from "../state/types.ts";
import { CompareView, EditRequest, Loading } from "./lazy.tsx";
import { requestSnapshot } from "../state/snapshot-view.ts";

export interface CompareTarget {
  left: string;
  right: string;
}

export function ExperimentsLayer({
  session,
  sessions,
  providers,
  runs,
  editing,
  comparing,
  onResend,
  onCancelEdit,
  onPickCompareSession,
  onCloseCompare,
}: {
  session: SessionView | undefined;
  sessions: SessionSummary[];
  providers: ProviderInfo[];
  runs: Record<string, RunDigest[]> | undefined;
  editing: number | undefined;
  comparing: CompareTarget | undefined;
  onResend: (requestIndex: number, edits: RequestEdit[], provider: string) => void;
  onCancelEdit: () => void;
  onPickCompareSession: (side: "left" | "right", sessionId: string) => void;
  onCloseCompare: () => void;
}) {
  const edited = session?.requests.find((request) => request.requestIndex === editing);
  const branch = session?.summary.branch;
  // The descriptions this session's requests were sent with: the catalog's, then a branch's own edits.
  const descriptions = Object.fromEntries([
    ...(session?.catalog?.skills ?? []).map((skill) => [skill.name, skill.description]),
    ...(branch?.edits ?? []).flatMap((edit) =>
      edit.kind === "skill_description" ? [[edit.skill, edit.description]] : [],
    ),
  ]);
  return (
    <>
      {edited && session && (
        <Loading>
          <EditRequest
            key={edited.requestIndex}
            snapshot={requestSnapshot(edited)}
            skillDescriptions={descriptions}
            providers={providers}
            provider={
              // The request's own provider (the server then sends its model too), while it is configured.
              providers.some((info) => info.name === edited.snapshot.provider && info.configured)
                ? edited.snapshot.provider
                : session.settings.provider
            }
            onSend={(edits, provider) => onResend(edited.requestIndex, edits, provider)}
            onCancel={onCancelEdit}
          />
        </Loading>
      )}
      {comparing && (
        <Loading>
          <CompareView
            key={`${comparing.left}-${comparing.right}`}
            left={{
              sessionId: comparing.left,
              runs: runs?.[comparing.left],
              ...(branch && branch.originSessionId === comparing.left
                ? { preferredRequest: branch.requestIndex }
                : {}),
            }}
            right={{ sessionId: comparing.right, runs: runs?.[comparing.right] }}
            sessions={sessions}
            onPickSession={onPickCompareSession}
            onClose={onCloseCompare}
          />
        </Loading>
      )}
    </>
  );
}
