// Every request snapshot carries the whole conversation so far, so storing each one in full makes a
// session log grow with the square of its length. The log stores a snapshot's `messages` as
// `{"$historyPrefix": n}` when they equal the first n messages of the conversation as the log itself
// recorded it (its `history_appended` records), and reading expands the reference back to the exact
// messages. Snapshots whose messages are something else (an isolated slash run's private history) stay
// in full, and so do logs written before this existed. Browsers always get full snapshots.
import type { ChatMessage } from "../protocol/model.ts";
import type { RequestSnapshot } from "../protocol/runner-events.ts";
import type { SessionEvent } from "../protocol/wire.ts";

export const HISTORY_PREFIX_KEY = "$historyPrefix";

interface HistoryPrefixReference {
  [HISTORY_PREFIX_KEY]: number;
}

type SnapshotEvent = Extract<SessionEvent, { snapshot: RequestSnapshot }>;

function carriesSnapshot(event: SessionEvent): event is SnapshotEvent {
  return event.type === "request" || event.type === "manual_turn_requested";
}

function isHistoryReference(value: unknown): value is HistoryPrefixReference {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Number.isInteger((value as Record<string, unknown>)[HISTORY_PREFIX_KEY])
  );
}

/** Equality as JSON sees it (a property set to undefined is the same as a missing one). */
function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left) && Array.isArray(right)) {
    return left.length === right.length && left.every((item, index) => sameJson(item, right[index]));
  }
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  const leftKeys = Object.keys(leftRecord).filter((key) => leftRecord[key] !== undefined);
  const rightKeys = Object.keys(rightRecord).filter((key) => rightRecord[key] !== undefined);
  return (
    leftKeys.length === rightKeys.length &&
    leftKeys.every((key) => sameJson(leftRecord[key], rightRecord[key]))
  );
}

/**
 * The conversation as the log records it, for the writing side. Compared against these messages rather
 * than the session's live history, a reference always resolves to what a reader of the log will see.
 */
export class LoggedHistory {
  private readonly messages: ChatMessage[] = [];

  /** Call with every event that is written to the log, in order. */
  observe(event: SessionEvent): void {
    if (event.type === "history_appended") this.messages.push(event.message);
  }

  /** The JSON text to log for a snapshot-carrying event whose messages are a prefix, else undefined. */
  compactJson(event: SessionEvent): string | undefined {
    if (!carriesSnapshot(event)) return undefined;
    const { messages } = event.snapshot;
    if (messages.length === 0 || messages.length > this.messages.length) return undefined;
    for (let index = 0; index < messages.length; index++) {
      if (!sameJson(messages[index], this.messages[index])) return undefined;
    }
    // Spreading keeps `messages` at its key position, so the expanded record is the same JSON text.
    const reference: HistoryPrefixReference = { [HISTORY_PREFIX_KEY]: messages.length };
    return JSON.stringify({ ...event, snapshot: { ...event.snapshot, messages: reference } });
  }
}

/**
 * Replaces history references in events read from a log, in log order, with the messages they stand
 * for (shared, not copied: readers only serialize them). Returns a warning per reference that asks for
 * more messages than the log holds (a damaged log); those get the messages that were read.
 */
export function expandHistoryReferences(
  records: { seq: number; event: SessionEvent }[],
  path: string,
): string[] {
  const warnings: string[] = [];
  const history: ChatMessage[] = [];
  for (const { seq, event } of records) {
    if (event.type === "history_appended") {
      history.push(event.message);
      continue;
    }
    if (!carriesSnapshot(event)) continue;
    const stored: unknown = event.snapshot.messages;
    if (!isHistoryReference(stored)) continue;
    const count = stored[HISTORY_PREFIX_KEY];
    if (count > history.length) {
      warnings.push(
        `${path}: the request snapshot at seq ${seq} refers to the first ${count} conversation messages, ` +
          `but only ${history.length} could be read before it; it shows those`,
      );
    }
    event.snapshot.messages = history.slice(0, count);
  }
  return warnings;
}

/** True when a raw log line holds a history reference (cheap test before parsing it). */
export function mentionsHistoryReference(line: string): boolean {
  return line.includes(`"${HISTORY_PREFIX_KEY}"`);
}
