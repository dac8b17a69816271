// WebSocket stream, two rows, both against the same JSON bytes (newline-delimited) over a raw `net`
// socket on loopback:
// 1. transport only: 10,000 text-delta envelopes as the playground sends them
//    (`{type:"event",sessionId,seq,event:{type:"text_delta",...}}`, one JSON text frame each) from a bare
//    `ws` WebSocketServer to a `ws` client;
// 2. the real server: a user message to a scripted session whose answer is 10,000 words, through Runner,
//    Session and the transport (startServer), timed from send_message to the run's stop event; the
//    baseline replays the text_delta frames that run actually sent.
// Server and client share this process on both sides, so both pay the same event-loop sharing.
import net from "node:net";
import { once } from "node:events";
import { performance } from "node:perf_hooks";
import { WebSocket, WebSocketServer } from "ws";
import type { ServerMessage } from "../server/protocol/index.ts";
import { startBenchServer } from "./bench-server.ts";
import { interleave, median, ratioOf, round, type Figure, type FigureRow } from "./harness.ts";
import { ProtocolClient } from "../server/transport/protocol-client.ts";
import { DELTAS, streamScenario } from "./stream-scenario.ts";

const WORDS = [
  "progressive ",
  "disclosure ",
  "keeps ",
  "the ",
  "stable ",
  "system ",
  "small; ",
  "skills ",
  "load ",
  "on demand. ",
];

/** The envelopes of one streamed answer, serialized once so both transports send identical payloads. */
export function deltaEnvelopes(count: number): string[] {
  const payloads: string[] = [];
  for (let seq = 1; seq <= count; seq++) {
    const message: ServerMessage = {
      type: "event",
      sessionId: "bench-session-0001",
      seq,
      event: { type: "text_delta", runId: "run-0001", requestIndex: 1, text: WORDS[seq % WORDS.length] },
    };
    payloads.push(JSON.stringify(message));
  }
  return payloads;
}

interface StreamPair {
  streamOverWebSocket(): Promise<number>;
  streamOverRawSocket(): Promise<number>;
  close(): Promise<void>;
}

