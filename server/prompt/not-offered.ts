// The listing budget's part of "why isn't it offered?" (issue 21 item 7): a session that trims the skills
// index as a client would (its catalogBudget setting) may leave skills out of it entirely. The catalog
// lists its own reasons (server/skills/not-offered.ts); this adds the budget's, with the same sentence
// form, so the catalog section and `catalog --json` carry one list.
import type { CatalogSnapshot, NotOfferedSkill } from "../protocol/catalog.ts";
import type { Catalog } from "../skills/catalog.ts";
import { catalogBudget } from "./catalog-budget.ts";
import type { ListingBudget } from "./stable-system.ts";
import { formatCount } from "../shared/figures.ts";

/** Skills the budget leaves out of the index (not even their name is listed). */
export function budgetNotOffered(
  catalog: Pick<Catalog, "promptItems" | "get">,
  budget: ListingBudget | undefined,
): NotOfferedSkill[] {
  if (!budget) return [];
  const report = catalogBudget({ items: catalog.promptItems(), ...budget });
  return report.entries
    .filter((entry) => !entry.listed)
    .flatMap((entry) => {
      const skill = catalog.get(entry.name);
      if (!skill) return [];
      return [
        {
          name: entry.name,
          kind: "budget" as const,
          source: skill.source,
          path: skill.entryPath,
          reason:
            `left out of the index by the ${report.profile} listing budget (${report.derivation}: ` +
            `${formatCount(report.limit)} ${report.unit === "chars" ? "characters" : "approximate tokens"}; ` +
            `the full listing needs ${formatCount(report.fullCost)}): ${entry.reason ?? "over budget"}`,
        },
      ];
    });
}

/** The snapshot with the budget's entries added to `notOffered`. */
export function withBudgetNotOffered(
  snapshot: CatalogSnapshot,
  catalog: Pick<Catalog, "promptItems" | "get">,
  budget: ListingBudget | undefined,
): CatalogSnapshot {
  const extra = budgetNotOffered(catalog, budget);
  return extra.length === 0
    ? snapshot
    : { ...snapshot, notOffered: [...(snapshot.notOffered ?? []), ...extra] };
}
