// Request snapshots repeat most of the request before them, so a session log that stored each one in
// full would grow with the square of its length. Since log format 2 a snapshot refers to the
// conversation by `historyLength` (the first n messages of the log's `history_appended` records; see
// conversation-references.ts), and the system prompt parts, the tool definitions, the skill index names
// and the segments, repeated unchanged by most requests, are stored as `{"$sameAs": seq}` of the record that has them in
// full. Provider payloads are stored relative to the previous one (payload-compaction.ts).
// Older logs stay readable: format 1 stored a snapshot's `messages` as `{"$historyPrefix": n}`, which
// reading turns into `historyLength: n`; logs before that hold full messages, which are kept as they are
// (a valid form still: isolated slash runs write it). Browsers always get the expanded records; an
// exported log gets every snapshot's messages in full.
import type { ChatMessage } from "../protocol/model.ts";
import type { RequestSnapshot } from "../protocol/runner-events.ts";
import type { SessionEvent } from "../protocol/wire.ts";
import {
  PREVIOUS_PAYLOAD_KEY,
  compactPayload,
  expandPayload,
  isCompactPayload,
} from "./payload-compaction.ts";
import { figuresOnAppend } from "../prompt/segments.ts";
import { sameJson } from "./same-json.ts";

/** Format 1's reference to the conversation (read, no longer written). */
export const HISTORY_PREFIX_KEY = "$historyPrefix";
/** The snapshot field that refers to the conversation since format 2. */
const HISTORY_LENGTH_KEY = "historyLength";
/** `{"$sameAs": seq}`: the same value as in the snapshot logged at that seq. */
export const SAME_AS_KEY = "$sameAs";

interface HistoryPrefixReference {
  [HISTORY_PREFIX_KEY]: number;
}

interface SameAsReference {
  [SAME_AS_KEY]: number;
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

/**
 * Parts of a snapshot that stay the same from one request to the next until skills or the catalog change
 * (and the cache prediction's price row and source, the same for every request of a model).
 */
const REPEATED_FIELDS = [
  "stable",
  "environment",
  "tools",
  "segments",
  "listedSkills",
  "cachePrice",
  "cacheSource",
] as const;
type RepeatedField = (typeof REPEATED_FIELDS)[number];

function fieldOf(snapshot: RequestSnapshot, field: RepeatedField): unknown {
  if (field === "tools") return snapshot.tools;
  if (field === "segments") return snapshot.segments;
  if (field === "listedSkills") return snapshot.listedSkills;
  if (field === "cachePrice") return snapshot.cache?.price;
  if (field === "cacheSource") return snapshot.cache?.source;
  return snapshot.system[field];
}

function setField(snapshot: RequestSnapshot, field: RepeatedField, value: unknown): void {
  if (field === "tools") snapshot.tools = value as RequestSnapshot["tools"];
  else if (field === "segments") snapshot.segments = value as RequestSnapshot["segments"];
  else if (field === "listedSkills") snapshot.listedSkills = value as string[];
  else if (field === "cachePrice" || field === "cacheSource") {
    if (!snapshot.cache) return;
    if (field === "cachePrice")
      snapshot.cache.price = value as NonNullable<RequestSnapshot["cache"]>["price"];
    else snapshot.cache.source = value as string;
  } else snapshot.system[field] = value as string;
}

/** What a field is read as when the record it repeats could not be read. */
function emptyField(field: RepeatedField): unknown {
  if (field === "cachePrice") return undefined;
  return field === "tools" || field === "segments" || field === "listedSkills" ? [] : "";
}

function isSameAsReference(value: unknown): value is SameAsReference {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Number.isInteger((value as Record<string, unknown>)[SAME_AS_KEY])
  );
}

/**
 * The writing side. It compares against the conversation as the log records it (not the session's live
 * history), so a reference always resolves to what a reader of the log will see.
 */
export class SnapshotCompactor {
  /** Each repeated field as last logged in full, with the seq of that record. */
  private readonly lastFull = new Map<RepeatedField, { seq: number; value: unknown }>();
  /** The last provider payload logged (as sent, not its compact form). */
  private lastPayload: { seq: number; payload: unknown } | undefined;

  /** Call with every event that is written to the log, in order (after `compactJson` for the same event). */
  observe(_event: SessionEvent): void {
    // Nothing to track since format 2: the session itself refers snapshots to the conversation.
  }

