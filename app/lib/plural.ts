// A count with its noun in the right number: "1 file", "2 files", "0 files". English only; irregular
// plurals are passed in ("1 query", "3 queries").
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? singular : pluralForm}`;
}
