// Catalog load: the real Catalog scanning 1,000 generated SKILL.md files (3 layers, 200 with tools.json,
// 50 shadowed) — parse, tools.json schema + command checks, override, lint, validateTools — against the
// floor of that work: reading exactly the same files, one after another, with bare `readFile`.
import { readFile } from "node:fs/promises";
import { LOAD_SKILL_TOOL_NAME } from "../server/protocol/model.ts";
import { Catalog } from "../server/skills/index.ts";
import { buildSkillManifest } from "../server/skills/manifest.ts";
import { generateCatalog, type CatalogShape, type GeneratedCatalog } from "./generate-catalog.ts";
import { interleave, median, ratioOf, round, type Figure, type FigureRow } from "./harness.ts";

export const FULL_CATALOG: CatalogShape = { skills: 1000, withTools: 200, shadowed: 50 };
export const QUICK_CATALOG: CatalogShape = { skills: 300, withTools: 60, shadowed: 15 };

/** System tools every session has; skills naming only these (or their own tools) survive validateTools. */
const SYSTEM_TOOLS = new Set([
  LOAD_SKILL_TOOL_NAME,
  "read_file",
  "write_file",
  "edit_file",
  "list_dir",
  "glob",
  "grep",
  "run_command",
]);

export async function loadCatalog(generated: GeneratedCatalog): Promise<Catalog> {
  const catalog = new Catalog(generated.layers);
  await catalog.load();
  catalog.validateTools((name) => SYSTEM_TOOLS.has(name));
  return catalog;
}

export async function readSameFiles(generated: GeneratedCatalog): Promise<number> {
  let characters = 0;
  for (const filePath of generated.readPaths) characters += (await readFile(filePath, "utf8")).length;
  return characters;
}

export function shapeLabel(shape: CatalogShape): string {
  return `${shape.skills.toLocaleString("en-US")} SKILL.md over 3 layers, ${shape.withTools} tools.json, ${shape.shadowed} shadowed`;
}

/** Load time at smaller sizes of the same shape (full runs only), to show how it grows with the catalog. */
async function scaling(sizes: number[]): Promise<{ skills: number; loadMs: number; readFileMs: number }[]> {
  const points: { skills: number; loadMs: number; readFileMs: number }[] = [];
  for (const skills of sizes) {
    const generated = await generateCatalog({ skills, withTools: skills / 5, shadowed: skills / 20 });
    try {
      const samples = await interleave(
        5,
        async () => void (await loadCatalog(generated)),
        async () => void (await readSameFiles(generated)),
        1,
      );
      points.push({
        skills,
        loadMs: round(median(samples.subject)),
        readFileMs: round(median(samples.baseline)),
      });
    } finally {
      await generated.cleanup();
    }
  }
  return points;
}

/**
 * What a manifest (base directory + bounded file list, server/skills/manifest.ts) costs per skill: built
 * for every catalog skill once, as load_skill builds it for one. Median per-skill time over 3 passes.
 */
async function manifestCost(catalog: Catalog): Promise<{ perSkillMs: number; skills: number }> {
  const skills = catalog.list();
  const passes: number[] = [];
  for (let pass = 0; pass < 3; pass++) {
    const started = performance.now();
    for (const skill of skills) await buildSkillManifest(skill.rootDir, skill.entryPath, skill.body);
    passes.push((performance.now() - started) / skills.length);
  }
  return { perSkillMs: round(median(passes), 4), skills: skills.length };
}

export const catalogLoadFigure: Figure = {
  name: "catalog-load",
  workload: shapeLabel(FULL_CATALOG),
  target: "≤ 2.0× bare readFile",
  async run({ quick }): Promise<FigureRow[]> {
    const shape = quick ? QUICK_CATALOG : FULL_CATALOG;
    const generated = await generateCatalog(shape);
    try {
      // Sanity: the catalog must see what was generated, or the timing would measure a failure path.
      const check = await loadCatalog(generated);
      const expected = shape.skills - shape.shadowed;
      if (
        check.names().length !== expected ||
        check.shadowed().length !== shape.shadowed ||
        check.warnings().length > 0
      ) {
        throw new Error(
          `catalog saw ${check.names().length} skills, ${check.shadowed().length} shadowed, ${check.warnings().length} warnings (first: ${check.warnings()[0]?.reason ?? "none"}); expected ${expected}, ${shape.shadowed}, 0`,
        );
      }
      const samples = await interleave(
        quick ? 5 : 15,
        async () => void (await loadCatalog(generated)),
        async () => void (await readSameFiles(generated)),
        2,
      );
      const loadMs = median(samples.subject);
      const readMs = median(samples.baseline);
      const ratio = ratioOf(loadMs, readMs) ?? Infinity;
      const manifest = await manifestCost(check);
      const growth = quick
        ? []
        : [
            ...(await scaling([100, 300])),
            { skills: shape.skills, loadMs: round(loadMs), readFileMs: round(readMs) },
          ];
      return [
        {
          figure: "catalog-load",
          workload: shapeLabel(shape),
          unit: "ms",
          median: round(loadMs),
          baselineMedian: round(readMs),
          ratio: round(ratio),
          target: "≤ 2.0×",
          status: ratio <= 2.0 ? "pass" : "miss",
          note: `baseline: readFile of the same ${generated.readPaths.length} files in scan order`,
          details: {
            files: generated.readPaths.length,
            perSkillMs: round(loadMs / shape.skills, 4),
            // Level 3: built by load_skill, never at catalog load; this is what one load adds.
            manifestPerSkillMs: manifest.perSkillMs,
            manifestSkills: manifest.skills,
            ...(growth.length > 0 ? { scaling: growth } : {}),
            samplesMs: {
              load: samples.subject.map((value) => round(value)),
              readFile: samples.baseline.map((value) => round(value)),
            },
          },
        },
      ];
    } finally {
      await generated.cleanup();
    }
  },
};
