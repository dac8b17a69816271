// The description router's scoring (pure). Each index line of the stable system is a document: its
// description's words (router-terms.ts). The user's message is the query. A skill's score is Okapi BM25
// (k1 1.2, b 0.75) over those words, plus the threshold itself when the message names the skill in full
// (an explicit request). The inverse document frequency counts BACKGROUND_LINES more lines that share no
// word with the index, so a workspace with one skill still scores its words: plain BM25 would give a word
// that every line has (and so the only line's words) almost no weight.
import { ROUTER_LABEL, type RoutingDecision, type RoutingScore } from "../protocol/routing.ts";
import { terms } from "./router-terms.ts";

export const K1 = 1.2;
export const B = 0.75;
export const BACKGROUND_LINES = 8;
/** The score a skill must reach to be loaded: about two distinctive words, or the skill's full name. */
export const DEFAULT_THRESHOLD = 3;

export interface IndexEntry {
  name: string;
  description: string;
}

export const ROUTER_METHOD = `BM25 (k1 ${K1}, b ${B}) of the message's words against each description's, idf as if ${BACKGROUND_LINES} more unrelated lines were listed; naming a skill in full adds the threshold`;

/**
 * The skills index as the model reads it: progressive lines `- name: description` (a budget-trimmed line
 * may be `- name` alone) under "Available skills:", or eager `<skill name="…">` blocks with the
 * description on their first line. Nothing else of the prompt is read.
 */
export function parseIndex(stable: string): IndexEntry[] {
  const known = parsedIndexes.get(stable);
  if (known) return known;
  const entries = readIndex(stable);
  // A lab sends the same stable system many times: it is read once (a few, in case of A/B sides).
  if (parsedIndexes.size >= 8) parsedIndexes.clear();
  parsedIndexes.set(stable, entries);
  return entries;
}

const parsedIndexes = new Map<string, IndexEntry[]>();

function readIndex(stable: string): IndexEntry[] {
  const lines = stable.split("\n");
  const start = lines.indexOf("Available skills:");
  if (start !== -1) {
    const entries: IndexEntry[] = [];
    for (const line of lines.slice(start + 1)) {
      const match = /^- ([^:\s]+)(?:: (.*))?$/.exec(line);
      if (!match) break;
      entries.push({ name: match[1], description: unescapeIndex(match[2] ?? "") });
    }
    return entries;
  }
  const entries: IndexEntry[] = [];
  lines.forEach((line, index) => {
    const match = /^<skill name="([^"]+)"[^>]*>$/.exec(line);
    if (match) entries.push({ name: match[1], description: lines[index + 1] ?? "" });
  });
  return entries;
}

function unescapeIndex(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">");
}

function nameMatcher(name: string): RegExp {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\p{L}\\p{N}-])${escaped}($|[^\\p{L}\\p{N}-])`, "iu");
}

/** What scoring needs of an index, made once per index (entries arrays are kept by parseIndex). */
interface IndexModel {
  /** Per line: how often each stem occurs, and the line's length in stems. */
  documents: { counts: Map<string, number>; length: number }[];
  averageLength: number;
  /** Lines containing each stem. */
  containing: Map<string, number>;
  names: RegExp[];
}

const models = new WeakMap<readonly IndexEntry[], IndexModel>();

function modelOf(entries: readonly IndexEntry[]): IndexModel {
  const known = models.get(entries);
  if (known) return known;
  const containing = new Map<string, number>();
  const documents = entries.map((entry) => {
    const words = terms(entry.description);
    const counts = new Map<string, number>();
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    for (const word of counts.keys()) containing.set(word, (containing.get(word) ?? 0) + 1);
    return { counts, length: words.length };
  });
  const averageLength =
    documents.reduce((sum, document) => sum + document.length, 0) / Math.max(1, documents.length) || 1;
  const model = {
    documents,
    averageLength,
    containing,
    names: entries.map((entry) => nameMatcher(entry.name)),
  };
  models.set(entries, model);
  return model;
}

const round = (value: number) => Math.round(value * 1000) / 1000;

export function scoreIndex(
  message: string,
  entries: readonly IndexEntry[],
  threshold = DEFAULT_THRESHOLD,
): Omit<RoutingDecision, "chosen" | "reason"> {
  const { documents, averageLength, containing, names } = modelOf(entries);
  const lines = documents.length + BACKGROUND_LINES;
  const queryTerms = [...new Set(terms(message))];
  const scores: RoutingScore[] = entries.map((entry, index) => {
    const document = documents[index];
    const matched = queryTerms.flatMap((term) => {
      const frequency = document.counts.get(term) ?? 0;
      if (frequency === 0) return [];
      const n = containing.get(term) ?? 0;
      const idf = Math.log(1 + (lines - n + 0.5) / (n + 0.5));
      const saturation =
        (frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * document.length) / averageLength));
      return [{ term, weight: round(idf * saturation) }];
    });
    const named = names[index].test(message);
    const bm25 = matched.reduce((sum, term) => sum + term.weight, 0);
    return { skill: entry.name, score: round(bm25 + (named ? threshold : 0)), terms: matched, named };
  });
  scores.sort((left, right) => right.score - left.score || (left.skill < right.skill ? -1 : 1));
  return { label: ROUTER_LABEL, method: ROUTER_METHOD, threshold, queryTerms, scores };
}

/** The decision: the best skill at or above the threshold, unless it is already active. */
export function route(
  message: string,
  entries: readonly IndexEntry[],
  active: readonly string[] = [],
  threshold = DEFAULT_THRESHOLD,
): RoutingDecision {
  const scored = scoreIndex(message, entries, threshold);
  const best = scored.scores[0];
  if (!best) return { ...scored, chosen: null, reason: "no skill is listed in the index" };
  if (best.score < threshold) {
    return {
      ...scored,
      chosen: null,
      reason: `no description scores ${threshold} or more (best: ${best.skill} ${best.score})`,
    };
  }
  if (active.includes(best.skill)) {
    return {
      ...scored,
      chosen: null,
      reason: `${best.skill} scores best (${best.score}) and is already active`,
    };
  }
  return {
    ...scored,
    chosen: best.skill,
    reason: `${best.skill} scores ${best.score}, the best at or above ${threshold}`,
  };
}
