// The optimizer's train/test split (issue 25): stratified by expectation (queries that should trigger
// the skill, and those that should not), shuffled by a seeded generator so a seed always gives the same
// split. Each class gives max(1, floor(size × holdout)) queries to the test set when it has two or more,
// so the test set sees both kinds whenever the file has them and the train set is never emptied.
import type { TriggerQuery } from "./triggers-file.ts";

/** mulberry32: a small, well-known 32-bit PRNG; deterministic for a seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other], copy[index]];
  }
  return copy;
}

export interface Split {
  /** Indexes into the eval's queries, in file order. */
  train: number[];
  test: number[];
}

export function splitQueries(
  queries: readonly TriggerQuery[],
  skill: string,
  holdout: number,
  seed: number,
): Split {
  const random = seededRandom(seed);
  const positives = queries.flatMap((query, index) => (query.expect === skill ? [index] : []));
  const negatives = queries.flatMap((query, index) => (query.expect === skill ? [] : [index]));
  const train: number[] = [];
  const test: number[] = [];
  for (const group of [positives, negatives]) {
    const order = shuffled(group, random);
    const size = group.length < 2 || holdout <= 0 ? 0 : Math.max(1, Math.floor(group.length * holdout));
    test.push(...order.slice(0, size));
    train.push(...order.slice(size));
  }
  const byFile = (left: number, right: number) => left - right;
  return { train: train.sort(byFile), test: test.sort(byFile) };
}
