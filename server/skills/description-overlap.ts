// Two skills whose descriptions say nearly the same thing compete for the same requests: the model (or the
// router) cannot tell which to load. This finds such pairs by word similarity (Jaccard over the content
// words of description + when_to_use) and names them: one note per skill at most, naming the skill it
// overlaps most with (and how many others it also overlaps with), so a catalog of look-alike skills gets
// a bounded list, not one note per pair. A pair that is each other's closest gets one note, on the first.
import type { LintNote, Skill } from "./types.ts";
import { indexDescription } from "./types.ts";

/** Share of distinct content words two descriptions must have in common to be reported. */
export const OVERLAP_THRESHOLD = 0.6;
/** Fewer content words than this say too little to compare. */
const MIN_WORDS = 4;

/** Words that carry no topic (English function words and the words every description uses). */
const STOP_WORDS = new Set(
  (
    "a an and are as at be by for from has have in into is it its of on or that the this to was were will with " +
    "use used using when whenever user users asks ask wants want need needs skill skills file files any all " +
    "you your can do does not no yes if than then them they their there these those which who what how"
  ).split(" "),
);

function contentWords(text: string): string[] {
  const words = new Set<string>();
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}][\p{L}\p{N}_-]*/gu)) {
    const word = match[0];
    if (word.length >= 3 && !STOP_WORDS.has(word)) words.add(word);
  }
  return [...words];
}

/** Shared entries of two ascending id arrays (a merge, no allocation). */
function sharedCount(left: Uint32Array, right: Uint32Array): number {
  let shared = 0;
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    if (left[i] === right[j]) {
      shared += 1;
      i += 1;
      j += 1;
    } else if (left[i]! < right[j]!) i += 1;
    else j += 1;
  }
  return shared;
}

/** Two skills whose descriptions reach the threshold; `first` sorts before `second` by name. */
export interface OverlappingPair {
  first: Skill;
  second: Skill;
  similarity: number;
}

interface Closest {
  other: Skill;
  similarity: number;
  /** How many skills reach the threshold with this one. */
  count: number;
}

/**
 * Every pair of `skills` whose descriptions share at least OVERLAP_THRESHOLD of their content words.
 * Candidate pairs come from a prefix filter (the standard set-similarity join): with every word set
 * ordered rarest word first, two sets reaching the threshold must share a word among the first
 * |set| − ⌈threshold·|set|⌉ + 1 of each, so only pairs sharing such a word are compared, by a merge of
 * ascending arrays. A catalog of 1,000 skills costs milliseconds, not a million comparisons.
 */
export function overlappingPairs(skills: readonly Skill[]): OverlappingPair[] {
  const vocabulary = new Map<string, number>();
  const described = [...skills]
    .sort((a, b) => (a.meta.name < b.meta.name ? -1 : a.meta.name > b.meta.name ? 1 : 0))
    .map((skill) => ({
      skill,
      words: contentWords(indexDescription(skill.meta)).map((word) => {
        let id = vocabulary.get(word);
        if (id === undefined) {
          id = vocabulary.size;
          vocabulary.set(word, id);
        }
        return id;
      }),
    }))
    .filter((entry) => entry.words.length >= MIN_WORDS);
  // Rank words rarest first, so prefixes hold the words that tell skills apart.
  const frequency = new Uint32Array(vocabulary.size);
  for (const entry of described) for (const id of entry.words) frequency[id]! += 1;
  const order = [...frequency.keys()].sort((a, b) => frequency[a]! - frequency[b]! || a - b);
  const rank = new Uint32Array(vocabulary.size);
  order.forEach((id, position) => (rank[id] = position));
  const entries = described.map((entry) => ({
    skill: entry.skill,
    ids: Uint32Array.from(entry.words.map((id) => rank[id]!)).sort(),
  }));

  const pairs: OverlappingPair[] = [];
  const prefixLength = (size: number) => size - Math.ceil(OVERLAP_THRESHOLD * size - 1e-9) + 1;
  const postings = new Map<number, number[]>();
  const seenBy = new Int32Array(entries.length).fill(-1);
  for (let index = 0; index < entries.length; index++) {
    const left = entries[index]!.ids;
    const prefix = prefixLength(left.length);
    for (let position = 0; position < prefix; position++) {
      for (const other of postings.get(left[position]!) ?? []) {
        if (seenBy[other] === index) continue;
        seenBy[other] = index;
        const right = entries[other]!.ids;
        // Jaccard reaches the threshold only when the smaller set is at least that share of the larger.
        const small = Math.min(left.length, right.length);
        if (small < OVERLAP_THRESHOLD * Math.max(left.length, right.length)) continue;
        const shared = sharedCount(left, right);
        const similarity = shared / (left.length + right.length - shared);
        if (similarity < OVERLAP_THRESHOLD) continue;
        pairs.push({ first: entries[other]!.skill, second: entries[index]!.skill, similarity });
      }
    }
    for (let position = 0; position < prefix; position++) {
      const list = postings.get(left[position]!);
      if (list) list.push(index);
      else postings.set(left[position]!, [index]);
    }
  }
  return pairs;
}

/**
 * One `description-overlap` note per skill at most, naming the skill it overlaps most with (ties: the
 * first by name) and how many others it also overlaps with; a pair that is each other's closest is
 * named once, on the first of the two by name.
 */
export function overlapNotes(skills: readonly Skill[]): LintNote[] {
  const closest = new Map<Skill, Closest>();
  const record = (skill: Skill, other: Skill, similarity: number) => {
    const known = closest.get(skill);
    if (!known) closest.set(skill, { other, similarity, count: 1 });
    else {
      known.count += 1;
      if (
        similarity > known.similarity ||
        (similarity === known.similarity && other.meta.name < known.other.meta.name)
      )
        Object.assign(known, { other, similarity });
    }
  };
  for (const pair of overlappingPairs(skills)) {
    record(pair.first, pair.second, pair.similarity);
    record(pair.second, pair.first, pair.similarity);
  }
  const notes: LintNote[] = [];
  const byName = [...closest.entries()].sort(([a], [b]) => (a.meta.name < b.meta.name ? -1 : 1));
  for (const [skill, best] of byName) {
    if (closest.get(best.other)?.other === skill && best.other.meta.name < skill.meta.name) continue;
    const others = best.count - 1;
    notes.push({
      skill: skill.meta.name,
      path: skill.entryPath,
      rule: "description-overlap",
      profile: "playground",
      level: "warning",
      message:
        `description overlaps strongly with "${best.other.meta.name}" (${Math.round(best.similarity * 100)}% of ` +
        `their content words are shared${others > 0 ? `; and with ${others} other skill${others === 1 ? "" : "s"}` : ""}): ` +
        "the model cannot tell which to load; say what sets each apart",
    });
  }
  return notes;
}
