// The prompt-economy plot: stable-system tokens against the number of skills, progressive vs eager, on
// log–log axes (both grow linearly; the gap between the lines is the constant factor saved). Written as
// SVG, then rasterized to PNG by a Chromium screenshot (the browser the e2e tests already use).
import { writeFile } from "node:fs/promises";
import { chromium } from "@playwright/test";

export interface PlotPoint {
  skills: number;
  progressiveTokens: number;
  eagerTokens: number;
}

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
}

const WIDTH = 720;
const HEIGHT = 440;
const MARGIN = { left: 78, right: 150, top: 48, bottom: 56 };

function powersOfTen(low: number, high: number): number[] {
  const values: number[] = [];
  for (let exponent = Math.floor(Math.log10(low)); exponent <= Math.ceil(Math.log10(high)); exponent++)
    values.push(10 ** exponent);
  return values;
}

function compact(value: number): string {
  if (value >= 1_000_000) return `${value / 1_000_000}M`;
  if (value >= 1000) return `${value / 1000}k`;
  return String(value);
}

export function economySvg(points: readonly PlotPoint[]): string {
  const xs = points.map((point) => point.skills);
  const ys = points.flatMap((point) => [point.progressiveTokens, point.eagerTokens]);
  const xTicks = powersOfTen(Math.min(...xs), Math.max(...xs));
  const yTicks = powersOfTen(Math.min(...ys), Math.max(...ys));
  const [xLow, xHigh] = [Math.log10(xTicks[0]), Math.log10(xTicks[xTicks.length - 1])];
  const [yLow, yHigh] = [Math.log10(yTicks[0]), Math.log10(yTicks[yTicks.length - 1])];
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (value: number) => MARGIN.left + ((Math.log10(value) - xLow) / (xHigh - xLow)) * plotWidth;
  const y = (value: number) =>
    MARGIN.top + plotHeight - ((Math.log10(value) - yLow) / (yHigh - yLow)) * plotHeight;

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${MARGIN.left}" y="26" font-size="15" font-weight="bold" fill="#111">Stable system tokens vs number of skills (o200k_base)</text>`,
  ];
  for (const tick of xTicks) {
    parts.push(
      `<line x1="${x(tick)}" y1="${MARGIN.top}" x2="${x(tick)}" y2="${MARGIN.top + plotHeight}" stroke="#e5e7eb"/>`,
    );
    parts.push(
      `<text x="${x(tick)}" y="${MARGIN.top + plotHeight + 18}" text-anchor="middle" fill="#374151">${compact(tick)}</text>`,
    );
  }
  for (const tick of yTicks) {
    parts.push(
      `<line x1="${MARGIN.left}" y1="${y(tick)}" x2="${MARGIN.left + plotWidth}" y2="${y(tick)}" stroke="#e5e7eb"/>`,
    );
    parts.push(
      `<text x="${MARGIN.left - 8}" y="${y(tick) + 4}" text-anchor="end" fill="#374151">${compact(tick)}</text>`,
    );
  }
  parts.push(
    `<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#9ca3af"/>`,
  );
  parts.push(
    `<text x="${MARGIN.left + plotWidth / 2}" y="${HEIGHT - 14}" text-anchor="middle" fill="#111">skills in the catalog (log scale)</text>`,
  );
  parts.push(
    `<text transform="translate(20 ${MARGIN.top + plotHeight / 2}) rotate(-90)" text-anchor="middle" fill="#111">tokens (log scale)</text>`,
  );

  const series = [
    { label: "eager (every body)", color: "#dc2626", value: (point: PlotPoint) => point.eagerTokens },
    { label: "progressive (index)", color: "#2563eb", value: (point: PlotPoint) => point.progressiveTokens },
  ];
  for (const [index, line] of series.entries()) {
    const coordinates = points.map(
      (point) => `${x(point.skills).toFixed(1)},${y(line.value(point)).toFixed(1)}`,
    );
    parts.push(
      `<polyline points="${coordinates.join(" ")}" fill="none" stroke="${line.color}" stroke-width="2.5"/>`,
    );
    for (const point of points) {
      parts.push(
        `<circle cx="${x(point.skills).toFixed(1)}" cy="${y(line.value(point)).toFixed(1)}" r="3.5" fill="${line.color}"/>`,
      );
    }
    const last = points[points.length - 1];
    parts.push(
      `<text x="${x(last.skills) + 8}" y="${y(line.value(last)) + 4}" fill="${line.color}">${compact(Math.round(line.value(last) / 100) * 100)} tokens</text>`,
    );
    const legendY = MARGIN.top + 16 + index * 18;
    parts.push(
      `<line x1="${MARGIN.left + 12}" y1="${legendY - 4}" x2="${MARGIN.left + 34}" y2="${legendY - 4}" stroke="${line.color}" stroke-width="2.5"/>`,
    );
    parts.push(`<text x="${MARGIN.left + 40}" y="${legendY}" fill="#111">${line.label}</text>`);
  }
  parts.push("</svg>");
  return parts.join("\n");
}

/** Writes `<base>.svg` and `<base>.png` (the PNG through a headless Chromium screenshot). */
export async function renderEconomyPlot(
  points: readonly PlotPoint[],
  basePath: string,
): Promise<{ svg: string; png: string }> {
  const svg = economySvg(points);
  const svgPath = `${basePath}.svg`;
  const pngPath = `${basePath}.png`;
  await writeFile(svgPath, svg);
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT }, deviceScaleFactor: 1 });
    await page.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`);
    await page.locator("svg").screenshot({ path: pngPath });
  } finally {
    await browser.close();
  }
  return { svg: svgPath, png: pngPath };
}
