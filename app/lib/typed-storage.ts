// What the user typed outlives a reload of the tab: the messages queued during a run (Enter was pressed
// on them, so they are the user's until sent or removed), the draft in the message box, the answer being
// written in the manual composer ("You are the model") and a deny reason typed into an approval card.
// Kept in sessionStorage like the open session (connection.ts): per tab, gone with the tab, never sent
// anywhere. The last two are per session and per pending request or approval, each under its own key
// (./typed-answers.ts, loaded with their components, not on first load).
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
