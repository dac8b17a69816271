// Words as the description router compares them: lower case, split on anything that is not a letter or a
// digit, English stop words removed (the `stopword` package's list, plus the few words every description
// uses to say when — "use", "user", "asks" — which tell no skill from another), then Porter-stemmed (the
// `stemmer` package), so "reports" meets "report" and "summarising" meets "summarise".
import { stemmer } from "stemmer";
import { eng as englishStopWords } from "stopword";

const DESCRIPTION_BOILERPLATE = [
  "use",
  "used",
  "using",
  "user",
  "users",
  "ask",
  "asks",
  "asked",
  "skill",
  "skills",
  "want",
  "wants",
  "e",
  "g",
  "etc",
];

const STOP_WORDS = new Set([...englishStopWords, ...DESCRIPTION_BOILERPLATE]);

/** The words of a text as stems, in order, repeats kept (BM25 counts them). */
export function terms(text: string): string[] {
  const words = text
    .toLowerCase()
    .normalize("NFKC")
    .split(/[^\p{L}\p{N}]+/u);
  return words.filter((word) => word !== "" && !STOP_WORDS.has(word)).map((word) => stemmer(word));
}

/** The distinct stems two texts share, in the first text's order. */
export function sharedTerms(first: string, second: string): string[] {
  const other = new Set(terms(second));
  return [...new Set(terms(first))].filter((term) => other.has(term));
}
