// Inspector responsiveness with a 500-request session: the real server plays a scripted session of 50
// messages × 10 model requests (9 read_file calls and an answer each), which writes a real session log;
// a fresh Chromium page then opens that session from its log (the replay a reopen does) and the timeline
// buttons of 20 requests spread over the session are clicked one after another. Each figure is timed in
// the page: from the click to the first animation frame after the inspector shows the selected request
// (so React's render, the commit and the layout are inside it).
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { ProtocolClient } from "../server/transport/protocol-client.ts";
import { startBenchServer } from "./bench-server.ts";
import { median, round, type Figure, type FigureRow } from "./harness.ts";
import { CHROMIUM_ARGS, chromiumPath } from "./plot.ts";
import { ensurePagesBuilt } from "./browser-stream.ts";
import { topFrames } from "./profile-figure.ts";
import type { CpuProfile } from "./profile-summary.ts";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const SESSION_STORAGE_KEY = "pseudoclaude-playground-session";
const MESSAGES = 50;
const REQUESTS_PER_MESSAGE = 10;
export const REQUESTS = MESSAGES * REQUESTS_PER_MESSAGE;
const TARGET_MS = 30;
/** Cold opens of each session per run (the figure is their median). */
const OPEN_ROUNDS = 5;
/** Issue 24: a reopened 500-request session is on screen (its newest request in the timeline) within this. */
const OPEN_TARGET_MS = 500;

/** One scenario whose turns play in order across the session's messages: 9 tool calls, then an answer. */
export function fiveHundredRequestScenario(): string {
  const lines = ["name: inspector-500", "turns:"];
  for (let message = 1; message <= MESSAGES; message++) {
    for (let call = 1; call < REQUESTS_PER_MESSAGE; call++)
      lines.push(
        `  - text: "Reading the README again (message ${message}, call ${call})."`,
        "    tool_calls:",
        "      - { name: read_file, input: { path: README.md } }",
      );
    lines.push(`  - text: "Answer ${message}: the README says hello."`);
  }
  return `${lines.join("\n")}\n`;
}

interface OpenTiming {
  /** Date.now() before page.goto → Playwright sees the newest request's timeline entry. */
  wallMs: number;
  /** The page's own clock: navigation start → the first frame after that entry is in the document. */
  pageMs: number;
}

/** Marks, in the page, the first animation frame after the timeline entry `last` is in the document. */
const markShown = (last: number) => `(() => {
  const selector = '[data-testid="timeline-request-${last}"]';
  const observer = new MutationObserver(() => {
    if (!document.querySelector(selector)) return;
    observer.disconnect();
    requestAnimationFrame(() => { window.__pcShownAt = performance.now(); });
  });
  observer.observe(document, { subtree: true, childList: true });
})();`;

/** Opens `sessionId` in a new context (the tab's stored session), timed until request #`last` shows. */
async function openCold(
  browser: Browser,
  url: string,
  sessionId: string,
  last: number,
): Promise<{ timing: OpenTiming; context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  await page.addInitScript({
    content: `window.sessionStorage.setItem(${JSON.stringify(SESSION_STORAGE_KEY)}, ${JSON.stringify(sessionId)});${markShown(last)}`,
  });
  const opened = Date.now();
  await page.goto(url);
  await page.getByTestId(`timeline-request-${last}`).waitFor({ timeout: 120_000 });
  const wallMs = Date.now() - opened;
  await page.waitForFunction("window.__pcShownAt !== undefined");
  const pageMs = Math.round((await page.evaluate("window.__pcShownAt")) as number);
  return { timing: { wallMs, pageMs }, context, page };
}

/** Clicks a timeline entry and resolves with the ms until the frame after the inspector shows it. */
const selectInPage = `async (index) => {
  const button = document.querySelector('[data-testid="timeline-request-' + index + '"]');
  if (!button) throw new Error("no timeline entry for request #" + index);
  // Looked up once: a query over a long chat's DOM on every frame would be timed too.
  const panel = document.querySelector('[data-testid="inspector-panel"]');
  let label = panel.querySelector('[data-testid="inspector-selected"]');
  const shown = () => {
    if (!label.isConnected) label = panel.querySelector('[data-testid="inspector-selected"]');
    return label.textContent === "Request #" + index;
  };
  const start = performance.now();
  button.click();
  await new Promise((resolve) => {
    const check = () => (shown() ? requestAnimationFrame(() => resolve()) : requestAnimationFrame(check));
    check();
  });
  return performance.now() - start;
}`;

