// The cache-economy plot: for each placement, the billed-equivalent input tokens summed over
// the demo scenarios, as horizontal bars (SVG, rasterized to PNG by Chromium like the prompt-economy plot).
import { writeFile } from "node:fs/promises";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumPath } from "./plot.ts";
import { VARIANTS, variantName, type ScenarioEconomy } from "./cache-economy.ts";

const WIDTH = 760;
const ROW = 34;
const MARGIN = { left: 220, right: 110, top: 56, bottom: 40 };

export function cacheSvg(results: readonly ScenarioEconomy[]): string {
  const bars = VARIANTS.map((variant) => ({
    variant,
    name: variantName(variant),
    total: results.reduce((sum, result) => sum + result.billed[variantName(variant)], 0),
  }));
  const max = Math.max(...bars.map((bar) => bar.total));
  const height = MARGIN.top + bars.length * ROW + MARGIN.bottom;
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="20" y="24" font-size="15" font-weight="bold" fill="#111">Billed-equivalent input tokens, ${results.length} demo scenarios (claude-sonnet-4-5)</text>`,
    `<text x="20" y="42" fill="#374151">input + 1.25 × cache write + 0.1 × cache read, predicted by the cache model; lower is cheaper</text>`,
  ];
  bars.forEach((bar, index) => {
    const y = MARGIN.top + index * ROW;
    const width = (bar.total / max) * plotWidth;
    const color = bar.variant.breakpoints === "rolling" ? "#059669" : "#6b7280";
    parts.push(`<text x="${MARGIN.left - 8}" y="${y + 19}" text-anchor="end" fill="#111">${bar.name}</text>`);
    parts.push(
      `<rect x="${MARGIN.left}" y="${y + 5}" width="${width.toFixed(1)}" height="${ROW - 12}" fill="${color}"/>`,
    );
    parts.push(
      `<text x="${MARGIN.left + width + 6}" y="${y + 19}" fill="#111">${bar.total.toLocaleString("en-US")}</text>`,
    );
  });
  parts.push(
    `<text x="${MARGIN.left}" y="${height - 14}" fill="#374151">green: stable + rolling · grey: stable only · env/msg/sys: where SOPs go</text>`,
  );
  parts.push("</svg>");
  return parts.join("\n");
}

export async function renderCachePlot(
  results: readonly ScenarioEconomy[],
  basePath: string,
): Promise<{ svg: string; png: string }> {
  const svg = cacheSvg(results);
  const svgPath = `${basePath}.svg`;
  const pngPath = `${basePath}.png`;
  await writeFile(svgPath, svg);
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: WIDTH, height: 600 }, deviceScaleFactor: 1 });
    await page.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`);
    await page.locator("svg").screenshot({ path: pngPath });
  } finally {
    await browser.close();
  }
  return { svg: svgPath, png: pngPath };
}
