// Request bytes (log format 3, server/protocol/request-model.ts): a real server plays a session while a
// WebSocket client counts every frame it receives; the session's log is then read back and every request
// resolved to what the Runner built. Two sessions: the demo (a copy of examples/demo-workdir, the repo's
// scenarios picked by `match`, nine messages, 30 requests) and the 500-request one the inspector figure
// opens (50 messages × 10 requests). Reported per session:
// - snapshot bytes: what the log spends on requests (their records, with the blobs they carry first)
//   against those requests in full (each as the Runner built it: system texts, tools, messages and
//   segments) — the "log bytes vs full snapshots" target;
// - the whole log against the same records with requests and payloads in full (what `run --json` prints);
// - log bytes and wire bytes (every frame the client received, text deltas included) per request.
import { cp, readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RequestReader } from "../server/protocol/request-model.ts";
import type { SessionEvent } from "../server/protocol/wire.ts";
import { sessionsDirectory } from "../server/session/session-hub.ts";
import { readSessionLog } from "../server/session/session-log.ts";
import { ProtocolClient } from "../server/transport/protocol-client.ts";
import { startBenchServer } from "./bench-server.ts";
import { round, type Figure, type FigureRow } from "./harness.ts";
import { fiveHundredRequestScenario } from "./inspector-select.ts";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const SNAPSHOT_TARGET = 15;

/** The demo's messages, each matched by one scenario of scenarios/ (30 requests, no approval needed). */
export const DEMO_MESSAGES = [
  "review src/orders.js",
  "explain how src/orders.js works",
  "add a report by month",
  "write the changelog",
  "summarise data/sales.csv",
  "what happened in the incident",
  "draft the release notes",
  "triage the TODO comments",
  "review src/orders.js again",
];

interface SessionBytes {
  requests: number;
  logBytes: number;
  /** Request records of the log (blobs they carry included). */
  requestBytes: number;
  /** The same requests in full, as the Runner built them. */
  fullRequestBytes: number;
  /** Of the requests in full: the cache predictions (`snapshot.cache`, per-request figures, not prompt content). */
  cacheBytes: number;
  /** Of the request records: the predictions as stored (`cacheRef`, or `cache` inline, and their fixed blobs). */
  storedCacheBytes: number;
  /** The log's records with requests and payloads in full and no blobs. */
  fullLogBytes: number;
  wireBytes: number;
}

/** Plays `messages` in a fresh session of a real server; returns what the log and the wire carried. */
async function measureSession(
  scenarios: Record<string, string>,
  setup: (workdir: string) => Promise<void>,
  settings: { scenario?: string },
  messages: string[],
): Promise<SessionBytes> {
  const bench = await startBenchServer({ scenarios });
  try {
    await setup(bench.workdir);
    const client = await ProtocolClient.connectTo({
      address: `http://127.0.0.1:${bench.server.port}`,
      token: bench.server.token,
      maxPayload: 256 * 1024 * 1024,
    });
    let wireBytes = 0;
    client.onMessage((_message, raw) => (wireBytes += Buffer.byteLength(raw)));
    const sessionId = await client.createSession({ provider: "scripted", ...settings });
    for (const message of messages) {
      const stop = await client.sendMessage(sessionId, message);
      if (stop.reason !== "completed")
        throw new Error(`"${message}" stopped with ${stop.reason}: ${stop.message ?? ""}`);
    }
    await client.close();
    await bench.server.hub.shutdown();
    const file = path.join(sessionsDirectory(bench.home), `${sessionId}.jsonl`);
    const text = await readFile(file, "utf8");
    const log = await readSessionLog(file);
    if (log.warnings.length > 0) throw new Error(`the log read with warnings: ${log.warnings[0]}`);
    const reader = new RequestReader();
    let fullRequestBytes = 0;
    let cacheBytes = 0;
    let fullLogBytes = 0;
    let requests = 0;
    for (const record of log.events) {
      reader.observe(record.event);
      const event: SessionEvent = record.event;
      const full =
        event.type === "request" || event.type === "provider_payload" ? reader.runnerEvent(event) : event;
      if (full.type === "request") {
        fullRequestBytes += Buffer.byteLength(JSON.stringify(full.snapshot));
        if (full.snapshot.cache) cacheBytes += Buffer.byteLength(JSON.stringify(full.snapshot.cache));
        requests++;
      }
      fullLogBytes += Buffer.byteLength(JSON.stringify({ ...record, event: full })) + 1;
    }
    const requestLines = text.split("\n").filter((line) => line.includes('"type":"request"'));
    const requestBytes = requestLines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
    const storedCacheBytes = requestLines.reduce((sum, line) => sum + storedCache(line), 0);
    return {
      requests,
      logBytes: Buffer.byteLength(text),
      requestBytes,
      fullRequestBytes,
      cacheBytes,
      storedCacheBytes,
      fullLogBytes,
      wireBytes,
    };
  } finally {
    await bench.close();
  }
}

