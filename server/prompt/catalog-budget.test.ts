import { describe, expect, it } from "vitest";
import { catalogBudget, describeBudget } from "./catalog-budget.ts";
import { buildStableSystem } from "./stable-system.ts";

const words = (count: number, word = "word") => Array.from({ length: count }, () => word).join(" ");

describe("catalogBudget: Claude Code profile", () => {
  it("derives the budget from 1% of the window in characters, 8,000 without a window", () => {
    const items = [{ name: "a", description: "short" }];
    expect(catalogBudget({ items, profile: "claude-code", contextWindow: 200_000 }).limit).toBe(8_000);
    expect(catalogBudget({ items, profile: "claude-code", contextWindow: 1_000_000 }).limit).toBe(40_000);
    const fallback = catalogBudget({ items, profile: "claude-code" });
    expect(fallback.limit).toBe(8_000);
    expect(fallback.derivation).toContain("fallback");
    expect(fallback.entries[0]).toMatchObject({ name: "a", status: "full", shown: "short", listed: true });
  });

  it("cuts one entry at 1,536 characters even when the listing fits", () => {
    const long = "x".repeat(2_000);
    const report = catalogBudget({ items: [{ name: "long", description: long }], profile: "claude-code" });
    expect(report.entries[0]).toMatchObject({ status: "cut", descriptionChars: 2_000, shownChars: 1_536 });
    expect(report.entries[0].reason).toContain("1,536");
  });

  it("over the budget drops descriptions from the end of the sorted listing and keeps the names", () => {
    const items = ["delta", "alpha", "charlie", "bravo"].map((name) => ({
      name,
      description: words(60), // 299 characters each
    }));
    // A 100,000-token window: 4,000 characters; four 310-char lines fit: no trimming.
    expect(catalogBudget({ items, profile: "claude-code", contextWindow: 100_000 }).used).toBeLessThan(4_000);
    // A 20,000-token window: 800 characters; two full lines (~310 each) plus two names.
    const report = catalogBudget({ items, profile: "claude-code", contextWindow: 20_000 });
    expect(report.limit).toBe(800);
    expect(report.entries.map((entry) => [entry.name, entry.status])).toEqual([
      ["alpha", "full"],
      ["bravo", "full"],
      ["charlie", "dropped"],
      ["delta", "dropped"],
    ]);
    expect(report.entries.every((entry) => entry.listed)).toBe(true);
    expect(report.used).toBeLessThanOrEqual(800);
    expect(report.fullCost).toBeGreaterThan(800);
    expect(describeBudget(report)).toContain("descriptions dropped: charlie, delta");
  });
});

describe("catalogBudget: Codex profile", () => {
  it("counts 2% of the window in bytes/4 tokens, 8,000 characters without a window", () => {
    const items = [{ name: "a", description: "short" }];
    const withWindow = catalogBudget({ items, profile: "codex", contextWindow: 100_000 });
    expect(withWindow).toMatchObject({ limit: 2_000, unit: "approx_tokens" });
    // "- a: short\n" is 11 bytes: 3 approximate tokens.
    expect(withWindow.used).toBe(3);
    expect(catalogBudget({ items, profile: "codex" })).toMatchObject({ limit: 8_000, unit: "chars" });
  });

  it("shortens every description when the names fit but the descriptions do not", () => {
    const items = ["alpha", "bravo"].map((name) => ({ name, description: words(100) }));
    // 10,000 tokens → 200 approximate tokens; the full listing is ~250.
    const report = catalogBudget({ items, profile: "codex", contextWindow: 10_000 });
    expect(report.fullCost).toBeGreaterThan(report.limit);
    expect(report.used).toBeLessThanOrEqual(report.limit);
    expect(report.entries.map((entry) => entry.status)).toEqual(["cut", "cut"]);
    expect(report.entries[0].shownChars).toBeGreaterThan(100);
  });

  it("omits whole skills when even the names overflow, and the report names them", () => {
    const items = Array.from({ length: 30 }, (_, index) => ({
      name: `skill-${String(index).padStart(2, "0")}`,
      description: "does a thing",
    }));
    const report = catalogBudget({ items, profile: "codex", contextWindow: 3_000 }); // 60 tokens
    const unlisted = report.entries.filter((entry) => !entry.listed);
    expect(unlisted.length).toBeGreaterThan(0);
    expect(report.used).toBeLessThanOrEqual(60);
    expect(describeBudget(report)).toContain(`not listed: ${unlisted.map((entry) => entry.name).join(", ")}`);
  });
});

describe("the playground's own index under a budget", () => {
  const skills = [
    { name: "alpha", description: words(60) },
    { name: "bravo", description: words(60) },
    { name: "charlie", description: words(60) },
  ];

  it("is byte-identical to before when no budget is set", () => {
    const plain = buildStableSystem({ skills, disclosure: "progressive" });
    expect(buildStableSystem({ skills, disclosure: "progressive", listingBudget: undefined })).toBe(plain);
    expect(plain).not.toContain("Listing budget");
  });

  it("trims as the profile would and says which skills were trimmed, inside the stable system", () => {
    const stable = buildStableSystem({
      skills,
      disclosure: "progressive",
      listingBudget: { profile: "claude-code", contextWindow: 20_000 },
    });
    expect(stable).toContain(`- alpha: ${words(60)}`);
    expect(stable).toContain("- charlie\n");
    expect(stable).not.toContain(`- charlie: `);
    expect(stable).toContain(
      "Listing budget (claude-code rules, 1% of 20,000 tokens × 4 chars/token): 800 characters",
    );
    expect(stable).toContain("descriptions dropped: charlie");
  });
});
