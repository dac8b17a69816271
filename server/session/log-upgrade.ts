// Reading a session log as format 3, whatever wrote it: the one upgrade step (request-model.ts, design
// note). Events of logs written before format 3 — format 1 (`$historyPrefix` references, assistant
// messages twice), format 2 (`historyLength`, repeated parts as `{"$sameAs": seq}`, payloads as
// `{"$previousPayload": seq}` deltas), and both as exported (everything in full) — have their references
// resolved in log order, console calls their marker and messages their figures, and are then written by
// the RequestWriter a live session uses. Format 3 events pass through; their blobs are checked against
// their hashes. A log continued by a newer version holds both kinds, in order, and reads the same way.
// Whatever a damaged log cannot restore is named (file, seq, what) and shows as missing.
import type { ChatMessage } from "../protocol/model.ts";
import { BlobStore, blobsOf, frameOf, type Blob, type RequestRef } from "../protocol/request-model.ts";
import type { SessionEvent } from "../protocol/wire.ts";
import { sha256Hex } from "../prompt/hash.ts";
import { TokenCounter } from "../prompt/segments.ts";
import { RequestWriter, type SnapshotInput, type StreamInput } from "./request-writer.ts";

/** A record's event as it was stored (an older format's shapes included). */
export interface StoredRecord {
  seq: number;
  event: SessionEvent;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function integerAt(value: unknown, key: string): number | undefined {
  return isObject(value) && Number.isInteger(value[key]) ? (value[key] as number) : undefined;
}

/** Before the console marker, a tool-console call's events were known by this runId prefix alone. */
const LEGACY_CONSOLE_RUN_PREFIX = "console_";

function withConsoleMarker(event: SessionEvent): SessionEvent {
  if (event.type === "tool_console_result")
    return event.runId === undefined
      ? { ...event, runId: `${LEGACY_CONSOLE_RUN_PREFIX}${event.requestId}` }
      : event;
  if (
    event.type !== "manual_turn_requested" &&
    "runId" in event &&
    event.console === undefined &&
    typeof event.runId === "string" &&
    event.runId.startsWith(LEGACY_CONSOLE_RUN_PREFIX)
  )
    return { ...event, console: true };
  return event;
}

/** Snapshot parts format 2 stored as `{"$sameAs": seq}` when they repeated the record at that seq. */
const REPEATED_PARTS = [
  ["system", "stable"],
  ["system", "environment"],
  ["tools"],
  ["segments"],
  ["listedSkills"],
  ["cache", "price"],
  ["cache", "source"],
] as const;

/** What a part reads as when the record it repeats could not be read. */
function emptyPart(path: readonly string[]): unknown {
  if (path[0] === "cache") return path[1] === "source" ? "" : undefined;
  return path[0] === "system" ? "" : [];
}

/**
 * Format 1 and 2 references in one old snapshot, resolved against what was read before it (`parts`:
 * each repeated part as last stored in full, with its seq; `history`: the conversation so far).
 */
function resolveOldSnapshot(
  stored: JsonObject,
  seq: number,
  parts: Map<string, { seq: number; value: unknown }>,
  history: readonly ChatMessage[],
  warn: (message: string) => void,
): SnapshotInput {
  const snapshot: JsonObject = { ...stored, system: { ...(stored.system as JsonObject) } };
  if (isObject(stored.cache)) snapshot.cache = { ...stored.cache };
  for (const path of REPEATED_PARTS) {
    const owner = path.length === 2 ? (snapshot[path[0]] as JsonObject | undefined) : snapshot;
    const key = path[path.length - 1];
    if (!owner || owner[key] === undefined) continue;
    const name = path.join(".");
    const reference = integerAt(owner[key], "$sameAs");
    if (reference === undefined) {
      parts.set(name, { seq, value: owner[key] });
      continue;
    }
    const last = parts.get(name);
    if (last?.seq !== reference)
      warn(
        `the request snapshot at seq ${seq} repeats "${path.at(-1)}" from seq ${reference}, which could ` +
          `not be read; it shows ${last ? `the one from seq ${last.seq}` : "nothing"}`,
      );
    owner[key] = last?.value ?? emptyPart(path);
    if (owner[key] === undefined) delete owner[key];
  }
  // Format 1 named the conversation prefix inside `messages`; format 2 by `historyLength`.
  const prefix = integerAt(snapshot.messages, "$historyPrefix");
  if (prefix !== undefined) {
    delete snapshot.messages;
    snapshot.historyLength = prefix;
  }
  const length = snapshot.historyLength;
  if (snapshot.messages === undefined && typeof length === "number" && length > history.length) {
    warn(
      `the request snapshot at seq ${seq} refers to the first ${length} conversation messages, but only ` +
        `${history.length} could be read before it; it shows those`,
    );
    snapshot.historyLength = history.length;
  }
  return snapshot as unknown as SnapshotInput;
}

/** A format 2 payload stored relative to the previous one, given that one as read (already expanded). */
function resolveOldPayload(
  compact: JsonObject,
  previous: { seq: number; payload: unknown } | undefined,
  seq: number,
  warn: (message: string) => void,
): JsonObject {
  const wanted = compact.$previousPayload as number;
  const before = previous?.seq === wanted && isObject(previous.payload) ? previous.payload : undefined;
  const payload: JsonObject = {};
  const missing: string[] = [];
  for (const [key, stored] of Object.entries(compact)) {
    if (key === "$previousPayload") continue;
    if (isObject(stored) && stored.$same === true) {
      if (before && key in before) payload[key] = before[key];
      else missing.push(key);
    } else if (isObject(stored) && Number.isInteger(stored.$prefix) && Array.isArray(stored.rest)) {
      const old = before?.[key];
      if (!Array.isArray(old)) missing.push(key);
      payload[key] = [...(Array.isArray(old) ? old.slice(0, stored.$prefix as number) : []), ...stored.rest];
    } else payload[key] = stored;
  }
  if (missing.length > 0)
    warn(
      `the provider payload at seq ${seq} repeats ${missing.map((key) => `"${key}"`).join(", ")} of the ` +
        `payload at seq ${wanted}, which could not be read`,
    );
  return payload;
}

type SnapshotEvent = Extract<SessionEvent, { type: "request" | "manual_turn_requested" }>;

/** A request or manual turn as a version before format 3 stored it (its snapshot in full). */
function isOldRequest(event: SessionEvent): event is SnapshotEvent {
  return (
    (event.type === "request" || event.type === "manual_turn_requested") &&
    !("frame" in (event.snapshot as object))
  );
}

/** A format 3 blob whose content is what its hash names. */
function blobHolds(blob: Blob): boolean {
  return sha256Hex("text" in blob ? blob.text : JSON.stringify(blob.json)) === blob.hash;
}

/** The hashes a wire event refers to (a request's frame and parts, a payload's lists). */
function referencedBlobs(event: SessionEvent, blobs: BlobStore): string[] {
  if (event.type === "request" || event.type === "manual_turn_requested") {
    return blobsOf(event.snapshot as RequestRef, blobs);
  }
  if (event.type !== "provider_payload") return [];
  const stored = blobs.json(event.hash);
  if (!isObject(stored)) return [event.hash];
  const hashes = [event.hash];
  for (const list of Object.values(isObject(stored.lists) ? stored.lists : {})) {
    for (let next: unknown = list; typeof next === "string"; next = (blobs.json(next) as JsonObject)?.after) {
      hashes.push(next);
      if (!blobs.has(next)) break;
    }
  }
  return hashes;
}

/**
 * Brings the records' events to format 3, in place, and returns one warning per problem (the file, the
 * seq and what could not be read).
 */
export function upgradeLoggedEvents(records: StoredRecord[], path: string): string[] {
  const warnings: string[] = [];
  // The upgrade's own counter: figures of one old log, counted once per content while it is read.
  const tokens = new TokenCounter();
  const writer = new RequestWriter({ recomputeHashes: true, tokens });
  const blobs = new BlobStore();
  const history: ChatMessage[] = [];
  const parts = new Map<string, { seq: number; value: unknown }>();
  let previousPayload: { seq: number; payload: unknown } | undefined;
  const warn = (message: string) => warnings.push(`${path}: ${message}`);
  for (const record of records) {
    let event = withConsoleMarker(record.event);
    if ("blobs" in event && event.blobs) {
      const held = event.blobs.filter(blobHolds);
      if (held.length < event.blobs.length) {
        warn(
          `${event.blobs.length - held.length} blob(s) at seq ${record.seq} do not match their sha256; ` +
            "what refers to them shows as missing",
        );
        event = { ...event, blobs: held } as SessionEvent;
      }
    }
    let input: StreamInput = event;
    if (event.type === "history_appended") {
      history.push(event.message);
      // Before format 3 the log did not store figures: they are counted again (once per content).
      const figures = event.figures ?? tokens.figuresOnAppend(event.message);
      if (figures && !event.figures) input = { ...event, figures };
    } else if (isOldRequest(event)) {
      input = {
        ...event,
        snapshot: resolveOldSnapshot(
          event.snapshot as unknown as JsonObject,
          record.seq,
          parts,
          history,
          warn,
        ),
      } as StreamInput;
    } else if (event.type === "provider_payload" && !("hash" in event)) {
      // Before format 3 a payload was stored in the event itself (`payload`), not by hash.
      const old = event as unknown as JsonObject;
      const stored = old.payload;
      const payload =
        integerAt(stored, "$previousPayload") !== undefined
          ? resolveOldPayload(stored as JsonObject, previousPayload, record.seq, warn)
          : stored;
      previousPayload = { seq: record.seq, payload };
      input = { ...old, payload } as unknown as StreamInput;
    }
    const encoded = writer.encode(input);
    encoded.commit();
    record.event = encoded.event;
    if ("blobs" in record.event) blobs.add(record.event.blobs);
    const missing = referencedBlobs(record.event, blobs).filter((hash) => !blobs.has(hash));
    if (missing.length > 0)
      warn(
        `the ${record.event.type.replace(/_/g, " ")} at seq ${record.seq} refers to ${missing.length} ` +
          `blob(s) the log does not hold (first sha256 ${missing[0].slice(0, 12)}…); they show as missing`,
      );
  }
  return warnings;
}
