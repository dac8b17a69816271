// The banner a branch shows above its chat ("forked from #N: …", with a way back to its origin and a
// compare), and the line that says how the branch's first request checked against its origin. Loaded
// only when the open session is a branch (./lazy.tsx).
"use client";
import type { BranchCheck } from "../../server/protocol/index.ts";
import type { SessionView } from "../state/types.ts";
import { Button } from "./ui.tsx";

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
