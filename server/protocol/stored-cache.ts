// A request's cache prediction (`snapshot.cache`, SnapshotCache in runner-events.ts) as the wire and the
// log carry it since log format 3 stores it by reference: `cacheRef` on the RequestRef, in the place the
// prediction had among the snapshot's own fields.
//
//   StoredCache   {fixed, predicted, segments, reasons?, costUsd, diagnostics}
//     fixed       hash of a JSON blob {order, fields}: the prediction's fields that a session's requests
//                 share (model, rules, breakpoints, the price row, the source, the placement note, and any
//                 field a later version adds), with `order`, the prediction's field names in their order,
//                 so the prediction comes back field for field and byte for byte. One blob per session and
//                 "cache as" model, referred to by every request.
//     the rest    the request's own figures as they are (predicted tokens, cost, diagnostics), and the
//                 segments, each with its reason as an index into `reasons`: a request's segments mostly
//                 share one reason ("read: cached by request #11"), which names the request before it, so
//                 the reasons of two requests rarely repeat and a blob per reason would cost more than the
//                 text.
//
// Readers: a ref that carries `cache` (format-3 logs written before `cacheRef`, a prediction the pages
// replaced after "cache as") has it as it is; `cacheRef` is read only without one. A missing `fixed` blob
// (a damaged log) gives no prediction: nothing is invented.
//
// Pure (no Node API, no React): the pages import it as a value (DESIGN.md §2).
import type { CacheSegment, SnapshotCache } from "./runner-events.ts";
import type { Blob, BlobNamer, BlobStore } from "./request-model.ts";

/** A cache segment as stored: its reason as an index into the StoredCache's `reasons`. */
export type StoredCacheSegment = Omit<CacheSegment, "reason"> & { reason: number | string };

/** A cache prediction as stored in a RequestRef (`cacheRef`). */
export interface StoredCache {
  /** Hash of the CacheFixed blob. */
  fixed: string;
  predicted?: SnapshotCache["predicted"];
  segments?: StoredCacheSegment[];
  /** The segments' reasons, each once. */
  reasons?: string[];
  costUsd?: number | null;
  diagnostics?: SnapshotCache["diagnostics"];
}

/** The fields of a prediction a session's requests share, and the prediction's field order (a JSON blob). */
export interface CacheFixed {
  order: string[];
  fields: Record<string, unknown>;
}

/** The fields that are a request's own figures; every other field of a prediction goes in `fixed`. */
const OWN_FIELDS = new Set(["predicted", "segments", "costUsd", "diagnostics"]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A prediction as stored, and the blob it names (its fixed part). */
export function storeCache(cache: SnapshotCache, name: BlobNamer): { stored: StoredCache; blob: Blob } {
  const order: string[] = [];
  const fields: Record<string, unknown> = {};
  const own: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(cache)) {
    if (value === undefined) continue;
    order.push(key);
    if (OWN_FIELDS.has(key)) own[key] = value;
    else fields[key] = value;
  }
  const reasons: string[] = [];
  if (Array.isArray(own.segments))
    own.segments = (own.segments as CacheSegment[]).map((segment) => {
      if (typeof segment.reason !== "string") return segment;
      let index = reasons.indexOf(segment.reason);
      if (index < 0) index = reasons.push(segment.reason) - 1;
      return { ...segment, reason: index };
    });
  const fixed: CacheFixed = { order, fields };
  const blob = name.json(undefined, fixed);
  const stored = { fixed: blob.hash, ...own, ...(reasons.length > 0 ? { reasons } : {}) };
  return { stored: stored as StoredCache, blob };
}

/** Predictions as readers see them, by stored prediction (each is made once). */
const resolvedCaches = new WeakMap<object, SnapshotCache>();

/**
 * The prediction a ref carries: its `cache` as it is, or its `cacheRef` read back (undefined when it has
 * neither, or the fixed blob is missing).
 */
export function cacheOf(
  ref: { cache?: SnapshotCache; cacheRef?: StoredCache },
  blobs: BlobStore,
): SnapshotCache | undefined {
  if (ref.cache !== undefined) return isPrediction(ref.cache) ? ref.cache : undefined;
  const stored: unknown = ref.cacheRef;
  if (!isObject(stored) || typeof stored.fixed !== "string") return undefined;
  const known = resolvedCaches.get(stored);
  if (known) return known;
  const fixed = blobs.json(stored.fixed);
  if (!isObject(fixed) || !Array.isArray(fixed.order) || !isObject(fixed.fields)) return undefined;
  const { fixed: _fixed, reasons: storedReasons, ...own } = stored;
  const reasons = Array.isArray(storedReasons) ? storedReasons : [];
  if (Array.isArray(own.segments))
    own.segments = own.segments.map((segment: unknown) =>
      isObject(segment) && typeof segment.reason === "number"
        ? { ...segment, reason: String(reasons[segment.reason] ?? "") }
        : segment,
    );
  const cache: Record<string, unknown> = {};
  for (const key of fixed.order) {
    if (typeof key !== "string") continue;
    if (key in own) cache[key] = own[key];
    else if (key in fixed.fields) cache[key] = fixed.fields[key];
  }
  // Fields the order does not name (a log edited by hand) still come back, after the others.
  for (const [key, value] of [...Object.entries(fixed.fields), ...Object.entries(own)])
    if (!(key in cache)) cache[key] = value;
  if (!isPrediction(cache)) return undefined;
  resolvedCaches.set(stored, cache);
  return cache;
}

/**
 * Whether a prediction read back from a log is one (THE READ-BACK RULE): a log is a user file, and the
 * log's schema checks none of a prediction's fields, inline or by reference (whose blob only has to match
 * its sha256, which whoever crafted the log computes). The cache model reads `model` as a model's name and
 * `breakpoints` as a mode, and every reader the predicted figures: a prediction without them as such
 * (a number or null for a model) failed every later run of the session. It reads as none (no prediction),
 * as a missing blob does.
 */
function isPrediction(value: unknown): value is SnapshotCache {
  return (
    isObject(value) &&
    typeof value.model === "string" &&
    (value.breakpoints === undefined || value.breakpoints === "stable" || value.breakpoints === "rolling") &&
    isObject(value.predicted)
  );
}
