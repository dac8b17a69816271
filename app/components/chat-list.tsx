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
import { useEffect, useRef } from "react";
import { at } from "../state/records.ts";
import type { ChatTurn } from "../state/types.ts";
import { Row, type ListProps } from "./chat-rows.tsx";
import { Loading, VirtualRows } from "./lazy.tsx";

/** Conversations longer than this many turns are virtual (only the rows in view are in the page). */
export const VIRTUAL_AFTER = 120;

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
    <Loading inline>
      <VirtualRows scroller={scroller} following={following} shown={shown} {...props} />
    </Loading>
  ) : (
    <WholeRows shown={shown} {...props} />
  );
}
