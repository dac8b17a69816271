// The session picker: the sessions newest first by when they were made (an order that does not move when
// one of them runs or the page reloads), each with its title, when it was made, a short id (titles
// repeat), and a branch marker naming the session and request it was forked from; reopen, new, export
// the log, delete (asks first: deleting removes the log for good).
"use client";
import { useRef, useState } from "react";
import type { SessionSummary } from "../../server/protocol/index.ts";
import { Loading, SessionList } from "./lazy.tsx";
import { usePopover } from "./popover.ts";

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
  const picker = useRef<HTMLButtonElement>(null);
  const current = sessions.find((session) => session.id === currentId);
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
        <Loading inline>
          <SessionList
            sessions={sessions}
            currentId={currentId}
            confirming={confirming}
            setConfirming={setConfirming}
            close={() => setOpen(false)}
            picker={picker}
            onOpen={onOpen}
            onNew={onNew}
            onExport={onExport}
            onDelete={onDelete}
          />
        </Loading>
      )}
    </div>
  );
}