export const inspectorSelectFigure: Figure = {
  name: "inspector-select",
  workload: `select a request in a ${REQUESTS}-request session (Chromium, real pages)`,
  target: `≤ ${TARGET_MS} ms`,
  async run({ quick, profiling }): Promise<FigureRow[]> {
    const buildNote = ensurePagesBuilt(quick);
    const bench = await startBenchServer({
      scenarios: { "inspector-500.yaml": fiveHundredRequestScenario() },
      staticDir: path.join(REPO_ROOT, "out"),
    });
    const client = await ProtocolClient.connectTo({
      address: `http://127.0.0.1:${bench.server.port}`,
      token: bench.server.token,
      maxPayload: 256 * 1024 * 1024,
    });
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    let context: BrowserContext | undefined;
    let page: Page | undefined;
    try {
      await writeFile(path.join(bench.workdir, "README.md"), "# hello\n");
      const sessionId = await client.createSession({ provider: "scripted", scenario: "inspector-500.yaml" });
      for (let message = 1; message <= MESSAGES; message++) {
        const stop = await client.sendMessage(sessionId, `Message ${message}: read the README.`);
        if (stop.reason !== "completed") throw new Error(`message ${message} stopped with ${stop.reason}`);
      }
      // The floor: a 10-request session (one message) opened the same way, so the table says how much of
      // the open is the page's own load (Chromium, scripts, the socket) and how much the 500 requests add.
      const smallId = await client.createSession({ provider: "scripted", scenario: "inspector-500.yaml" });
      const small = await client.sendMessage(smallId, "Message 1: read the README.");
      if (small.reason !== "completed")
        throw new Error(`the 10-request session stopped with ${small.reason}`);
      // Each open is cold: the hub is shut down first, so the page opens the session from its log as a
      // reopened session, in a new browser context. Opens of the two sessions alternate.
      const rounds = quick ? 2 : OPEN_ROUNDS;
      const opens: OpenTiming[] = [];
      const floors: OpenTiming[] = [];
      for (let round = 0; round < rounds; round++) {
        await bench.server.hub.shutdown();
        const floor = await openCold(browser, bench.server.url, smallId, REQUESTS_PER_MESSAGE);
        floors.push(floor.timing);
        await floor.context.close();
        await bench.server.hub.shutdown();
        const open = await openCold(browser, bench.server.url, sessionId, REQUESTS);
        opens.push(open.timing);
        if (round < rounds - 1) await open.context.close();
        else {
          context = open.context;
          page = open.page;
        }
      }
      if (!context || !page) throw new Error("no open page");
      const openMs = median(opens.map((open) => open.wallMs));
      const pageOpenMs = median(opens.map((open) => open.pageMs));
      const floorMs = median(floors.map((open) => open.wallMs));
      const picks = Array.from({ length: quick ? 8 : 20 }, (_unused, index) =>
        Math.max(1, Math.round(((index + 1) * REQUESTS) / (quick ? 8 : 20)) - (index % 3)),
      );
      // One untimed selection first: the first render of the panes compiles their code paths.
      await page.evaluate(`(${selectInPage})(1)`);
      const cdp = profiling ? await context.newCDPSession(page) : undefined;
      if (cdp) {
        await cdp.send("Profiler.enable");
        await cdp.send("Profiler.start");
      }
      const samples: number[] = [];
      for (const index of picks) samples.push((await page.evaluate(`(${selectInPage})(${index})`)) as number);
      const pageProfile = cdp
        ? topFrames(((await cdp.send("Profiler.stop")) as { profile: CpuProfile }).profile)
        : undefined;
      await context.close();
      const typical = median(samples);
      const worst = Math.max(...samples);
      return [
        {
          figure: "session-open",
          workload: `open a ${REQUESTS}-request session from its log (Chromium, real pages, real server)`,
          unit: "ms",
          median: openMs,
          baselineMedian: floorMs,
          ratio: round(openMs / floorMs, 2),
          target: `≤ ${OPEN_TARGET_MS} ms`,
          status: openMs <= OPEN_TARGET_MS ? "pass" : "miss",
          note: `page.goto → the timeline shows request #${REQUESTS} (the server reads the log and replays it; the page applies the replay and renders); median of ${opens.length} cold opens (slowest ${Math.max(...opens.map((open) => open.wallMs))} ms); on the page's own clock (navigation start → the frame after #${REQUESTS} is in the document) ${pageOpenMs} ms; baseline: a ${REQUESTS_PER_MESSAGE}-request session opened the same way, alternated (the page's own load and the socket, with almost no replay)${buildNote ? `; ${buildNote}` : ""}`,
          details: { openMs, pageOpenMs, floorMs, opens, floors },
        },
        {
          figure: "inspector-select",
          workload: `select a request in a ${REQUESTS}-request session reopened from its log (Chromium, real pages)`,
          unit: "ms",
          median: round(typical, 1),
          baselineMedian: null,
          ratio: null,
          target: `≤ ${TARGET_MS} ms`,
          // The issue states the selection as a median (25 ms then); the slowest is reported beside it.
          status: typical <= TARGET_MS ? "pass" : "miss",
          note: `click → first frame after the inspector shows it; ${samples.length} selections, slowest ${worst.toFixed(0)} ms; the page opened the session (replay of the log) in ${openMs} ms${buildNote ? `; ${buildNote}` : ""}`,
          details: {
            samplesMs: samples.map((value) => round(value, 1)),
            picks,
            openMs,
            ...(pageProfile ? { pageProfile } : {}),
          },
        },
      ];
    } finally {
      await client.close();
      await browser.close();
      await bench.close();
    }
  },
};
