// One row of the chat and the props its lists share: the whole list (./chat-list.tsx) and the virtual one
// (./chat-virtual-rows.tsx, loaded only when a conversation grows past VIRTUAL_AFTER turns).
"use client";
import type { RefObject } from "react";
import { at, type Records } from "../state/records.ts";
import { callsOfTurn } from "../state/selectors.ts";
import type { ChatTurn, ToolCallView } from "../state/types.ts";
import { Turn } from "./chat-turn.tsx";

export interface RowProps {
  turn: ChatTurn;
  calls: Records<ToolCallView>;
  skillNames: string[];
  highlightRequest?: number;
  manualRequest?: number;
  onSelectRequest: (requestIndex: number) => void;
}

export function Row({ turn, calls, skillNames, highlightRequest, manualRequest, onSelectRequest }: RowProps) {
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
export function rowOfRequest(turns: Records<ChatTurn>, requestIndex: number): number {
  for (let index = turns.size - 1; index >= 0; index--) {
    const turn = at(turns, index)!;
    if (turn.kind === "assistant" && turn.requestIndex === requestIndex) return index;
  }
  return -1;
}

export type ListProps = Omit<RowProps, "turn"> & {
  turns: Records<ChatTurn>;
  scroller: RefObject<HTMLDivElement | null>;
  /** The view follows new output (./follow-output.ts): it stays pinned to the bottom. */
  following: boolean;
  /** The highlight the view last went to: a list that mounts (turning virtual) does not go there again. */
  shown: RefObject<number | undefined>;
};
