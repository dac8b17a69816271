// The request the user selected in the inspector outlives a reload of the tab, as the open session does
// (lib/early-socket.ts SESSION_KEY) and what was typed (lib/typed-storage.ts): kept in sessionStorage,
// per tab, gone with the tab, never sent anywhere. One entry, for the session the tab shows: selecting a
// request writes it, following the newest (no selection) removes it. After a reload the kept request is
// shown again once the session's replay brings it; a request the session no longer has (its log lost
// it) falls back to the newest, as if nothing had been selected, and the entry goes. Only the lazily
// loaded inspector imports this, so none of it is first-load JS.

/** sessionStorage: the session and the request this tab's inspector showed. */
export const SELECTION_KEY = "pseudoclaude-playground-selected-request";

export interface KeptSelection {
  sessionId: string;
  requestIndex: number;
}

/** The kept entry for `sessionId`; an unreadable one, or another session's, reads as none. */
export function parseSelection(raw: string | null, sessionId: string): number | undefined {
  if (raw === null) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const entry = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  return entry.sessionId === sessionId &&
    typeof entry.requestIndex === "number" &&
    Number.isInteger(entry.requestIndex)
    ? entry.requestIndex
    : undefined;
}

/** The entry to keep; undefined (remove it) when the inspector follows the newest request. */
export function serializeSelection(sessionId: string, requestIndex: number | undefined): string | undefined {
  return requestIndex === undefined
    ? undefined
    : JSON.stringify({ sessionId, requestIndex } satisfies KeptSelection);
}

/**
 * What a kept selection becomes, given the session's requests so far: the request to select (it is
 * there), "wait" (the replay is still arriving and may bring it), or "newest" (the session, replayed
 * in full, has no such request: show the newest and forget the entry).
 */
export function restoreSelection(
  kept: number,
  requests: readonly { requestIndex: number }[],
  replayed: boolean,
): number | "wait" | "newest" {
  if (requests.some((request) => request.requestIndex === kept)) return kept;
  return replayed ? "newest" : "wait";
}

/** The tab's sessionStorage, or none where nothing renders in a tab (a prerender, the server renderer). */
function tabStorage(): Storage | undefined {
  return typeof window === "undefined" ? undefined : window.sessionStorage;
}

export function readSelection(sessionId: string): number | undefined {
  return parseSelection(tabStorage()?.getItem(SELECTION_KEY) ?? null, sessionId);
}

export function writeSelection(sessionId: string, requestIndex: number | undefined): void {
  const entry = serializeSelection(sessionId, requestIndex);
  if (entry === undefined) tabStorage()?.removeItem(SELECTION_KEY);
  else tabStorage()?.setItem(SELECTION_KEY, entry);
}
