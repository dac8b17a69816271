// The description router's decision for one model request (issue 25): the offline `router` provider is
// not a language model; it scores every index line of the stable system against the user's message and
// loads the best skill above a threshold. The decision travels on `provider_payload` as `routing`, so the
// inspector can say, per request, why this skill (and not another) was loaded.

export const ROUTER_LABEL = "description router — not a language model";

/** One word of the message that a description also has, and what it added to that skill's score. */
export interface RoutingTerm {
  term: string;
  weight: number;
}

export interface RoutingScore {
  skill: string;
  /** BM25 over the description's words, plus the name bonus when the message names the skill in full. */
  score: number;
  terms: RoutingTerm[];
  /** The message names the skill (its whole name, e.g. "csv-report"). */
  named: boolean;
}

export interface RoutingDecision {
  label: typeof ROUTER_LABEL;
  /** How the scores are made, in one sentence (shown with them). */
  method: string;
  threshold: number;
  /** The message's words as scored (lower-case stems, stop words removed). */
  queryTerms: string[];
  /** Every listed skill, best first (ties by name). */
  scores: RoutingScore[];
  /** The skill loaded, or null when none reached the threshold (or the best one is already active). */
  chosen: string | null;
  /** Why, in one sentence. */
  reason: string;
}