/** What a request record spends on its cache prediction: the field (key included) and the blobs it names. */
function storedCache(line: string): number {
  const { event } = JSON.parse(line) as {
    event: { snapshot: { cache?: unknown; cacheRef?: { fixed?: string } }; blobs?: { hash: string }[] };
  };
  const { cache, cacheRef } = event.snapshot;
  const field = cacheRef ?? cache;
  if (field === undefined) return 0;
  const blobs = (event.blobs ?? []).filter((blob) => blob.hash === cacheRef?.fixed);
  return (
    Buffer.byteLength(`"${cacheRef ? "cacheRef" : "cache"}":${JSON.stringify(field)},`) +
    blobs.reduce((sum, blob) => sum + Buffer.byteLength(JSON.stringify(blob)) + 1, 0)
  );
}

async function demoSession(): Promise<SessionBytes> {
  const scenariosDir = path.join(REPO_ROOT, "scenarios");
  const scenarios: Record<string, string> = {};
  for (const name of await readdir(scenariosDir))
    if (name.endsWith(".yaml")) scenarios[name] = await readFile(path.join(scenariosDir, name), "utf8");
  return measureSession(
    scenarios,
    (workdir) => cp(path.join(REPO_ROOT, "examples", "demo-workdir"), workdir, { recursive: true }),
    {},
    DEMO_MESSAGES,
  );
}

function fiveHundredSession(): Promise<SessionBytes> {
  return measureSession(
    { "inspector-500.yaml": fiveHundredRequestScenario() },
    (workdir) => writeFile(path.join(workdir, "README.md"), "# hello\n"),
    { scenario: "inspector-500.yaml" },
    Array.from({ length: 50 }, (_unused, index) => `Message ${index + 1}: read the README.`),
  );
}

function rows(name: string, bytes: SessionBytes, snapshotTarget?: number): FigureRow[] {
  const perRequest = (value: number) => Math.round(value / bytes.requests);
  const snapshotRatio = bytes.fullRequestBytes / bytes.requestBytes;
  // The ratio without the cache predictions (in full on one side, as stored on the other) is what content
  // addressing does to the prompt itself; the predictions' own ratio is beside it.
  const contentRatio =
    (bytes.fullRequestBytes - bytes.cacheBytes) / (bytes.requestBytes - bytes.storedCacheBytes);
  const details = {
    ...bytes,
    logBytesPerRequest: perRequest(bytes.logBytes),
    wireBytesPerRequest: perRequest(bytes.wireBytes),
    requestBytesPerRequest: perRequest(bytes.requestBytes),
    fullRequestBytesPerRequest: perRequest(bytes.fullRequestBytes),
  };
  return [
    {
      figure: "request-bytes",
      workload: `${name}, ${bytes.requests} requests: log bytes of requests (records + blobs) vs the requests in full`,
      unit: "bytes/request",
      median: perRequest(bytes.requestBytes),
      baselineMedian: perRequest(bytes.fullRequestBytes),
      ratio: round(bytes.requestBytes / bytes.fullRequestBytes, 4),
      target: snapshotTarget ? `≥ ${snapshotTarget}× smaller` : "report",
      status: snapshotTarget ? (snapshotRatio >= snapshotTarget ? "pass" : "miss") : "report",
      note: `${round(snapshotRatio, 1)}× smaller than the requests in full (${round(contentRatio, 1)}× without the cache predictions, which take ${perRequest(bytes.storedCacheBytes)} bytes/request as stored against ${perRequest(bytes.cacheBytes)} in full); the whole log ${perRequest(bytes.logBytes)} bytes/request (${round(bytes.fullLogBytes / bytes.logBytes, 1)}× smaller than with requests and payloads in full); wire ${perRequest(bytes.wireBytes)} bytes/request (every frame, text deltas included)`,
      details,
    },
  ];
}

export const requestBytesFigure: Figure = {
  name: "request-bytes",
  workload: "log and wire bytes per request: the 30-request demo and a 500-request session",
  target: `≥ ${SNAPSHOT_TARGET}× smaller than full snapshots (30-request demo)`,
  async run(): Promise<FigureRow[]> {
    return [
      ...rows("demo session (examples/demo-workdir, scenarios/)", await demoSession(), SNAPSHOT_TARGET),
      ...rows("500-request session (inspector-select's)", await fiveHundredSession()),
    ];
  },
};
