// The experiment loop's overlays (issue 14): the Edit & resend dialog for one request, the compare view,
// and the banner a branch shows above its chat ("forked from #N: …", with a way back to its origin).
"use client";
import type {
  BranchCheck,
  ProviderInfo,
  RequestEdit,
  RunDigest,
  SessionSummary,
} from "../../server/protocol/index.ts";
import type { SessionView } from "../state/types.ts";
import { CompareView, EditRequest, Loading } from "./lazy.tsx";
import { Button } from "./ui.tsx";
import { requestSnapshot } from "../state/snapshot-view.ts";

export interface CompareTarget {
  left: string;
  right: string;
}

export function BranchBanner({
  session,
  onOpenOrigin,
  onCompare,
}: {
  session: SessionView;
  onOpenOrigin: (id: string) => void;
  onCompare: () => void;
}) {
  const branch = session.summary.branch;
  if (!branch) return null;
  return (
    <div
      className="flex flex-wrap items-center gap-2 border-b border-violet-200 bg-violet-50 px-2 py-1 text-xs"
      data-testid="branch-banner"
    >
      <span className="font-semibold text-violet-900" data-testid="branch-label">
        {branch.label}
      </span>
      <span className="text-slate-600">
        a branch of another session: the original is unchanged; these edits apply to every request here
      </span>
      {session.branchCheck && <BranchCheckLine check={session.branchCheck} />}
      <Button small testId="branch-open-origin" onClick={() => onOpenOrigin(branch.originSessionId)}>
        Open the original
      </Button>
      <Button small testId="branch-compare" onClick={onCompare}>
        Compare with the original
      </Button>
    </div>
  );
}

/**
 * How the branch's first request compares with the origin's, segment by segment (the server's check,
 * branch_checked): exact but for the edits, or which segments differ and why. Nothing is computed here.
 */
export function BranchCheckLine({ check }: { check: BranchCheck }) {
  const pinned = check.pinnedDate
    ? `; environment dated ${check.pinnedDate}, as #${check.originRequestIndex} was`
    : "";
  const edited = check.edited.length ? `, except what you edited (${check.edited.join(", ")})` : "";
  if (check.exact)
    return (
      <span
        className="text-emerald-800"
        data-testid="branch-check"
        data-exact="true"
        title={`${check.compared} segments compared by sha256 (server/session/branch-check.ts)`}
      >
        #{check.requestIndex} resends #{check.originRequestIndex} exactly: same segment hashes{edited}
        {pinned}
      </span>
    );
  return (
    <details className="text-amber-900" data-testid="branch-check" data-exact="false">
      <summary className="cursor-pointer">
        #{check.requestIndex} differs from #{check.originRequestIndex} in {check.differences.length} segment
        {check.differences.length === 1 ? "" : "s"} you did not edit{pinned}
      </summary>
      <ul className="list-disc pl-4" data-testid="branch-differences">
        {check.differences.map((difference) => (
          <li key={`${difference.kind}:${difference.name}`} data-testid="branch-difference">
            <span className="font-mono">
              {difference.kind} {difference.name}
            </span>
            : {difference.reason}
          </li>
        ))}
      </ul>
    </details>
  );
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
