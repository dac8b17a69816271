// The chat's virtual list: past VIRTUAL_AFTER turns only the rows in view (and OVERSCAN either side) are
// in the page (@tanstack/react-virtual), each measured as it renders. Its own module, loaded when a
// conversation first grows that long (./lazy.tsx), so the virtualizer is not in the first-load JS.
"use client";
import { useEffect, useLayoutEffect, useRef } from "react";
import { useVirtualizer, type Virtualizer } from "@tanstack/react-virtual";
import { at } from "../state/records.ts";
import { Row, rowOfRequest, type ListProps } from "./chat-rows.tsx";

const OVERSCAN = 10;
/** A first guess for a row's height before it is measured (between a stop line and a short answer). */
const ESTIMATED_ROW_PX = 56;
const neverAdjust = () => false;

/**
 * The rows in view, mounted once the conversation grows past VIRTUAL_AFTER (a component of its own, so
 * the virtualizer starts where the view is: it scrolls to its offset as it starts).
 */
export function VirtualRows({ turns, scroller, following, shown, ...rowProps }: ListProps) {
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
  // what the reader looks at stays put — the library's own rule (undefined), which moves it only for a
  // row above the view: a row in view measured at the top of the conversation must not push the first
  // message out of it. While following, the bottom is pinned instead: such a move would look like the
  // reader scrolling up (and stop the following).
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = following ? neverAdjust : undefined;
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
