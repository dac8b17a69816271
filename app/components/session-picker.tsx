// The session picker: the sessions newest first by when they were made (an order that does not move when
// one of them runs or the page reloads), each with its title, when it was made, a short id (titles
// repeat), and a branch marker naming the session and request it was forked from; reopen, new, export
// the log, delete (asks first: deleting removes the log for good).
"use client";
import { useRef, useState } from "react";
import type { SessionSummary } from "../../server/protocol/index.ts";
import { plural } from "../../server/shared/figures.ts";
import { Dialog } from "./dialog.tsx";
import { usePopover } from "./popover.ts";
import { Badge, Button } from "./ui.tsx";

/** The random tail of a session id (ids start with the time they were made): what tells sessions apart. */
export function shortSessionId(id: string): string {
  return id.split("-").pop() || id;
}

/** Newest first by creation time, then by id: the same order on every reload, whatever ran since. */
export function sessionOrder(sessions: readonly SessionSummary[]): SessionSummary[] {
  return [...sessions].sort(
    (left, right) => right.createdAt.localeCompare(left.createdAt) || right.id.localeCompare(left.id),
  );
}

/** "today 10:15" / "3 Dec 10:15": when a session was made, short enough for a list row. */
export function madeAt(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const time = date.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });
  const sameDay = date.toDateString() === now.toDateString();
  return sameDay
    ? `today ${time}`
    : `${date.toLocaleDateString("en-GB", { day: "numeric", month: "short" })} ${time}`;
}

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

export function SessionPicker({
  sessions,
  currentId,
  onOpen,
  onNew,
  onExport,
  onRefresh,
  onDelete,
}: {
  sessions: SessionSummary[];
  currentId?: string;
  onOpen: (id: string) => void;
  onNew: () => void;
  onExport: () => void;
  onRefresh: () => void;
  onDelete: (id: string) => void;
}) {
  // The session waiting for "really delete?".
  const [confirming, setConfirming] = useState<string | undefined>(undefined);
  const { open, setOpen, container } = usePopover(() => setConfirming(undefined));
  const keep = useRef<HTMLButtonElement>(null);
  const picker = useRef<HTMLButtonElement>(null);
  const current = sessions.find((session) => session.id === currentId);
  const ordered = sessionOrder(sessions);
  return (
    <div className="relative min-w-0 shrink" ref={container}>
      {/* Shrinks with the header: the title is cut with "…", never drawn over its neighbours. */}
      <button
        ref={picker}
        type="button"
        data-testid="session-picker"
        aria-expanded={open}
        className="flex max-w-full min-w-0 items-center gap-1 rounded border border-slate-300 bg-white px-1.5 py-0.5 text-xs font-medium text-slate-800 hover:bg-slate-100"
        onClick={() => {
          if (!open) onRefresh();
          setOpen(!open);
        }}
        title={current ? `Session: ${current.title} (${shortSessionId(current.id)})` : "Sessions"}
      >
        <span className="block max-w-[14rem] min-w-[3rem] truncate">
          {current ? current.title || shortSessionId(current.id) : "Sessions"}
        </span>
        {current?.branch && <span className="text-violet-800">⎇</span>}
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div
          className="absolute top-full left-0 z-20 mt-1 w-[28rem] max-w-[90vw] rounded border border-slate-300 bg-white p-1 shadow-lg"
          data-testid="session-list"
        >
          <Button
            small
            kind="primary"
            testId="session-new"
            onClick={() => {
              setOpen(false);
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
                setOpen(false);
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
                    setOpen(false);
                    onOpen(session.id);
                  }}
                  className={`w-full rounded p-1 text-left text-xs hover:bg-slate-100 ${session.id === currentId ? "bg-blue-50" : ""}`}
                >
                  <div className="truncate pr-14 font-semibold">
                    {session.title || "(untitled)"} {session.running && <Badge tone="blue">running</Badge>}
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
                  <div className="font-mono break-all text-slate-500">{session.settings.workdir}</div>
                </button>
                <button
                  type="button"
                  data-testid={`session-delete-${session.id}`}
                  className="absolute top-1 right-1 rounded border border-slate-300 bg-white px-1 text-[0.7rem] text-red-800 hover:bg-red-50 disabled:opacity-40"
                  disabled={session.running}
                  title={
                    session.running ? "Stop its run before deleting it" : "Delete this session and its log"
                  }
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
      )}
    </div>
  );
}
