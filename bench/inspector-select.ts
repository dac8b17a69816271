// Inspector responsiveness with a 500-request session: the real server plays a scripted session of 50
// messages × 10 model requests (9 read_file calls and an answer each), which writes a real session log;
// a fresh Chromium page then opens that session from its log (the replay a reopen does) and the timeline
// buttons of 20 requests spread over the session are clicked one after another. Each figure is timed in
// the page: from the click to the first animation frame after the inspector shows the selected request
// (so React's render, the commit and the layout are inside it).
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
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
    try {
      await writeFile(path.join(bench.workdir, "README.md"), "# hello\n");
      const sessionId = await client.createSession({ provider: "scripted", scenario: "inspector-500.yaml" });
      for (let message = 1; message <= MESSAGES; message++) {
        const stop = await client.sendMessage(sessionId, `Message ${message}: read the README.`);
        if (stop.reason !== "completed") throw new Error(`message ${message} stopped with ${stop.reason}`);
      }
      // Closed on the server, so the page opens it from its log as a reopened session.
      await bench.server.hub.shutdown();
      const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
      const page = await context.newPage();
      await page.addInitScript({
        content: `window.sessionStorage.setItem(${JSON.stringify(SESSION_STORAGE_KEY)}, ${JSON.stringify(sessionId)});`,
      });
      const opened = Date.now();
      await page.goto(bench.server.url);
      await page.getByTestId(`timeline-request-${REQUESTS}`).waitFor({ timeout: 120_000 });
      const openMs = Date.now() - opened;
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
          baselineMedian: null,
          ratio: null,
          target: `≤ ${OPEN_TARGET_MS} ms`,
          status: openMs <= OPEN_TARGET_MS ? "pass" : "miss",
          note: `page.goto → the timeline shows request #${REQUESTS} (the server reads the log and replays it; the page applies the replay and renders); one open${buildNote ? `; ${buildNote}` : ""}`,
          details: { openMs },
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
