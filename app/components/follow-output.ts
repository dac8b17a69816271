// The chat follows new output the way a terminal does: while the reader is at the bottom, anything that
// grows (streamed text, a tool card, a Markdown render, the panel getting shorter because an approval
// appeared) keeps the bottom in view. Scrolling up stops following, and new output below (a change of
// `output`: the conversation's turns) then raises a "new output" flag instead of moving the view — not any
// growth, since a virtual list's rows change height as they are measured while the reader scrolls; scrolling back down, or `toBottom()` (sending a message,
// the pill), follows again. Growth is observed with a ResizeObserver, so it does not matter which
// component grew or when it rendered. (The chat turns off the browser's scroll anchoring, whose own
// adjustments would otherwise move the view.)
"use client";
import { useCallback, useEffect, useRef, useState, type RefObject } from "react";

/** Within this many pixels of the bottom counts as "at the bottom" (a wheel notch is about 100). */
const bottomSlack = 24;

function atBottom(element: HTMLElement): boolean {
  return element.scrollHeight - element.scrollTop - element.clientHeight <= bottomSlack;
}

export function useFollowOutput(
  scroller: RefObject<HTMLElement | null>,
  content: RefObject<HTMLElement | null>,
  resetKey: unknown,
  output: unknown,
): { following: boolean; unseen: boolean; toBottom: () => void } {
  const following = useRef(true);
  const [state, setState] = useState({ following: true, unseen: false });

  const toBottom = useCallback(() => {
    const element = scroller.current;
    following.current = true;
    setState({ following: true, unseen: false });
    if (element) element.scrollTop = element.scrollHeight;
  }, [scroller]);

  // Another session: start at its bottom.
  useEffect(() => {
    toBottom();
  }, [resetKey, toBottom]);

  useEffect(() => {
    const element = scroller.current;
    const inner = content.current;
    if (!element || !inner) return;
    // Only the reader moves the view up: our own scrolling goes down, and content that grows between our
    // scroll and its event leaves scrollTop where it was. So "up" means the reader, "at the bottom" follows.
    let lastTop = element.scrollTop;
    const set = (follow: boolean) => {
      if (follow === following.current) return;
      following.current = follow;
      setState({ following: follow, unseen: false });
    };
    const onScroll = () => {
      const top = element.scrollTop;
      if (atBottom(element)) set(true);
      else if (top < lastTop - 1) set(false);
      lastTop = top;
    };
    const onGrow = () => {
      if (following.current) {
        // All the way down: the slack is for telling a reader's scroll apart, not for where to stop.
        if (element.scrollHeight - element.scrollTop - element.clientHeight >= 1)
          element.scrollTop = element.scrollHeight;
        lastTop = element.scrollTop;
      }
    };
    const observer = new ResizeObserver(onGrow);
    observer.observe(inner);
    observer.observe(element);
    element.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener("scroll", onScroll);
    };
  }, [scroller, content]);

  // New output while the reader is up in the conversation: the flag (the session's own reset aside).
  const lastOutput = useRef(output);
  useEffect(() => {
    if (lastOutput.current === output) return;
    lastOutput.current = output;
    if (!following.current) setState((old) => (old.unseen ? old : { ...old, unseen: true }));
  }, [output]);

  return { ...state, toBottom };
}