  /**
   * The JSON text to log for an event written with `seq` (snapshots, payloads, a message without its
   * figures); undefined when the event is logged as it is.
   */
  compactJson(event: SessionEvent, seq: number): string | undefined {
    if (event.type === "history_appended" && event.figures) {
      // A message's figures are recomputed when the log is read (cached by content hash), not stored.
      const { figures: _figures, ...rest } = event;
      return JSON.stringify(rest);
    }
    if (event.type === "provider_payload") {
      const compact = compactPayload(event.payload, this.lastPayload);
      this.lastPayload = { seq, payload: event.payload };
      return compact ? JSON.stringify({ ...event, payload: compact }) : undefined;
    }
    if (!carriesSnapshot(event)) return undefined;
    const { snapshot } = event;
    const repeated = (field: RepeatedField): unknown => {
      const value = fieldOf(snapshot, field);
      if (value === undefined) return undefined;
      const last = this.lastFull.get(field);
      if (last && sameJson(last.value, value)) return { [SAME_AS_KEY]: last.seq } satisfies SameAsReference;
      this.lastFull.set(field, { seq, value });
      return value;
    };
    // Spreading keeps every key at its position, so the expanded record is the same JSON text.
    const compact = {
      ...snapshot,
      system: { ...snapshot.system, stable: repeated("stable"), environment: repeated("environment") },
      tools: repeated("tools"),
      listedSkills: repeated("listedSkills"),
      ...(snapshot.segments ? { segments: repeated("segments") } : {}),
      ...(snapshot.cache
        ? {
            cache: {
              ...snapshot.cache,
              ...(snapshot.cache.price ? { price: repeated("cachePrice") } : {}),
              source: repeated("cacheSource"),
            },
          }
        : {}),
    };
    return JSON.stringify({ ...event, snapshot: compact });
  }
}

/**
 * Replaces the references in events read from a log, in log order, with what they stand for (shared,
 * not copied: readers only serialize them). Returns a warning per reference a damaged log cannot
 * resolve exactly; those get the nearest earlier value that was read.
 */
export function expandSnapshotReferences(
  records: { seq: number; event: SessionEvent }[],
  path: string,
): string[] {
  const warnings: string[] = [];
  const history: ChatMessage[] = [];
  const lastFull = new Map<RepeatedField, { seq: number; value: unknown }>();
  let lastPayload: { seq: number; payload: unknown } | undefined;
  for (const { seq, event } of records) {
    if (event.type === "history_appended") {
      history.push(event.message);
      // The log does not store figures: they are counted again (once per content), as on append.
      const figures = event.figures ?? figuresOnAppend(event.message);
      if (figures) event.figures = figures;
      continue;
    }
    if (event.type === "provider_payload") {
      if (isCompactPayload(event.payload)) {
        const expanded = expandPayload(event.payload, lastPayload);
        event.payload = expanded.payload;
        if (expanded.problem)
          warnings.push(`${path}: the provider payload at seq ${seq} ${expanded.problem}`);
      }
      lastPayload = { seq, payload: event.payload };
      continue;
    }
    if (!carriesSnapshot(event)) continue;
    const { snapshot } = event;
    for (const field of REPEATED_FIELDS) {
      const stored = fieldOf(snapshot, field);
      if (stored === undefined) continue;
      if (!isSameAsReference(stored)) {
        lastFull.set(field, { seq, value: stored });
        continue;
      }
      const last = lastFull.get(field);
      if (last?.seq !== stored[SAME_AS_KEY]) {
        warnings.push(
          `${path}: the request snapshot at seq ${seq} repeats "${field}" from seq ${stored[SAME_AS_KEY]}, ` +
            `which could not be read; it shows ${last ? `the one from seq ${last.seq}` : "nothing"}`,
        );
      }
      setField(snapshot, field, last?.value ?? emptyField(field));
    }
    if (snapshot.historyLength !== undefined && snapshot.messages === undefined) {
      if (snapshot.historyLength > history.length) {
        warnings.push(
          `${path}: the request snapshot at seq ${seq} refers to the first ${snapshot.historyLength} ` +
            `conversation messages, but only ${history.length} could be read before it; it shows those`,
        );
        snapshot.historyLength = history.length;
      }
      continue;
    }
    const stored: unknown = snapshot.messages;
    if (!isHistoryReference(stored)) continue;
    const count = stored[HISTORY_PREFIX_KEY];
    if (count > history.length) {
      warnings.push(
        `${path}: the request snapshot at seq ${seq} refers to the first ${count} conversation messages, ` +
          `but only ${history.length} could be read before it; it shows those`,
      );
    }
    // Format 1's reference becomes today's: the messages are the conversation's first n.
    delete snapshot.messages;
    snapshot.historyLength = Math.min(count, history.length);
  }
  return warnings;
}

/**
 * Gives every snapshot that refers to the conversation (`historyLength`) its messages in full, from the
 * records' history_appended events (for an exported log, which is read without this program).
 */
export function expandHistoryReferences(records: { event: SessionEvent }[]): void {
  const history: ChatMessage[] = [];
  for (const { event } of records) {
    if (event.type === "history_appended") history.push(event.message);
    else if (carriesSnapshot(event) && event.snapshot.messages === undefined) {
      const count = event.snapshot.historyLength ?? 0;
      event.snapshot = { ...event.snapshot, messages: history.slice(0, count) };
    }
  }
}

/** True when raw log text may hold a reference (a cheap test before parsing it). */
export function mentionsReference(text: string): boolean {
  return [HISTORY_PREFIX_KEY, SAME_AS_KEY, PREVIOUS_PAYLOAD_KEY, HISTORY_LENGTH_KEY].some((key) =>
    text.includes(`"${key}"`),
  );
}
