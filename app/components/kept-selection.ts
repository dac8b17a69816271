// The inspector's selection across a reload of the tab (state/request-selection.ts has the rules): the
// kept request is read once per session shown, shown as soon as the replay brings it (so the newest never
// flashes in its place), and handed to the workspace's selection; from then on every selection the
// workspace makes (a click, "show the newest" after a run or a fork) is what is kept.
"use client";
import { useEffect, useRef } from "react";
import { readSelection, restoreSelection, writeSelection } from "../state/request-selection.ts";

/**
 * The request index to show: the workspace's selection, else the kept one while it is being restored.
 * `replayed`: the session's replay has arrived in full (a kept request it lacks will not come).
 */
export function useKeptSelection(
  sessionId: string | undefined,
  requests: readonly { requestIndex: number }[],
  selectedIndex: number | undefined,
  replayed: boolean,
  onSelect: (index: number) => void,
): number | undefined {
  const kept = useRef<{ sessionId?: string; index?: number }>({});
  if (sessionId !== undefined && kept.current.sessionId !== sessionId)
    kept.current = { sessionId, index: readSelection(sessionId) };
  const pending = kept.current.index;
  const step =
    pending !== undefined && selectedIndex === undefined
      ? restoreSelection(pending, requests, replayed)
      : undefined;

  useEffect(() => {
    if (sessionId === undefined) return;
    if (step === "wait") return;
    if (kept.current.index !== undefined) {
      kept.current.index = undefined;
      if (typeof step === "number") return onSelect(step);
    }
    writeSelection(sessionId, selectedIndex);
  }, [sessionId, selectedIndex, step, onSelect]);

  return typeof step === "number" ? step : selectedIndex;
}
