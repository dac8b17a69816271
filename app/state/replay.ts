// A replay session as the chat shows it: the recorded user messages (from the imported scenario), how
// many of them were sent already, in order, and the first request where the replay left the recording
// (the scripted model's payload names each difference: providers/scenario-divergence.ts).
import type { ChatTurn, SessionView } from "./types.ts";
import { requestPayload } from "./snapshot-view.ts";

export interface ReplayState {
  /** The recording's session id or name. */
  of: string;
  recorded: string[];
  /** How many of `recorded`, from the first, this session's user messages have sent in order. */
  sent: number;
  divergence?: { requestIndex: number; differences: string[] };
}

function differencesOf(payload: unknown): string[] {
  if (typeof payload !== "object" || payload === null) return [];
  const divergence = (payload as { divergence?: unknown }).divergence;
  return Array.isArray(divergence)
    ? divergence.filter((item): item is string => typeof item === "string")
    : [];
}

export function replayState(
  session: Pick<SessionView, "settings" | "requests"> & { turns: readonly ChatTurn[] },
): ReplayState | undefined {
  const of = session.settings.replayOf;
  if (of === undefined) return undefined;
  const recorded = session.settings.replayMessages ?? [];
  let sent = 0;
  for (const turn of session.turns) {
    if (turn.kind !== "user" || sent >= recorded.length) continue;
    // A slash command's message carries its SOP below the typed line; the recording holds what was typed.
    if (turn.text === recorded[sent] || turn.text.split("\n\n", 1)[0] === recorded[sent]) sent++;
  }
  const diverged = session.requests.find((request) => differencesOf(requestPayload(request)).length > 0);
  return {
    of,
    recorded,
    sent,
    ...(diverged
      ? {
          divergence: {
            requestIndex: diverged.requestIndex,
            differences: differencesOf(requestPayload(diverged)),
          },
        }
      : {}),
  };
}
