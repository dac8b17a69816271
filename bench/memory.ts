// Memory: a real server process holding 50 sessions × 200 messages (100 user messages, each answered by
// the scripted model), driven over its WebSocket from this process — against an empty server started
// the same way. Each side is a fresh child process, measured after full GCs, so RSS is the server's own.
import { fork, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import type { ChildMemory, ChildReady } from "./memory-child.ts";
import { interleave, median, round, type Figure, type FigureRow } from "./harness.ts";
import { ProtocolClient } from "../server/transport/protocol-client.ts";

const CHILD = fileURLToPath(new URL("./memory-child.ts", import.meta.url));
const MiB = 1024 * 1024;

interface Workload {
  sessions: number;
  messagesPerSession: number;
}

function nextChildMessage<T extends { type: string }>(
  child: ChildProcess,
  type: T["type"],
  timeoutMs = 120_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error(`memory child sent no "${type}" within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onMessage = (message: { type: string }) => {
      if (message.type === type) finish(undefined, message as T);
    };
    const onExit = (code: number | null) =>
      finish(new Error(`memory child exited (code ${code}) before sending "${type}"`));
    const finish = (error?: Error, message?: T) => {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
      if (error) reject(error);
      else resolve(message as T);
    };
    child.on("message", onMessage);
    child.on("exit", onExit);
  });
}

function userMessage(session: number, turn: number): string {
  return `Session ${session}, request ${turn}: please review src/handlers/orders.ts and tell me what to fix first, briefly.`;
}

/** Starts a server child, fills it with the workload (or nothing), and returns its memory after GC. */
export async function measureServer(workload: Workload): Promise<ChildMemory> {
  const turns = workload.messagesPerSession / 2;
  const child = fork(CHILD, [String(Math.max(1, turns))], {
    execArgv: ["--expose-gc", "--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  try {
    const ready = await nextChildMessage<ChildReady>(child, "ready");
    const client = await ProtocolClient.connectTo({
      address: `http://127.0.0.1:${ready.port}`,
      token: ready.token,
      maxPayload: 256 * 1024 * 1024,
    });
    const sessionIds: string[] = [];
    // Created one at a time: each create is answered by the next session_opened on this connection.
    for (let session = 0; session < workload.sessions; session++) {
      sessionIds.push(await client.createSession({ provider: "scripted", scenario: ready.scenario }));
    }
    await Promise.all(
      sessionIds.map(async (sessionId, session) => {
        for (let turn = 1; turn <= turns; turn++) {
          const stop = await client.sendMessage(sessionId, userMessage(session, turn));
          if (stop.reason !== "completed")
            throw new Error(
              `session ${sessionId} run ${turn} stopped with ${stop.reason}: ${stop.message ?? ""}`,
            );
        }
      }),
    );
    // The tab goes away; the sessions (history, events, workspaces) stay on the server.
    await client.close();
    child.send({ type: "measure" });
    return await nextChildMessage<ChildMemory>(child, "memory");
  } finally {
    if (child.connected) {
      child.send({ type: "close" });
      await once(child, "exit");
    } else if (child.exitCode === null) {
      child.kill();
    }
  }
}

export const memoryFigure: Figure = {
  name: "memory",
  workload: "50 sessions × 200 messages held by the server",
  target: "report RSS per session",
  async run({ quick }): Promise<FigureRow[]> {
    const workload: Workload = quick
      ? { sessions: 10, messagesPerSession: 200 }
      : { sessions: 50, messagesPerSession: 200 };
    const loaded: ChildMemory[] = [];
    const empty: ChildMemory[] = [];
    await interleave(
      quick ? 1 : 3,
      async () => void loaded.push(await measureServer(workload)),
      async () => void empty.push(await measureServer({ sessions: 0, messagesPerSession: 0 })),
      0,
    );
    const loadedRss = median(loaded.map((memory) => memory.rss));
    const emptyRss = median(empty.map((memory) => memory.rss));
    const perSessionRss = (loadedRss - emptyRss) / workload.sessions;
    const perSessionHeap =
      (median(loaded.map((memory) => memory.heapUsed)) - median(empty.map((memory) => memory.heapUsed))) /
      workload.sessions;
    return [
      {
        figure: "memory",
        workload: `${workload.sessions} sessions × ${workload.messagesPerSession} messages held by the server`,
        unit: "MiB",
        median: round(loadedRss / MiB, 1),
        baselineMedian: round(emptyRss / MiB, 1),
        ratio: round(loadedRss / emptyRss, 2),
        target: "report",
        status: "report",
        note: `RSS per session ${(perSessionRss / MiB).toFixed(2)} MiB (JS heap per session ${(perSessionHeap / MiB).toFixed(2)} MiB), after full GC, each side a fresh server process`,
        details: {
          ...workload,
          rssPerSessionMiB: round(perSessionRss / MiB, 3),
          heapPerSessionMiB: round(perSessionHeap / MiB, 3),
          loaded: loaded.map((memory) => ({
            rssMiB: round(memory.rss / MiB, 1),
            heapUsedMiB: round(memory.heapUsed / MiB, 1),
          })),
          empty: empty.map((memory) => ({
            rssMiB: round(memory.rss / MiB, 1),
            heapUsedMiB: round(memory.heapUsed / MiB, 1),
          })),
        },
      },
    ];
  },
};
