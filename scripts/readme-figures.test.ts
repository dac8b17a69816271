// The figures the README and docs/ quote agree with the CLI: each marked span (`<!-- fig:NAME -->`) is the
// value scripts/readme-figures.ts computes from `cli prompt --json`, `cli prompt` and `cli run --json` on
// the demo. When a change moves a figure this fails, naming the page, the figure and both values; then
// `npm run readme:figures` rewrites them.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { computeFigures, figurePages, readmeSpans, rewrite } from "./readme-figures.ts";

let figures: Map<string, string>;
beforeAll(async () => {
  figures = await computeFigures();
}, 180_000);

it("every marked figure in README.md and docs/ is the CLI's", async () => {
  const disagreements: string[] = [];
  const quoted = new Set<string>();
  for (const page of await figurePages()) {
    const text = await readFile(page, "utf8");
    for (const span of readmeSpans(text)) {
      quoted.add(span.name);
      const figure = figures.get(span.name);
      if (figure !== span.value)
        disagreements.push(`${path.basename(page)}: ${span.name} is ${span.value}, the CLI says ${figure}`);
    }
  }
  expect(disagreements).toEqual([]);
  // The README's first screen quotes these; each must be marked somewhere.
  for (const name of ["listing-csv-report", "load-csv-report", "stable-tokens", "eager-stable-tokens"])
    expect(quoted).toContain(name);
});

it("rewrites a stale span and leaves the text around it", () => {
  const text = "costs <!-- fig:listing-csv-report -->1<!-- /fig --> tokens";
  expect(rewrite(text, figures)).toBe(
    `costs <!-- fig:listing-csv-report -->${figures.get("listing-csv-report")}<!-- /fig --> tokens`,
  );
  expect(readmeSpans(rewrite(text, figures))).toEqual([
    { name: "listing-csv-report", value: figures.get("listing-csv-report") },
  ]);
});