async function openWebSocketPair(
  payloads: string[],
): Promise<{ stream(): Promise<number>; close(): Promise<void> }> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await once(server, "listening");
  server.on("connection", (socket) => {
    socket.on("message", () => {
      for (const payload of payloads) socket.send(payload);
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string")
    throw new Error(`unexpected ws address ${String(address)}`);
  const client = new WebSocket(`ws://127.0.0.1:${address.port}`);
  await once(client, "open");
  return {
    stream: () =>
      new Promise<number>((resolve) => {
        let received = 0;
        const started = performance.now();
        const onMessage = () => {
          received++;
          if (received === payloads.length) {
            client.off("message", onMessage);
            resolve(performance.now() - started);
          }
        };
        client.on("message", onMessage);
        client.send("go");
      }),
    close: async () => {
      client.close();
      for (const socket of server.clients) socket.terminate();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

async function openRawSocketPair(
  payloads: string[],
): Promise<{ stream(): Promise<number>; close(): Promise<void> }> {
  const lines = payloads.map((payload) => `${payload}\n`);
  const server = net.createServer((socket) => {
    socket.on("data", () => {
      for (const line of lines) socket.write(line);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (address === null || typeof address === "string")
    throw new Error(`unexpected net address ${String(address)}`);
  const client = net.connect(address.port, "127.0.0.1");
  await once(client, "connect");
  client.setNoDelay(true);
  return {
    stream: () =>
      new Promise<number>((resolve) => {
        let received = 0;
        const started = performance.now();
        const onData = (chunk: Buffer) => {
          // Count message boundaries, the raw-socket equivalent of ws framing.
          for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, index + 1)) received++;
          if (received === payloads.length) {
            client.off("data", onData);
            resolve(performance.now() - started);
          }
        };
        client.on("data", onData);
        client.write("go\n");
      }),
    close: async () => {
      client.destroy();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

export async function openStreamPair(payloads: string[]): Promise<StreamPair> {
  const webSocket = await openWebSocketPair(payloads);
  const raw = await openRawSocketPair(payloads);
  let closing: Promise<void> | undefined;
  return {
    streamOverWebSocket: webSocket.stream,
    streamOverRawSocket: raw.stream,
    // Idempotent: the figure closes early on success and again in its finally.
    close: () =>
      (closing ??= (async () => {
        await webSocket.close();
        await raw.close();
      })()),
  };
}

/** Row 2: the real server streaming a 10,000-word scripted answer to a WebSocket client. */
async function realServerRow(quick: boolean): Promise<FigureRow> {
  const bench = await startBenchServer({ scenarios: { "stream.yaml": streamScenario(1) } });
  const client = await ProtocolClient.connectTo({
    address: `http://127.0.0.1:${bench.server.port}`,
    token: bench.server.token,
    maxPayload: 256 * 1024 * 1024,
  });
  let raw: Awaited<ReturnType<typeof openRawSocketPair>> | undefined;
  try {
    let captured: string[] = [];
    const streamOnce = async (): Promise<number> => {
      // A fresh session per round (outside the timed span), so every round plays the same first turn.
      const sessionId = await client.createSession({ provider: "scripted", scenario: "stream.yaml" });
      const frames: string[] = [];
      const unsubscribe = client.onMessage((message, text) => {
        if (
          message.type === "event" &&
          message.sessionId === sessionId &&
          message.event.type === "text_delta"
        )
          frames.push(text);
      });
      const started = performance.now();
      const stop = await client.sendMessage(sessionId, "Stream the long answer.");
      const elapsed = performance.now() - started;
      unsubscribe();
      if (stop.reason !== "completed" || frames.length !== DELTAS) {
        throw new Error(
          `the run stopped with ${stop.reason} after ${frames.length} text deltas; expected completed after ${DELTAS}`,
        );
      }
      captured = frames;
      return elapsed;
    };
    await streamOnce();
    raw = await openRawSocketPair(captured);
    const samples = await interleave(quick ? 3 : 11, streamOnce, raw.stream, 1);
    const serverMs = median(samples.subject);
    const rawMs = median(samples.baseline);
    const bytes = captured.reduce((total, frame) => total + Buffer.byteLength(frame), 0);
    return {
      figure: "ws-stream",
      workload: `real server: user message → ${DELTAS.toLocaleString("en-US")}-delta scripted answer → ws client`,
      unit: "ms",
      median: round(serverMs),
      baselineMedian: round(rawMs),
      ratio: round(ratioOf(serverMs, rawMs) ?? 0),
      target: "report",
      status: "report",
      note: `${Math.round((DELTAS / serverMs) * 1000).toLocaleString("en-US")} deltas/s end to end (Runner + Session + ws) vs ${Math.round((DELTAS / rawMs) * 1000).toLocaleString("en-US")} msgs/s for the same ${(bytes / 1024).toFixed(0)} KiB of frames over a raw socket`,
      details: {
        deltasPerSecond: Math.round((DELTAS / serverMs) * 1000),
        rawSocketMessagesPerSecond: Math.round((DELTAS / rawMs) * 1000),
        frameBytes: bytes,
        samplesMs: {
          server: samples.subject.map((value) => round(value)),
          rawSocket: samples.baseline.map((value) => round(value)),
        },
      },
    };
  } finally {
    await raw?.close();
    await client.close();
    await bench.close();
  }
}

export const wsStreamFigure: Figure = {
  name: "ws-stream",
  workload: "10,000 text deltas server → ws client (loopback)",
  target: "report msgs/s and ratio vs raw socket",
  async run({ quick }): Promise<FigureRow[]> {
    const count = 10_000;
    const payloads = deltaEnvelopes(count);
    const pair = await openStreamPair(payloads);
    try {
      const samples = await interleave(quick ? 5 : 21, pair.streamOverWebSocket, pair.streamOverRawSocket, 2);
      const webSocketMs = median(samples.subject);
      const rawMs = median(samples.baseline);
      const bytes = payloads.reduce((total, payload) => total + Buffer.byteLength(payload), 0);
      const transportRow: FigureRow = {
        figure: "ws-stream",
        workload: `transport only: ${count.toLocaleString("en-US")} text-delta envelopes (${(bytes / 1024).toFixed(0)} KiB JSON) → ws client`,
        unit: "ms",
        median: round(webSocketMs),
        baselineMedian: round(rawMs),
        ratio: round(ratioOf(webSocketMs, rawMs) ?? 0),
        target: "report",
        status: "report",
        note: `ws ${Math.round((count / webSocketMs) * 1000).toLocaleString("en-US")} msgs/s vs raw socket ${Math.round((count / rawMs) * 1000).toLocaleString("en-US")} msgs/s`,
        details: {
          messages: count,
          payloadBytes: bytes,
          webSocketMessagesPerSecond: Math.round((count / webSocketMs) * 1000),
          rawSocketMessagesPerSecond: Math.round((count / rawMs) * 1000),
          samplesMs: {
            webSocket: samples.subject.map((value) => round(value)),
            rawSocket: samples.baseline.map((value) => round(value)),
          },
        },
      };
      await pair.close();
      return [transportRow, await realServerRow(quick)];
    } finally {
      await pair.close();
    }
  },
};
