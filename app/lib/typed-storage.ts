// What the user typed outlives a reload of the tab: the messages queued during a run (Enter was pressed
// on them, so they are the user's until sent or removed), the draft in the message box, the answer being
// written in the manual composer ("You are the model") and a deny reason typed into an approval card.
// Kept in sessionStorage like the open session (connection.ts): per tab, gone with the tab, never sent
// anywhere. The last two are per session and per pending request or approval, each under its own key
// (typedKey); the component keeps its key in step with what it shows (./typed-answers.ts, loaded with
// the component, not on first load), and the key goes once the request or approval is gone from the
// session (keysGone): answered, here or in another tab, or its run ended.
export const queueKey = "pseudoclaude-playground-queue";
export const draftKey = "pseudoclaude-playground-draft";

export interface StoredQueued {
  sessionId: string;
  text: string;
}

function isQueued(value: unknown): value is StoredQueued {
  if (typeof value !== "object" || value === null) return false;
  const item = value as Record<string, unknown>;
  return typeof item.sessionId === "string" && typeof item.text === "string";
}

/** The queue this tab kept; an unreadable entry (written by hand, or by another version) reads as none. */
export function readQueued(): StoredQueued[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(window.sessionStorage.getItem(queueKey) ?? "[]");
  } catch {
    return [];
  }
  return Array.isArray(parsed) ? parsed.filter(isQueued) : [];
}

export function writeQueued(queue: readonly StoredQueued[]): void {
  const items = queue.map(({ sessionId, text }) => ({ sessionId, text }));
  if (items.length === 0) window.sessionStorage.removeItem(queueKey);
  else window.sessionStorage.setItem(queueKey, JSON.stringify(items));
}

export function readDraft(): string {
  return window.sessionStorage.getItem(draftKey) ?? "";
}

export function writeDraft(text: string): void {
  if (text === "") window.sessionStorage.removeItem(draftKey);
  else window.sessionStorage.setItem(draftKey, text);
}

/**
 * Where what is typed for one pending thing is kept: a manual request's answer (`id` its request index, a
 * number) or an approval's deny reason (`id` its call id, a string). A JSON array, so no id (a model's call
 * id may hold any character) makes two keys the same, and a number never reads as a call id.
 */
export function typedKey(sessionId: string, runId: string, id: string | number): string {
  return JSON.stringify(["pseudoclaude-playground-typed", sessionId, runId, id]);
}

/**
 * The keys whose request or approval is gone between two moments of a view: each list is the view (its
 * session and the snapshot, session_opened, it started from) then the keys pending in it. A view that
 * starts again (another session, or the same one opened afresh) replays its pending ones: none is gone.
 */
export function keysGone(before: readonly string[], after: readonly string[]): string[] {
  return before[0] === after[0] ? before.slice(1).filter((key) => !after.includes(key)) : [];
}
