import { readFile, stat } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { generateCatalog, planCatalog } from "./generate-catalog.ts";

describe("planCatalog", () => {
  it("spreads 1,000 files over three layers with 200 tools.json and 50 names defined twice", () => {
    const plan = planCatalog({ skills: 1000, withTools: 200, shadowed: 50 });
    expect(plan).toHaveLength(1000);
    expect(plan.filter((entry) => entry.withTools)).toHaveLength(200);
    expect(new Set(plan.map((entry) => entry.name)).size).toBe(950);
    for (const layer of ["builtin", "user", "project"] as const) {
      expect(plan.filter((entry) => entry.layer === layer && entry.withTools).length).toBeGreaterThan(0);
    }
  });

  it("is deterministic for a seed", () => {
    const shape = { skills: 40, withTools: 5, shadowed: 3, seed: 3 };
    expect(planCatalog(shape)).toEqual(planCatalog(shape));
  });
});

describe("generateCatalog", () => {
  it("writes every planned SKILL.md and tools.json, and lists them in scan order", async () => {
    const generated = await generateCatalog({ skills: 30, withTools: 6, shadowed: 4 });
    try {
      expect(generated.files).toHaveLength(30);
      expect(generated.readPaths).toHaveLength(36);
      expect(generated.names).toHaveLength(26);
      for (const filePath of generated.readPaths) expect((await stat(filePath)).isFile()).toBe(true);
      const withTools = generated.files.find((file) => file.toolsPath);
      const markdown = await readFile(withTools!.entryPath, "utf8");
      expect(markdown).toMatch(/^---\nname: [a-z0-9-]+\ndescription: "/);
      expect(markdown).toContain("tools: [");
      expect(JSON.parse(await readFile(withTools!.toolsPath!, "utf8")).tools[0].command).toEqual([
        "node",
        "run.mjs",
      ]);
    } finally {
      await generated.cleanup();
    }
  });
});

describe("the generated library through the real Catalog", () => {
  it("loads without warnings, with the shadowed names recorded and the later layer winning", async () => {
    const { loadCatalog } = await import("./catalog-load.ts");
    const generated = await generateCatalog({ skills: 40, withTools: 8, shadowed: 6 });
    try {
      const catalog = await loadCatalog(generated);
      expect(catalog.warnings()).toEqual([]);
      expect(catalog.removed()).toEqual([]);
      expect(catalog.names()).toHaveLength(34);
      expect(catalog.shadowed()).toHaveLength(6);
      for (const shadow of catalog.shadowed()) expect(shadow.loser.source).toBe("builtin");
    } finally {
      await generated.cleanup();
    }
  });
});
