// Records in order of arrival, by key: the store's one collection. A session's turns, tool calls and
// requests only grow, and an event changes one record (a text delta, a call's state, a request's usage),
// so the collection is persistent and chunked: changing a record copies its chunk (at most CHUNK
// entries) and the list of chunks, never the whole collection, and every record not changed keeps its
// identity (a memoised row sees the same props). Pure, like the reducer: nothing here mutates a value a
// state holds, except `positions`, which only learns keys and is checked before it is believed.
const CHUNK = 64;

export interface Records<T> {
  readonly size: number;
  readonly chunks: readonly (readonly T[])[];
  readonly keyOf: (item: T) => string;
  /**
   * Where a key was appended. Shared by every version grown from the same list (a key's position never
   * changes in an append-only list); a version that does not hold that position, or holds another key
   * there (two versions grown apart, React's strict mode), falls back to a scan. Every key any version
   * ever held is in it (appends and replacements add theirs), so a key it does not know is in no version:
   * appending a new record costs no scan (a reopened session's replay appends thousands).
   */
  readonly positions: Map<string, number>;
}

export function emptyRecords<T>(keyOf: (item: T) => string): Records<T> {
  return { size: 0, chunks: [], keyOf, positions: new Map() };
}

export function recordsOf<T>(keyOf: (item: T) => string, items: readonly T[]): Records<T> {
  const chunks: T[][] = [];
  const positions = new Map<string, number>();
  items.forEach((item, index) => {
    if (index % CHUNK === 0) chunks.push([]);
    chunks[chunks.length - 1].push(item);
    positions.set(keyOf(item), index);
  });
  return { size: items.length, chunks, keyOf, positions };
}

export function at<T>(records: Records<T>, index: number): T | undefined {
  if (index < 0 || index >= records.size) return undefined;
  return records.chunks[Math.floor(index / CHUNK)][index % CHUNK];
}

export function last<T>(records: Records<T>): T | undefined {
  return at(records, records.size - 1);
}

/** The position of the record with this key, or -1. */
export function positionOf<T>(records: Records<T>, key: string): number {
  const known = records.positions.get(key);
  if (known === undefined) return -1;
  if (known < records.size && records.keyOf(at(records, known)!) === key) return known;
  for (let index = records.size - 1; index >= 0; index--)
    if (records.keyOf(at(records, index)!) === key) return index;
  return -1;
}

export function get<T>(records: Records<T>, key: string): T | undefined {
  return at(records, positionOf(records, key));
}

export function has<T>(records: Records<T>, key: string): boolean {
  return positionOf(records, key) >= 0;
}

/** Adds a record at the end (a record with the same key is replaced where it is). */
export function append<T>(records: Records<T>, item: T): Records<T> {
  const key = records.keyOf(item);
  const existing = positionOf(records, key);
  if (existing >= 0) return replaceAt(records, existing, item);
  const index = records.size;
  const chunks = records.chunks.slice();
  if (index % CHUNK === 0) chunks.push([item]);
  else chunks[chunks.length - 1] = [...chunks[chunks.length - 1], item];
  records.positions.set(key, index);
  return { ...records, size: index + 1, chunks };
}

export function replaceAt<T>(records: Records<T>, index: number, item: T): Records<T> {
  const current = at(records, index);
  if (current === undefined || current === item) return records;
  // A replacement may carry another key (it then stands where the old one did): positions learns it.
  const key = records.keyOf(item);
  if (!records.positions.has(key)) records.positions.set(key, index);
  const chunk = Math.floor(index / CHUNK);
  const chunks = records.chunks.slice();
  const changed = chunks[chunk].slice();
  changed[index % CHUNK] = item;
  chunks[chunk] = changed;
  return { ...records, chunks };
}

/** Changes the record with this key (nothing when there is none, or when `change` returns it as it was). */
export function update<T>(records: Records<T>, key: string, change: (item: T) => T): Records<T> {
  const index = positionOf(records, key);
  return index < 0 ? records : replaceAt(records, index, change(at(records, index)!));
}

/** Changes every record `change` returns anew for; chunks with no change are kept. */
export function updateWhere<T>(records: Records<T>, change: (item: T) => T): Records<T> {
  let chunks: (readonly T[])[] | undefined;
  records.chunks.forEach((chunk, chunkIndex) => {
    let copy: T[] | undefined;
    chunk.forEach((item, index) => {
      const next = change(item);
      if (next === item) return;
      const key = records.keyOf(next);
      if (!records.positions.has(key)) records.positions.set(key, chunkIndex * CHUNK + index);
      copy ??= chunk.slice();
      copy[index] = next;
    });
    if (!copy) return;
    chunks ??= records.chunks.slice();
    chunks[chunkIndex] = copy;
  });
  return chunks ? { ...records, chunks } : records;
}

export function findLast<T>(records: Records<T>, test: (item: T) => boolean): T | undefined {
  for (let index = records.size - 1; index >= 0; index--) {
    const item = at(records, index)!;
    if (test(item)) return item;
  }
  return undefined;
}

export function some<T>(records: Records<T>, test: (item: T) => boolean): boolean {
  return records.chunks.some((chunk) => chunk.some(test));
}

const arrays = new WeakMap<Records<unknown>, unknown[]>();

/** The records as one array, made once per version (for views that want a plain list). */
export function toArray<T>(records: Records<T>): T[] {
  let known = arrays.get(records as Records<unknown>) as T[] | undefined;
  if (!known) {
    known = records.chunks.flat() as T[];
    arrays.set(records as Records<unknown>, known);
  }
  return known;
}
