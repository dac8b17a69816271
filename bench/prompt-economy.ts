// Prompt economy: how many tokens (o200k_base) the stable system costs for 10, 100 and 1,000 skills,
// progressive (index of names + descriptions) against eager (every body inlined), built by the real
// prompt builder from a real Catalog over generated skills. Also checks the budget: each index
// entry may cost at most tokens(name) + tokens(description) + 8.
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { buildStableSystem } from "../server/prompt/index.ts";
import { Catalog, renderInvocation } from "../server/skills/index.ts";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateCatalog } from "./generate-catalog.ts";
import { round, type Figure, type FigureRow } from "./harness.ts";
import { renderEconomyPlot } from "./plot.ts";

export interface EconomyPoint {
  skills: number;
  progressiveTokens: number;
  eagerTokens: number;
  /** (progressive(N) − progressive(1)) / (N − 1): what one more index entry costs, on average. */
  indexCostPerSkill: number;
  /** Mean of tokens(name) + tokens(description) + 8 over the same skills: the budget. */
  budgetPerSkill: number;
  /** Index lines whose own tokens exceed their budget (each line tokenized alone). */
  linesOverBudget: number;
  worstLineOverBudget: number;
}

const SIZES = [1, 10, 100, 1000];
/** Extra sizes for the plot only, so the curve has points between the decades. */
const PLOT_SIZES = [1, 3, 10, 30, 100, 300, 1000];
const PLOT_BASE = path.join(path.dirname(fileURLToPath(import.meta.url)), "prompt-economy");

async function measureSize(skills: number): Promise<EconomyPoint & { stableProgressive: string }> {
  const generated = await generateCatalog({ skills, withTools: 0, shadowed: 0, seed: 11 });
  try {
    const catalog = await Catalog.create(generated.layers);
    const items = catalog.promptItems();
    if (items.length !== skills)
      throw new Error(`catalog listed ${items.length} of ${skills} generated skills`);
    const eagerBodies = catalog
      .list()
      .map((skill) => ({ name: skill.meta.name, body: renderInvocation(skill) }));
    const progressive = buildStableSystem({ skills: items, disclosure: "progressive" });
    const eager = buildStableSystem({ skills: items, disclosure: "eager", eagerBodies });
    let budgetTotal = 0;
    let linesOverBudget = 0;
    let worstLineOverBudget = 0;
    for (const item of items) {
      const budget = countTokens(item.name) + countTokens(item.description) + 8;
      budgetTotal += budget;
      const line = progressive.split("\n").find((text) => text.startsWith(`- ${item.name}: `)) ?? "";
      const over = countTokens(`${line}\n`) - budget;
      if (over > 0) linesOverBudget++;
      worstLineOverBudget = Math.max(worstLineOverBudget, over);
    }
    return {
      skills,
      progressiveTokens: countTokens(progressive),
      eagerTokens: countTokens(eager),
      indexCostPerSkill: 0,
      budgetPerSkill: budgetTotal / items.length,
      linesOverBudget,
      worstLineOverBudget,
      stableProgressive: progressive,
    };
  } finally {
    await generated.cleanup();
  }
}

/** Tokens for every size, plus the per-entry index cost measured against the 1-skill prompt. */
export async function promptEconomyPoints(sizes: readonly number[] = SIZES): Promise<EconomyPoint[]> {
  const points: EconomyPoint[] = [];
  for (const size of sizes) {
    const { stableProgressive: _text, ...point } = await measureSize(size);
    points.push(point);
  }
  const single = points.find((point) => point.skills === 1);
  if (!single) throw new Error("the 1-skill point is the reference for the per-entry cost");
  for (const point of points) {
    point.indexCostPerSkill =
      point.skills > 1 ? (point.progressiveTokens - single.progressiveTokens) / (point.skills - 1) : 0;
  }
  return points;
}

export const promptEconomyFigure: Figure = {
  name: "prompt-economy",
  workload: "stable system tokens (o200k_base) for 10, 100, 1,000 skills",
  target: "index cost/skill ≤ tokens(name)+tokens(description)+8",
  async run({ quick }): Promise<FigureRow[]> {
    // Token counts are deterministic, so --quick changes nothing here: one pass is exact. --quick only
    // skips redrawing the plot (a Chromium launch), leaving the committed PNG as it is.
    const points = await promptEconomyPoints(quick ? SIZES : PLOT_SIZES);
    let plotNote = "";
    if (!quick) {
      const plot = await renderEconomyPlot(points, PLOT_BASE);
      plotNote = `; plot: ${path.relative(process.cwd(), plot.png)}`;
    }
    return points
      .filter((point) => SIZES.includes(point.skills) && point.skills > 1)
      .map((point) => {
        const withinBudget = point.indexCostPerSkill <= point.budgetPerSkill && point.linesOverBudget === 0;
        return {
          figure: "prompt-economy",
          workload: `stable system, ${point.skills.toLocaleString("en-US")} skills: progressive vs eager`,
          unit: "tokens",
          median: point.progressiveTokens,
          baselineMedian: point.eagerTokens,
          ratio: round(point.progressiveTokens / point.eagerTokens, 4),
          target: "≤ name+desc+8 per entry",
          status: withinBudget ? "pass" : "miss",
          note: `index cost ${point.indexCostPerSkill.toFixed(1)} tokens/skill vs budget ${point.budgetPerSkill.toFixed(1)}; eager costs ${((point.eagerTokens - points[0].eagerTokens) / Math.max(1, point.skills - 1)).toFixed(0)} tokens/skill; ${point.linesOverBudget} index lines over budget${plotNote}`,
          details: {
            ...point,
            indexCostPerSkill: round(point.indexCostPerSkill, 2),
            budgetPerSkill: round(point.budgetPerSkill, 2),
          },
        };
      });
  },
};
