// How a count and a price read, on the server (CLI lines, listing-budget reasons, cache reasons) and in the
// pages alike: counts with thousands separators in English ("1,024 tokens"), nouns in the right number,
// dollars to the digits a per-request figure needs.

/** `1024` → "1,024". */
export function formatCount(count: number): string {
  return count.toLocaleString("en-US");
}

/**
 * A count with its noun in the right number: "1 file", "2 files", "0 files". English only; irregular
 * plurals are passed in ("1 query", "3 queries").
 */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}

/** "$0", "$0.00123" under a cent (a request's cost is often that small), "$0.0123" above. */
export function formatUsd(value: number): string {
  if (value === 0) return "$0";
  if (value < 0.01) return `$${value.toFixed(5)}`;
  return `$${value.toFixed(4)}`;
}
