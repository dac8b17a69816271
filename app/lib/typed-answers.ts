// What is typed for a pending request or approval, kept in sessionStorage (as ./typed-storage.ts keeps the
// draft and the queue) so a reload of the tab gives it back: an approval card's deny reason, and the
// manual composer's answer (the assistant text and the tool calls added but not yet sent). Each is per
// session and per pending request or approval, under its own key (typedKey); the component keeps its key
// in step with what it shows (useKept), and the key goes once the request or approval is gone from the
// session (keysGone, components/typed-forget.ts): answered, here or in another tab, or its run ended.
// Only lazily loaded modules import this, so none of it is first-load JS.
import { useCallback, useEffect, useState } from "react";

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

/**
 * A value kept under `key` for a reload: read when the key is first shown, written as it changes. A
 * component shown for another key (the same card reused for another session's call) reads that key's
 * value instead of carrying this one's over to it.
 */
export function useKept<T>(
  key: string,
  read: (key: string) => T,
  write: (key: string, value: T) => void,
): [T, (update: (old: T) => T) => void] {
  const [kept, setKept] = useState(() => ({ key, value: read(key) }));
  const shown = kept.key === key ? kept : { key, value: read(key) };
  if (shown !== kept) setKept(shown);
  useEffect(() => write(kept.key, kept.value), [kept, write]);
  const update = useCallback(
    (change: (old: T) => T) => setKept((old) => ({ key: old.key, value: change(old.value) })),
    [],
  );
  return [shown.value, update];
}

/**
 * The tab's sessionStorage, or none where the component renders without a page (the build's prerender,
 * the store-view tests' server renderer): then nothing was typed yet, and nothing is kept.
 */
function tabStorage(): Storage | undefined {
  return typeof window === "undefined" ? undefined : window.sessionStorage;
}

export function readText(key: string): string {
  return tabStorage()?.getItem(key) ?? "";
}

/** Empty text removes the key: nothing is kept for what has nothing typed. */
export function writeText(key: string, text: string): void {
  const storage = tabStorage();
  if (text === "") storage?.removeItem(key);
  else storage?.setItem(key, text);
}

export interface ManualAnswer {
  text: string;
  calls: { name: string; input: unknown }[];
}

function isCall(value: unknown): value is ManualAnswer["calls"][number] {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Record<string, unknown>).name === "string" &&
    "input" in value
  );
}

/** What a stored entry holds; an unreadable one (written by hand, or by another version) reads as nothing typed. */
export function parseManualAnswer(raw: string): ManualAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { text: "", calls: [] };
  }
  const entry = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  return {
    text: typeof entry.text === "string" ? entry.text : "",
    calls: Array.isArray(entry.calls) ? entry.calls.filter(isCall) : [],
  };
}

/** The entry to store: empty when nothing is typed, so the key is removed rather than kept. */
export function serializeManualAnswer(answer: ManualAnswer): string {
  if (answer.text === "" && answer.calls.length === 0) return "";
  return JSON.stringify({ text: answer.text, calls: answer.calls });
}

export function readManualAnswer(key: string): ManualAnswer {
  const raw = readText(key);
  return raw === "" ? { text: "", calls: [] } : parseManualAnswer(raw);
}

export function writeManualAnswer(key: string, answer: ManualAnswer): void {
  writeText(key, serializeManualAnswer(answer));
}
