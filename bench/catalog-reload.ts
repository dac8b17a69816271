// Catalog reload: one SKILL.md edited in the 1,000-skill catalog, then `reload()` (what the file watcher
// and the "Reload" button trigger), against a full load of a fresh Catalog over the same folders.
import { readFile, writeFile } from "node:fs/promises";
import { Catalog } from "../server/skills/index.ts";
import { FULL_CATALOG, QUICK_CATALOG, loadCatalog, shapeLabel } from "./catalog-load.ts";
import { generateCatalog } from "./generate-catalog.ts";
import { interleave, median, ratioOf, round, type Figure, type FigureRow } from "./harness.ts";

export const catalogReloadFigure: Figure = {
  name: "catalog-reload",
  workload: "one SKILL.md changed in the 1,000-skill catalog",
  target: "report (vs full load)",
  async run({ quick }): Promise<FigureRow[]> {
    const shape = quick ? QUICK_CATALOG : FULL_CATALOG;
    const generated = await generateCatalog(shape);
    try {
      const catalog: Catalog = await loadCatalog(generated);
      const edited = generated.files[Math.floor(generated.files.length / 2)];
      const original = await readFile(edited.entryPath, "utf8");
      let edits = 0;
      const reloadOnce = async (): Promise<number> => {
        // The edit is outside the timed span: only reload() is measured, as after a watcher event.
        edits++;
        await writeFile(edited.entryPath, `${original}\nEdit ${edits}.\n`);
        const started = performance.now();
        const diff = await catalog.reload();
        const elapsed = performance.now() - started;
        if (diff.updated.length !== 1 || diff.added.length + diff.removed.length !== 0) {
          throw new Error(
            `reload after one edit returned ${JSON.stringify(diff)}; expected exactly one updated skill`,
          );
        }
        return elapsed;
      };
      const samples = await interleave(
        quick ? 5 : 15,
        reloadOnce,
        async () => void (await loadCatalog(generated)),
        2,
      );
      await writeFile(edited.entryPath, original);
      const reloadMs = median(samples.subject);
      const loadMs = median(samples.baseline);
      return [
        {
          figure: "catalog-reload",
          workload: `one SKILL.md changed; ${shapeLabel(shape)}`,
          unit: "ms",
          median: round(reloadMs),
          baselineMedian: round(loadMs),
          ratio: round(ratioOf(reloadMs, loadMs) ?? 0),
          target: "report",
          status: "report",
          note: "baseline: full load of a fresh Catalog; reload() rescans every layer, so it costs about a full load plus the diff",
          details: {
            samplesMs: {
              reload: samples.subject.map((value) => round(value)),
              fullLoad: samples.baseline.map((value) => round(value)),
            },
          },
        },
      ];
    } finally {
      await generated.cleanup();
    }
  },
};
