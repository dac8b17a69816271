// Notes on an eval file itself (issue 25). skill-creator's guidance: about half the queries should be
// near-miss negatives — queries that sound like the skill but should not load it. A negative that shares
// no word with any description (router-terms.ts: stems, stop words removed) tests nothing: a description
// that fires on every message would still pass it. Such a file is measured anyway, with a note.
import { sharedTerms } from "../providers/router-terms.ts";
import type { PromptItem } from "../skills/types.ts";
import { EXPECT_NONE, type TriggerQuery } from "./triggers-file.ts";

/** Negatives sharing at least one word with a description: of the skill they avoid, else of any skill. */
export function nearMissNegatives(
  queries: readonly TriggerQuery[],
  items: readonly PromptItem[],
): TriggerQuery[] {
  return queries.filter((query) => {
    if (query.expect !== EXPECT_NONE) return false;
    const against = query.avoid ? items.filter((item) => item.name === query.avoid) : items;
    return against.some((item) => sharedTerms(query.query, item.description).length > 0);
  });
}

export function evalNotes(queries: readonly TriggerQuery[], items: readonly PromptItem[]): string[] {
  const negatives = queries.filter((query) => query.expect === EXPECT_NONE);
  if (negatives.length === 0) {
    return [
      "no negative queries: nothing shows a description triggering where it should not; add near-miss negatives (queries that sound like the skill but should not load it — about half the set, as skill-creator advises)",
    ];
  }
  if (nearMissNegatives(queries, items).length === 0) {
    return [
      `no near-miss negatives: none of the ${negatives.length} negative(s) shares a word with a skill's description, so a description that fires on every message would still pass them; add negatives that sound like the skill but should not load it`,
    ];
  }
  return [];
}
