// The session picker's open list (./session-picker.tsx): new, export, and every session with its title,
// when it was made, its short id and branch marker, reopen and delete (asks first). Loaded when the
// picker first opens, so the page's first load does without it.
"use client";
import { useRef, type RefObject } from "react";
import type { SessionSummary } from "../../server/protocol/index.ts";
import { plural } from "../../server/shared/figures.ts";
import { Dialog } from "./dialog.tsx";
import { madeAt, sessionOrder, shortSessionId } from "./session-picker.tsx";
import { Badge, Button } from "./ui.tsx";

function BranchMarker({ session, sessions }: { session: SessionSummary; sessions: SessionSummary[] }) {
  const branch = session.branch;
  if (!branch) return null;
  const origin = sessions.find((item) => item.id === branch.originSessionId);
  return (
    <span
      className="text-violet-800"
      data-testid={`session-branch-${session.id}`}
      title={`${branch.label} (session ${branch.originSessionId})`}
    >
      ⎇ {branch.kind === "rerun" ? "rerun" : "branch"} of #{branch.requestIndex} in “
      {origin ? origin.title : shortSessionId(branch.originSessionId)}”
    </span>
  );
}

export function SessionList({
  sessions,
  currentId,
  confirming,
  setConfirming,
  close,
  picker,
  onOpen,
  onNew,
  onExport,
  onDelete,
}: {
  sessions: SessionSummary[];
  currentId?: string;
  /** The session waiting for "really delete?" (kept by the picker: closing it forgets the question). */
  confirming: string | undefined;
  setConfirming: (id: string | undefined) => void;
  close: () => void;
  picker: RefObject<HTMLButtonElement | null>;
  onOpen: (id: string) => void;
  onNew: () => void;
  onExport: () => void;
  onDelete: (id: string) => void;
}) {
  const keep = useRef<HTMLButtonElement>(null);
  const ordered = sessionOrder(sessions);
  return (
    <div
      className="absolute top-full left-0 z-20 mt-1 w-[28rem] max-w-[90vw] rounded border border-slate-300 bg-white p-1 shadow-lg"
      data-testid="session-list"
    >
      <Button
        small
        kind="primary"
        testId="session-new"
        onClick={() => {
          close();
          // The dialog gives the focus back to what had it: the picker, as this button goes away.
          picker.current?.focus();
          onNew();
        }}
      >
        New session…
      </Button>{" "}
      {currentId && (
        <Button
          small
          testId="session-export"
          onClick={() => {
            close();
            onExport();
          }}
          title="Download this session's JSONL log"
        >
          Export this session&apos;s log
        </Button>
      )}
      <ul className="mt-1 max-h-80 overflow-y-auto">
        {ordered.length === 0 && <li className="p-1 text-xs text-slate-500">No sessions yet.</li>}
        {ordered.map((session) => (
          <li key={session.id} className="group relative">
            <button
              type="button"
              data-testid={`session-item-${session.id}`}
              aria-current={session.id === currentId ? "true" : undefined}
              onClick={() => {
                close();
                onOpen(session.id);
              }}
              className={`w-full rounded p-1 text-left text-xs hover:bg-slate-100 ${session.id === currentId ? "bg-blue-50" : ""}`}
            >
              <div className="truncate pr-14 font-semibold">
                {session.title || "(untitled)"} {session.running && <Badge tone="blue">running</Badge>}{" "}
                {session.workdirMissing && (
                  <span data-testid={`session-workdir-gone-${session.id}`}>
                    <Badge tone="red">folder gone</Badge>
                  </span>
                )}
              </div>
              <div className="flex flex-wrap gap-x-1.5 text-slate-600">
                <span
                  data-testid={`session-made-${session.id}`}
                  title={new Date(session.createdAt).toString()}
                >
                  {madeAt(session.createdAt)}
                </span>
                <span className="font-mono" data-testid={`session-short-id-${session.id}`}>
                  {shortSessionId(session.id)}
                </span>
                <BranchMarker session={session} sessions={sessions} />
              </div>
              <div className="text-slate-500">
                {session.settings.provider}/{session.settings.model} ·{" "}
                {plural(session.messageCount, "message")}
              </div>
              <div className="font-mono break-all text-slate-500">
                {session.settings.workdir}
                {session.workdirMissing && " (no longer exists: read-only)"}
              </div>
            </button>
            <button
              type="button"
              data-testid={`session-delete-${session.id}`}
              className="absolute top-1 right-1 rounded border border-slate-300 bg-white px-1 text-[0.7rem] text-red-800 hover:bg-red-50 disabled:opacity-40"
              disabled={session.running}
              title={session.running ? "Stop its run before deleting it" : "Delete this session and its log"}
              aria-label={`Delete session ${session.title || session.id}`}
              onClick={() => setConfirming(session.id)}
            >
              Delete
            </button>
            {confirming === session.id && (
              <Dialog
                title="Delete this session?"
                testId={`session-delete-confirm-${session.id}`}
                tone="danger"
                alert
                width="w-[26rem]"
                initialFocus={keep}
                onClose={() => setConfirming(undefined)}
              >
                <p className="text-sm">
                  Delete “{session.title || "(untitled)"}” and its log? This cannot be undone.
                </p>
                <div className="flex justify-end gap-2 pt-1">
                  <Button
                    buttonRef={keep}
                    testId="session-delete-no"
                    onClick={() => setConfirming(undefined)}
                  >
                    Keep
                  </Button>
                  <Button
                    kind="danger"
                    testId="session-delete-yes"
                    onClick={() => {
                      setConfirming(undefined);
                      onDelete(session.id);
                    }}
                  >
                    Delete
                  </Button>
                </div>
              </Dialog>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
