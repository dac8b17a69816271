// Two skills whose descriptions say nearly the same thing compete for the same requests: the model (or the
// router) cannot tell which to load. This finds such pairs by word similarity (Jaccard over the content
// words of description + when_to_use) and names both, once per pair.
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

function contentWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}][\p{L}\p{N}_-]*/gu)) {
    const word = match[0];
    if (word.length >= 3 && !STOP_WORDS.has(word)) words.add(word);
  }
  return words;
}

/** |A ∩ B| / |A ∪ B|. */
function jaccard(left: Set<string>, right: Set<string>): number {
  let shared = 0;
  const [small, large] = left.size <= right.size ? [left, right] : [right, left];
  for (const word of small) if (large.has(word)) shared += 1;
  return shared / (left.size + right.size - shared);
}

/**
 * One `description-overlap` note per pair of skills (the offered winners, sorted by name) whose
 * descriptions share at least OVERLAP_THRESHOLD of their content words; the note is on the first of the
 * pair and names the second.
 */
export function overlapNotes(skills: readonly Skill[]): LintNote[] {
  const entries = skills
    .map((skill) => ({ skill, words: contentWords(indexDescription(skill.meta)) }))
    .filter((entry) => entry.words.size >= MIN_WORDS);
  const notes: LintNote[] = [];
  for (let first = 0; first < entries.length; first++) {
    const left = entries[first]!;
    for (let second = first + 1; second < entries.length; second++) {
      const right = entries[second]!;
      // Jaccard can reach the threshold only when the smaller set is at least that share of the larger.
      const sizes = [left.words.size, right.words.size].sort((a, b) => a - b);
      if (sizes[0]! < OVERLAP_THRESHOLD * sizes[1]!) continue;
      const similarity = jaccard(left.words, right.words);
      if (similarity < OVERLAP_THRESHOLD) continue;
      notes.push({
        skill: left.skill.meta.name,
        path: left.skill.entryPath,
        rule: "description-overlap",
        profile: "playground",
        level: "warning",
        message:
          `description overlaps strongly with "${right.skill.meta.name}" (${Math.round(similarity * 100)}% of ` +
          "their content words are shared): the model cannot tell which of the two to load; say what sets each apart",
      });
    }
  }
  return notes;
}
