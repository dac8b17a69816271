// The accessibility check the specs run on a view: axe-core (through @axe-core/playwright) over the live
// page, WCAG 2.x A and AA rules plus axe's best practices, failing on any serious or critical violation
// with each rule, its help and the elements it found, so the message says what to fix.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

export async function expectAccessible(page: Page, view: string, include?: string): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags([
    "wcag2a",
    "wcag2aa",
    "wcag21a",
    "wcag21aa",
    "wcag22aa",
    "best-practice",
  ]);
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  const serious = results.violations.filter(
    (violation) => violation.impact === "serious" || violation.impact === "critical",
  );
  const report = serious.map(
    (violation) =>
      `${violation.impact} ${violation.id}: ${violation.help} (${violation.helpUrl})\n` +
      violation.nodes
        .slice(0, 5)
        .map((node) => `    ${node.target.join(" ")} — ${node.failureSummary?.replace(/\s+/g, " ")}`)
        .join("\n"),
  );
  // Soft: one run reports every view that fails, not only the first.
  expect.soft(report, `axe on ${view}: serious or critical violations`).toEqual([]);
}
