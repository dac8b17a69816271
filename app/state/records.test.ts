// The store's collection: a change copies one chunk, every other record (and chunk) keeps its identity,
// and versions grown apart from one list (React's strict mode runs a reducer twice) stay correct.
import { describe, expect, it } from "vitest";
import {
  append,
  at,
  emptyRecords,
  get,
  positionOf,
  recordsOf,
  toArray,
  update,
  updateWhere,
  type Records,
} from "./records.ts";

interface Item {
  id: string;
  value: number;
}
const key = (item: Item) => item.id;

function many(count: number): Records<Item> {
  let list = emptyRecords(key);
  for (let index = 0; index < count; index++) list = append(list, { id: `i${index}`, value: index });
  return list;
}

describe("records", () => {
  it("keeps arrival order and finds records by key", () => {
    const list = many(200);
    expect(list.size).toBe(200);
    expect(toArray(list).map((item) => item.value)).toEqual(Array.from({ length: 200 }, (_u, i) => i));
    expect(get(list, "i137")).toEqual({ id: "i137", value: 137 });
    expect(get(list, "nope")).toBeUndefined();
  });

  it("an update copies only the chunk that holds the record: other chunks and records are the same objects", () => {
    const list = many(300);
    const changed = update(list, "i299", (item) => ({ ...item, value: -1 }));
    expect(get(changed, "i299")?.value).toBe(-1);
    expect(get(list, "i299")?.value).toBe(299); // the old version is untouched
    const sameChunks = changed.chunks.filter((chunk, index) => chunk === list.chunks[index]).length;
    expect(sameChunks).toBe(list.chunks.length - 1);
    for (let index = 0; index < 299; index++) expect(at(changed, index)).toBe(at(list, index));
  });

  it("an update that changes nothing returns the same version", () => {
    const list = many(10);
    expect(update(list, "i3", (item) => item)).toBe(list);
    expect(update(list, "missing", (item) => ({ ...item, value: 0 }))).toBe(list);
    expect(updateWhere(list, (item) => item)).toBe(list);
  });

  it("updateWhere keeps the chunks where nothing changed", () => {
    const list = many(200);
    const changed = updateWhere(list, (item) => (item.value >= 190 ? { ...item, value: 0 } : item));
    expect(changed.chunks[0]).toBe(list.chunks[0]);
    expect(changed.chunks[3]).not.toBe(list.chunks[3]);
    expect(toArray(changed).filter((item) => item.value === 0)).toHaveLength(11);
  });

  it("two versions grown apart from one list each find their own records", () => {
    const base = many(5);
    const left = append(base, { id: "left", value: 1 });
    const right = append(base, { id: "right", value: 2 });
    expect(get(left, "left")?.value).toBe(1);
    expect(get(right, "right")?.value).toBe(2);
    expect(get(left, "right")).toBeUndefined();
    expect(get(base, "left")).toBeUndefined();
    expect(positionOf(right, "right")).toBe(5);
  });

  it("a record replaced by one with another key is found by its new key, and the old key is gone", () => {
    const list = many(100);
    const renamed = update(list, "i70", (item) => ({ ...item, id: "renamed" }));
    expect(positionOf(renamed, "renamed")).toBe(70);
    expect(get(renamed, "i70")).toBeUndefined();
    const swept = updateWhere(list, (item) => (item.id === "i3" ? { id: "swept", value: 3 } : item));
    expect(get(swept, "swept")?.value).toBe(3);
    expect(positionOf(list, "swept")).toBe(-1);
  });

  it("appending a known key replaces that record where it is", () => {
    const list = append(many(3), { id: "i1", value: 10 });
    expect(toArray(list).map((item) => item.value)).toEqual([0, 10, 2]);
  });

  it("the array view is made once per version", () => {
    const list = recordsOf(key, [{ id: "a", value: 1 }]);
    expect(toArray(list)).toBe(toArray(list));
  });
});
