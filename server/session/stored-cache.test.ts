// The cache prediction by reference (`cacheRef`, server/protocol/stored-cache.ts): requests resolve to
// exactly what they resolved to when the prediction was stored inline — byte for byte, field order
// included — on the demo session as the version before cacheRef logged it (format 3, inline) and on the
// format-1 and format-2 fixtures (whose snapshots carry the predictions in full); the older logs still
// open as they were written; the shared part travels once; a missing blob gives no prediction.
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BlobStore, RequestReader, type RequestRef } from "../protocol/request-model.ts";
import type { RequestSnapshot, SnapshotCache } from "../protocol/runner-events.ts";
import { cacheOf } from "../protocol/stored-cache.ts";
import type { SessionEvent } from "../protocol/wire.ts";
import { rewriteEvents } from "./request-writer.ts";
import { readSessionLog } from "./session-log.ts";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");

/** The first run of the demo (examples/demo-workdir, scenarios/) as the version before cacheRef logged it. */
const DEMO = path.join(FIXTURES, "format-3-inline-cache.jsonl");

/** Each request of events in wire form, resolved as every reader does, as its JSON text. */
function resolvedTexts(events: readonly SessionEvent[]): string[] {
  const reader = new RequestReader();
  return events.flatMap((event) => {
    reader.observe(event);
    return event.type === "request" ? [JSON.stringify(reader.resolve(event.snapshot))] : [];
  });
}

function requestRefs(events: readonly SessionEvent[]): RequestRef[] {
  return events.flatMap((event) => (event.type === "request" ? [event.snapshot] : []));
}

function blobHashes(events: readonly SessionEvent[]): string[] {
  return events.flatMap((event) =>
    "blobs" in event && event.blobs ? event.blobs.map((blob) => blob.hash) : [],
  );
}

/** The bytes of the request records (with the blobs they carry). */
function requestBytes(events: readonly SessionEvent[]): number {
  return events
    .filter((event) => event.type === "request")
    .reduce((sum, event) => sum + Buffer.byteLength(JSON.stringify(event)), 0);
}

describe("cache predictions by reference (cacheRef)", () => {
  it("the demo as logged with inline predictions opens, and written again resolves byte for byte the same", async () => {
    const log = await readSessionLog(DEMO);
    expect(log.warnings).toEqual([]);
    const inline = log.events.map((record) => record.event);
    const inlineRefs = requestRefs(inline);
    expect(inlineRefs).toHaveLength(4);
    for (const ref of inlineRefs) {
      expect(ref.cache?.segments.length).toBeGreaterThan(0);
      expect(ref.cacheRef).toBeUndefined();
    }
    const before = resolvedTexts(inline);
    // The predictions the log holds come back as they are, in their place among the request's fields.
    expect(before.map((text) => (JSON.parse(text) as RequestSnapshot).cache)).toEqual(
      inlineRefs.map((ref) => ref.cache),
    );

    const written = rewriteEvents(log.events, (event) => event).map((record) => record.event);
    const refs = requestRefs(written);
    for (const ref of refs) {
      expect(ref.cache).toBeUndefined();
      expect(ref.cacheRef?.fixed).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(resolvedTexts(written)).toEqual(before);
    // The shared part (model, rules, price row, source, placement note) is one blob, carried once.
    expect(new Set(refs.map((ref) => ref.cacheRef?.fixed)).size).toBe(1);
    const hashes = blobHashes(written);
    expect(new Set(hashes).size).toBe(hashes.length);
    expect(requestBytes(written)).toBeLessThan(requestBytes(inline));
  });

  it("formats 1 and 2 upgrade to cacheRef and resolve to the predictions their snapshots carry, in place", async () => {
    const names = (await readdir(FIXTURES)).filter((name) => /^format-[12]-.*\.jsonl$/.test(name));
    expect(names.length).toBeGreaterThanOrEqual(7);
    let predictions = 0;
    for (const name of names) {
      const raw = (await readFile(path.join(FIXTURES, name), "utf8"))
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { event?: { type: string; snapshot?: { cache?: SnapshotCache } } })
        .flatMap((record) => (record.event?.type === "request" ? [record.event.snapshot?.cache] : []));
      const log = await readSessionLog(path.join(FIXTURES, name));
      expect(log.warnings, name).toEqual([]);
      const events = log.events.map((record) => record.event);
      const refs = requestRefs(events);
      expect(refs, name).toHaveLength(raw.length);
      // Before: each ref with the fixture's prediction inline in the place cacheRef has (the form the
      // writer gave before cacheRef); after: the ref as upgraded. The same request, byte for byte.
      // A format-2 log as logged may name a part of a prediction by `$sameAs` (the upgrade resolves it):
      // those requests are compared in their exported twin, which holds every prediction in full.
      const whole = raw.map((cache) => !JSON.stringify(cache ?? null).includes('"$sameAs"'));
      const inline = events.flatMap((event): SessionEvent[] => {
        if (event.type !== "request") return [event];
        const index = refs.indexOf(event.snapshot);
        if (!whole[index]) return [];
        const fields = Object.entries(event.snapshot).flatMap(([key, value]) =>
          key === "cacheRef" ? (raw[index] ? [["cache", raw[index]]] : []) : [[key, value]],
        );
        return [{ ...event, snapshot: Object.fromEntries(fields) as RequestRef }];
      });
      const after = resolvedTexts(events);
      expect(
        after.filter((_text, index) => whole[index]),
        name,
      ).toEqual(resolvedTexts(inline));
      for (const [index, ref] of refs.entries()) {
        expect(ref.cache, name).toBeUndefined();
        expect(ref.cacheRef !== undefined, name).toBe(raw[index] !== undefined);
        if (raw[index] && whole[index]) predictions++;
      }
    }
    expect(predictions).toBeGreaterThanOrEqual(14);
  });

  it("gives no prediction when its shared part is missing, and the ref's own `cache` over its reference", async () => {
    const log = await readSessionLog(DEMO);
    const written = rewriteEvents(log.events, (event) => event).map((record) => record.event);
    const ref = requestRefs(written)[0];
    const empty = new BlobStore();
    expect(cacheOf(ref, empty)).toBeUndefined();
    const reader = new RequestReader();
    for (const event of written) reader.observe(event);
    const full = cacheOf(ref, reader.blobs);
    expect(full?.model).toBe("claude-sonnet-4-5");
    // The pages replace a prediction after "cache as" (cache_repredicted) by setting `cache` on the ref.
    const repredicted = { ...full!, model: "gpt-5.4-mini" };
    const replaced = { ...ref, cache: repredicted };
    expect(cacheOf(replaced, reader.blobs)).toBe(repredicted);
    const resolved = reader.resolve(replaced);
    expect(resolved.cache).toBe(repredicted);
    expect(Object.keys(resolved).indexOf("cache")).toBe(Object.keys(ref).indexOf("cacheRef"));
  });
});
