// The conversation's rows. A short conversation is rendered whole; past VIRTUAL_AFTER turns only the
// rows in view (and OVERSCAN either side) are in the page (@tanstack/react-virtual), each measured as
// it renders, so a 500-request session opens and streams at the cost of a screenful.
//
// What a virtual list changes for the reader, and how each is kept:
// - Follow and the "new output" pill (./follow-output.ts) watch the list's height, which the virtualizer
//   sets from the measured rows: streaming into the last row still grows it.
// - Going to a request (the inspector's "show turn") scrolls the list to that row's index, rendered or not.
// - The browser's find-in-page and a select-all copy see only rendered rows: a page cannot tell when
//   Ctrl-F is open, so it cannot render everything for it. Conversations up to VIRTUAL_AFTER turns (every
//   demo, most sessions) are whole in the page as before; a longer one is searched row by row in the
//   inspector's Messages pane (each request's messages) or in its exported HTML page, which is whole.
"use client";
import { useEffect, useRef, type RefObject } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { at, type Records } from "../state/records.ts";
import { callsOfTurn } from "../state/selectors.ts";
import type { ChatTurn, ToolCallView } from "../state/types.ts";
import { Turn } from "./chat-turn.tsx";

/** Conversations longer than this many turns are virtual (only the rows in view are in the page). */
export const VIRTUAL_AFTER = 120;
const OVERSCAN = 10;
/** A first guess for a row's height before it is measured (a short assistant turn with one call). */
const ESTIMATED_ROW_PX = 96;

interface RowProps {
  turn: ChatTurn;
  calls: Records<ToolCallView>;
  skillNames: string[];
  highlightRequest?: number;
  manualRequest?: number;
  onSelectRequest: (requestIndex: number) => void;
}

function Row({ turn, calls, skillNames, highlightRequest, manualRequest, onSelectRequest }: RowProps) {
  const requestIndex = turn.kind === "assistant" ? turn.requestIndex : undefined;
  return (
    <Turn
      turn={turn}
      calls={callsOfTurn(calls, turn)}
      skillNames={skillNames}
      highlighted={requestIndex !== undefined && requestIndex === highlightRequest}
      awaitingManual={requestIndex !== undefined && requestIndex === manualRequest}
      onSelectRequest={onSelectRequest}
    />
  );
}

/** The row that shows a model request's assistant turn, or -1. */
function rowOfRequest(turns: Records<ChatTurn>, requestIndex: number): number {
  for (let index = turns.size - 1; index >= 0; index--) {
    const turn = at(turns, index)!;
    if (turn.kind === "assistant" && turn.requestIndex === requestIndex) return index;
  }
  return -1;
}

export function ChatList({
  turns,
  calls,
  scroller,
  skillNames,
  highlightRequest,
  manualRequest,
  onSelectRequest,
}: Omit<RowProps, "turn"> & {
  turns: Records<ChatTurn>;
  scroller: RefObject<HTMLDivElement | null>;
}) {
  const virtual = turns.size > VIRTUAL_AFTER;
  const virtualizer = useVirtualizer({
    count: turns.size,
    enabled: virtual,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey: (index) => at(turns, index)?.id ?? index,
    overscan: OVERSCAN,
    gap: 8,
  });
  // Only a new highlight moves the view, not every turn that streams in: the rest is read from a ref.
  const latest = useRef({ turns, virtual, virtualizer });
  latest.current = { turns, virtual, virtualizer };
  useEffect(() => {
    if (highlightRequest === undefined) return;
    const { turns: rows, virtual: isVirtual, virtualizer: list } = latest.current;
    if (isVirtual) {
      const row = rowOfRequest(rows, highlightRequest);
      if (row >= 0) list.scrollToIndex(row, { align: "auto" });
    } else document.getElementById(`turn-request-${highlightRequest}`)?.scrollIntoView({ block: "nearest" });
  }, [highlightRequest]);
  const rowProps = { calls, skillNames, highlightRequest, manualRequest, onSelectRequest };
  if (!virtual) {
    const rows: ChatTurn[] = [];
    for (let index = 0; index < turns.size; index++) rows.push(at(turns, index)!);
    return (
      <>
        {rows.map((turn) => (
          <Row key={turn.id} turn={turn} {...rowProps} />
        ))}
      </>
    );
  }
  const items = virtualizer.getVirtualItems();
  return (
    <div
      className="relative w-full"
      style={{ height: virtualizer.getTotalSize() }}
      data-virtual-rows={turns.size}
    >
      {items.map((item) => (
        <div
          key={item.key}
          data-index={item.index}
          ref={virtualizer.measureElement}
          className="absolute top-0 left-0 w-full"
          style={{ transform: `translateY(${item.start}px)` }}
        >
          <Row turn={at(turns, item.index)!} {...rowProps} />
        </div>
      ))}
    </div>
  );
}
