// First-load JS: the scripts the workspace page (out/index.html) loads before it can run, gzipped, summed.
// Read from the built pages themselves (every <script src> and script preload the HTML names), not from
// the build's printout: a chunk the page only imports later (a dialog's code) is not in it.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { ensurePagesBuilt } from "./browser-stream.ts";
import { round, type Figure, type FigureRow } from "./harness.ts";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const TARGET_KB = 160;

/** The script paths an HTML page loads up front, each once. */
export function firstLoadScripts(html: string): string[] {
  const found = new Set<string>();
  for (const match of html.matchAll(/<script[^>]*>/g)) {
    // A noModule script is the old browsers' polyfills: a browser that runs modules never loads it.
    if (/\snomodule/i.test(match[0])) continue;
    const src = /\ssrc="([^"]+\.js)"/.exec(match[0])?.[1];
    if (src) found.add(src);
  }
  for (const match of html.matchAll(/<link[^>]*>/g)) {
    const tag = match[0];
    if (!/\bas="script"/.test(tag) && !/\brel="modulepreload"/.test(tag)) continue;
    const href = /\shref="([^"]+\.js)"/.exec(tag)?.[1];
    if (href) found.add(href);
  }
  return [...found];
}

export const pageWeightFigure: Figure = {
  name: "page-weight",
  workload: "first-load JS of the workspace page (out/index.html), gzipped",
  target: `≤ ${TARGET_KB} KB gz`,
  async run({ quick }): Promise<FigureRow[]> {
    const buildNote = ensurePagesBuilt(quick);
    const out = path.join(REPO_ROOT, "out");
    const scripts = firstLoadScripts(await readFile(path.join(out, "index.html"), "utf8"));
    let raw = 0;
    let gzipped = 0;
    for (const script of scripts) {
      const bytes = await readFile(path.join(out, script.replace(/^\//, "")));
      raw += bytes.length;
      gzipped += gzipSync(bytes).length;
    }
    const kb = gzipped / 1024;
    return [
      {
        figure: "page-weight",
        workload: "first-load JS of the workspace page (out/index.html), gzipped",
        unit: "KB gz",
        median: round(kb, 1),
        baselineMedian: null,
        ratio: null,
        target: `≤ ${TARGET_KB} KB gz`,
        status: kb <= TARGET_KB ? "pass" : "miss",
        note: `${scripts.length} scripts named by out/index.html, ${round(raw / 1024, 1)} KB before gzip (zlib default level)${buildNote ? `; ${buildNote}` : ""}`,
        details: { scripts, rawBytes: raw, gzipBytes: gzipped },
      },
    ];
  },
};
