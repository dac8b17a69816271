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
import { useEffect, useLayoutEffect, useRef, type RefObject } from "react";
import { useVirtualizer, type Virtualizer } from "@tanstack/react-virtual";
import { at, type Records } from "../state/records.ts";
import { callsOfTurn } from "../state/selectors.ts";
import type { ChatTurn, ToolCallView } from "../state/types.ts";
import { Turn } from "./chat-turn.tsx";

/** Conversations longer than this many turns are virtual (only the rows in view are in the page). */
export const VIRTUAL_AFTER = 120;
const OVERSCAN = 10;
/** A first guess for a row's height before it is measured (between a stop line and a short answer). */
const ESTIMATED_ROW_PX = 56;

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

type ListProps = Omit<RowProps, "turn"> & {
  turns: Records<ChatTurn>;
  scroller: RefObject<HTMLDivElement | null>;
  /** The view follows new output (./follow-output.ts): it stays pinned to the bottom. */
  following: boolean;
  /** The highlight the view last went to: a list that mounts (turning virtual) does not go there again. */
  shown: RefObject<number | undefined>;
};

/**
 * The rows in view, mounted once the conversation grows past VIRTUAL_AFTER (a component of its own, so
 * the virtualizer starts where the view is: it scrolls to its offset as it starts).
 */
function VirtualRows({ turns, scroller, following, shown, ...rowProps }: ListProps) {
  // The virtualizer scrolls to its offset as it mounts, and the offset it read while rendering may be
  // older than the view (a transition's render can start well before its commit): it is given the view's
  // own offset at commit. (Layout effects run in order: this one before the virtualizer's.)
  const instance = useRef<Virtualizer<HTMLDivElement, Element> | null>(null);
  useLayoutEffect(() => {
    if (instance.current) instance.current.scrollOffset = scroller.current?.scrollTop ?? 0;
  }, [scroller]);
  const virtualizer = useVirtualizer({
    count: turns.size,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey: (index) => at(turns, index)?.id ?? index,
    overscan: OVERSCAN,
    gap: 8,
    initialOffset: () => scroller.current?.scrollTop ?? 0,
  });
  instance.current = virtualizer;
  // A row above the view measured at another height than guessed moves the view by the difference, so
  // what the reader looks at stays put. While following, the bottom is pinned instead: such a move would
  // look like the reader scrolling up (and stop the following).
  const isFollowing = useRef(following);
  isFollowing.current = following;
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = () => !isFollowing.current;
  // Only a new highlight moves the view, not every turn that streams in: the rest is read from a ref.
  const latest = useRef({ turns, virtualizer });
  latest.current = { turns, virtualizer };
  const { highlightRequest } = rowProps;
  useEffect(() => {
    if (highlightRequest === undefined || highlightRequest === shown.current) return;
    shown.current = highlightRequest;
    const row = rowOfRequest(latest.current.turns, highlightRequest);
    if (row >= 0) latest.current.virtualizer.scrollToIndex(row, { align: "auto" });
  }, [highlightRequest, shown]);
  return (
    <div
      className="relative w-full"
      style={{ height: virtualizer.getTotalSize() }}
      data-virtual-rows={turns.size}
    >
      {virtualizer.getVirtualItems().map((item) => (
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

function WholeRows({ turns, shown, ...rowProps }: Omit<ListProps, "scroller" | "following">) {
  const { highlightRequest } = rowProps;
  useEffect(() => {
    if (highlightRequest === undefined || highlightRequest === shown.current) return;
    shown.current = highlightRequest;
    document.getElementById(`turn-request-${highlightRequest}`)?.scrollIntoView({ block: "nearest" });
  }, [highlightRequest, shown]);
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

export function ChatList({ scroller, following, ...props }: Omit<ListProps, "shown">) {
  const shown = useRef<number | undefined>(undefined);
  return props.turns.size > VIRTUAL_AFTER ? (
    <VirtualRows scroller={scroller} following={following} shown={shown} {...props} />
  ) : (
    <WholeRows shown={shown} {...props} />
  );
}
