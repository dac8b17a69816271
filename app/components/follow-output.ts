// The chat follows new output the way a terminal does: while the reader is at the bottom, anything that
// grows (streamed text, a tool card, a Markdown render, the panel getting shorter because an approval
// appeared) keeps the bottom in view. Scrolling up stops following, and new output below then raises a
// "new output" flag instead of moving the view; scrolling back down, or `toBottom()` (sending a message,
// the pill), follows again. Growth is observed with a ResizeObserver, so it does not matter which
// component grew or when it rendered.
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
): { following: boolean; unseen: boolean; toBottom: () => void } {
  const following = useRef(true);
  const [state, setState] = useState({ following: true, unseen: false });
  // The scroll events our own scrolling causes are not the reader's: they must not stop following.
  const programmatic = useRef(false);

  const toBottom = useCallback(() => {
    const element = scroller.current;
    following.current = true;
    setState({ following: true, unseen: false });
    if (!element) return;
    programmatic.current = true;
    element.scrollTop = element.scrollHeight;
  }, [scroller]);

  // Another session: start at its bottom.
  useEffect(() => {
    toBottom();
  }, [resetKey, toBottom]);

  useEffect(() => {
    const element = scroller.current;
    const inner = content.current;
    if (!element || !inner) return;
    const onScroll = () => {
      if (programmatic.current) {
        programmatic.current = false;
        if (atBottom(element)) return;
      }
      const bottom = atBottom(element);
      if (bottom === following.current) return;
      following.current = bottom;
      setState({ following: bottom, unseen: false });
    };
    const onGrow = () => {
      if (following.current) {
        // All the way down: the slack is for telling a reader's scroll apart, not for where to stop.
        if (element.scrollHeight - element.scrollTop - element.clientHeight < 1) return;
        programmatic.current = true;
        element.scrollTop = element.scrollHeight;
      } else setState((old) => (old.unseen ? old : { ...old, unseen: true }));
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

  return { ...state, toBottom };
}
