// What is typed for a pending request or approval, kept under its key (./typed-storage.ts typedKey) so a
// reload of the tab gives it back: an approval card's deny reason, and the manual composer's answer (the
// assistant text and the tool calls added but not yet sent). Only those two lazily loaded components
// import this, so none of it is first-load JS.

export function readText(key: string): string {
  return window.sessionStorage.getItem(key) ?? "";
}

/** Empty text removes the key: nothing is kept for what has nothing typed. */
export function writeText(key: string, text: string): void {
  if (text === "") window.sessionStorage.removeItem(key);
  else window.sessionStorage.setItem(key, text);
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
