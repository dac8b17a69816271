// Exported HTML for a 200-request session: a scripted conversation of 40 runs × 5 requests (4 tool calls
// and an answer each) saved with `run --save` (in-process), then exported. Reports the file's size (and
// per request), the JSONL log's size for comparison, and the export time.
import { SecretRedactor } from "../server/providers/redact.ts";
import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { exportSession, readExportedSession } from "../server/export/index.ts";
import { sessionsDirectory } from "../server/session/session-hub.ts";
import { saveScriptedRun } from "../server/export/testing/saved-run.ts";
import { median, round, type Figure, type FigureRow } from "./harness.ts";

const CALLS = [
  "{ name: read_file, input: { path: README.md } }",
  "{ name: list_files, input: { pattern: 'src/*' } }",
  "{ name: search_code, input: { pattern: cents, path: src } }",
  "{ name: read_file, input: { path: src/orders.js } }",
];

export function longScenario(runs: number): string {
  const turns: string[] = [];
  for (let run = 1; run <= runs; run++) {
    for (const [index, call] of CALLS.entries())
      turns.push(`  - text: "Run ${run}, step ${index + 1}: looking."\n    tool_calls:\n      - ${call}`);
    turns.push(`  - text: "Run ${run} done: the files say what the README says."`);
  }
  return `name: long-session\nturns:\n${turns.join("\n")}\n`;
}

export const exportHtmlFigure: Figure = {
  name: "export-html",
  workload: "HTML export of a 200-request session (40 runs × 5 requests, scripted)",
  target: "report file size (usable at 200 requests)",
  async run({ quick }): Promise<FigureRow[]> {
    const runs = quick ? 8 : 40;
    const root = await mkdtemp(path.join(os.tmpdir(), "bench-export-"));
    try {
      const { home, sessionId } = await saveScriptedRun(
        root,
        longScenario(runs),
        Array.from({ length: runs }, (_, index) => `step through the project, pass ${index + 1}`),
      );
      const logBytes = (await stat(path.join(sessionsDirectory(home), `${sessionId}.jsonl`))).size;
      const times: number[] = [];
      let html = "";
      let requests = 0;
      for (let round = 0; round < (quick ? 2 : 5); round++) {
        const started = performance.now();
        const session = await readExportedSession(home, sessionId, new SecretRedactor());
        html = exportSession(session, "html").text;
        times.push(performance.now() - started);
        requests = session.events.filter((record) => record.event.type === "request").length;
      }
      const bytes = Buffer.byteLength(html);
      return [
        {
          figure: "export-html",
          workload: `${requests}-request session → one HTML file`,
          unit: "KiB",
          median: round(bytes / 1024),
          baselineMedian: round(logBytes / 1024),
          ratio: round(bytes / logBytes),
          target: "report",
          status: "report",
          note: `baseline: the session's JSONL log; ${round(bytes / requests / 1024)} KiB per request; export (read + render) median ${round(median(times))} ms`,
          details: { requests, htmlBytes: bytes, logBytes, exportMs: times.map((value) => round(value)) },
        },
      ];
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  },
};
