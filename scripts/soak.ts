// Soak: N concurrent WebSocket sessions each play scripted scenarios in a loop against one real server
// process for S seconds. Counts protocol errors and stop reasons, samples the server's RSS, prints a table.
//   npx tsx scripts/soak.ts [--sessions 20] [--seconds 60]
import { spawn } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ProtocolClient } from "../server/transport/protocol-client.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
// Messages that pick scenarios whose tools run in the demo workdir (load_skill, reads, searches, a skill tool).
const MESSAGES = ["please review src/orders.js", "explain how the code works", "profile the csv", "hello"];

function flag(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}

async function rssBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kilobytes = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kilobytes * 1024;
}

interface ClientStats {
  runs: number;
  protocolErrors: string[];
  stops: Record<string, number>;
  durations: number[];
}

async function playClient(url: URL, token: string, until: number, index: number): Promise<ClientStats> {
  const stats: ClientStats = { runs: 0, protocolErrors: [], stops: {}, durations: [] };
  const client = await ProtocolClient.connectTo({ address: url.origin, token });
  let sessionId: string | undefined;
  let runStarted = 0;
  let resolveDone: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  const sendNext = () => {
    if (Date.now() >= until || sessionId === undefined) {
      void client.close().then(() => resolveDone());
      return;
    }
    runStarted = Date.now();
    client.send({ type: "send_message", sessionId, text: MESSAGES[(index + stats.runs) % MESSAGES.length]! });
  };
  client.onMessage((message) => {
    if (message.type === "error") stats.protocolErrors.push(`${message.code}: ${message.message}`);
    if (message.type !== "event") return;
    const event = message.event;
    if (event.type === "session_opened" && !sessionId) {
      sessionId = message.sessionId;
      sendNext();
    } else if (event.type === "session_error") {
      stats.protocolErrors.push(`session_error ${event.code}: ${event.message}`);
    } else if (event.type === "permission_request" && sessionId !== undefined) {
      client.send({
        type: "approval_answer",
        sessionId,
        callId: event.request.callId,
        answer: { kind: "allow_once" },
      });
    } else if (event.type === "stop") {
      stats.runs++;
      stats.stops[event.reason] = (stats.stops[event.reason] ?? 0) + 1;
      stats.durations.push(Date.now() - runStarted);
      sendNext();
    }
  });
  client.socket.on("close", () => resolveDone());
  client.socket.on("error", (error) => stats.protocolErrors.push(`socket: ${error.message}`));
  client.send({ type: "create_session", settings: {} });
  await done;
  return stats;
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

/** Sizes in bytes of the session logs the server wrote (one JSONL file per session). */
async function logSizes(home: string): Promise<number[]> {
  const directory = path.join(home, ".PseudoClaude", "playground", "sessions");
  const files = (await readdir(directory)).filter((file) => file.endsWith(".jsonl"));
  return Promise.all(files.map(async (file) => (await stat(path.join(directory, file))).size));
}

async function main(): Promise<void> {
  const sessions = flag("sessions", 20);
  const seconds = flag("seconds", 60);
  const scratch = await mkdtemp(path.join(tmpdir(), "playground-soak-"));
  const workdir = path.join(scratch, "work");
  await cp(path.join(ROOT, "examples", "demo-workdir"), workdir, { recursive: true });
  const server = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      path.join(ROOT, "server", "index.ts"),
      "--port",
      "0",
      "--home",
      path.join(scratch, "home"),
      "--workdir",
      workdir,
    ],
    { stdio: ["ignore", "pipe", "inherit"], cwd: ROOT },
  );
  let banner = "";
  const url = await new Promise<string>((resolve, reject) => {
    server.stdout.on("data", (chunk: Buffer) => {
      banner += chunk.toString();
      const match = /PLAYGROUND_URL=(\S+)/.exec(banner);
      if (match) resolve(match[1]);
    });
    server.on("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  const parsed = new URL(url);
  const token = new URLSearchParams(parsed.hash.slice(1)).get("token")!;
  const pid = server.pid!;
  const rssStart = await rssBytes(pid);
  let rssPeak = rssStart;
  const sampler = setInterval(() => {
    rssBytes(pid).then(
      (rss) => (rssPeak = Math.max(rssPeak, rss)),
      () => undefined,
    );
  }, 250);
  console.log(`soak: ${sessions} sessions × ${seconds} s against ${parsed.host} (server pid ${pid})`);
  const until = Date.now() + seconds * 1000;
  const results = await Promise.all(
    Array.from({ length: sessions }, (_, index) => playClient(parsed, token, until, index)),
  );
  clearInterval(sampler);
  const rssEnd = await rssBytes(pid);
  server.kill("SIGTERM");
  await new Promise((resolve) => server.on("exit", resolve));
  const sizes = await logSizes(path.join(scratch, "home"));
  await rm(scratch, { recursive: true, force: true });

  const runs = results.reduce((sum, result) => sum + result.runs, 0);
  const errors = results.flatMap((result) => result.protocolErrors);
  const stops: Record<string, number> = {};
  for (const result of results)
    for (const [reason, count] of Object.entries(result.stops)) stops[reason] = (stops[reason] ?? 0) + count;
  const durations = results.flatMap((result) => result.durations);
  const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const rows: [string, string][] = [
    ["sessions", String(sessions)],
    ["duration", `${seconds} s`],
    ["runs", `${runs} (${(runs / seconds).toFixed(1)}/s)`],
    [
      "stop reasons",
      Object.entries(stops)
        .map(([reason, count]) => `${reason} ${count}`)
        .join(", "),
    ],
    ["protocol errors", String(errors.length)],
    ["run time p50 / p95", `${percentile(durations, 0.5)} ms / ${percentile(durations, 0.95)} ms`],
    [
      "log bytes per session avg / max",
      `${megabytes(sizes.reduce((sum, size) => sum + size, 0) / Math.max(1, sizes.length))} / ` +
        `${megabytes(Math.max(0, ...sizes))} (${sizes.length} logs, ` +
        `${megabytes((sizes.reduce((sum, size) => sum + size, 0) / Math.max(1, sizes.length)) * (60 / seconds))} per session per minute)`,
    ],
    [
      "server RSS start / peak / end",
      `${megabytes(rssStart)} / ${megabytes(rssPeak)} / ${megabytes(rssEnd)}`,
    ],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  for (const [label, value] of rows) console.log(`${label.padEnd(width)}  ${value}`);
  for (const error of errors.slice(0, 10)) console.log(`  error: ${error}`);
  const failed = errors.length > 0 || Object.keys(stops).some((reason) => reason !== "completed");
  process.exitCode = failed ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
