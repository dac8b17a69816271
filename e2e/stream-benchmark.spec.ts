// Benchmark: 10,000 streamed text deltas must render without freezing the tab. A small stand-in server
// serves the real built pages (out/) and speaks the real wire protocol, so only the page is measured:
// it pushes the deltas as fast as the socket takes them; the page records its long tasks.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { WebSocketServer, type WebSocket } from "ws";
import type { ServerMessage, SessionEvent } from "../server/protocol/index.ts";
import { expect, test } from "@playwright/test";

const outDir = fileURLToPath(new URL("../out/", import.meta.url));
const deltaCount = 10_000;
const contentTypes: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
  ".txt": "text/plain",
};

function streamSession(socket: WebSocket) {
  let seq = 0;
  const send = (event: SessionEvent) =>
    socket.send(
      JSON.stringify({ type: "event", sessionId: "bench", seq: ++seq, event } satisfies ServerMessage),
    );
  const settings = {
    workdir: "/bench",
    provider: "scripted",
    model: "scripted",
    permissionMode: "default",
    disclosure: "progressive",
  } as const;
  send({
    type: "session_opened",
    session: {
      id: "bench",
      title: "bench",
      createdAt: "2026-12-02T00:00:00Z",
      updatedAt: "2026-12-02T00:00:00Z",
      settings,
      messageCount: 0,
      running: true,
    },
    history: [],
    activeSkills: [],
  });
  send({
    type: "catalog_snapshot",
    catalog: { skills: [], warnings: [], removed: [], shadowed: [], lint: [] },
    visibleTools: [],
    registeredTools: [],
  });
  send({ type: "run_started", runId: "r1", userMessage: "stream a lot" });
  let sent = 0;
  const pump = () => {
    for (let batch = 0; batch < 200 && sent < deltaCount; batch += 1, sent += 1) {
      send({ type: "text_delta", runId: "r1", requestIndex: 1, text: `w${sent} ` });
    }
    if (sent < deltaCount) setImmediate(pump);
    else send({ type: "stop", runId: "r1", reason: "completed", iterations: 1 });
  };
  pump();
}

async function startStandIn(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(async (request, response) => {
    const pathname = new URL(request.url ?? "/", "http://x").pathname;
    const file = path.join(outDir, pathname === "/" ? "index.html" : pathname);
    try {
      const body = await readFile(file);
      response.writeHead(200, {
        "content-type": contentTypes[path.extname(file)] ?? "application/octet-stream",
      });
      response.end(body);
    } catch {
      response.writeHead(404);
      response.end();
    }
  });
  const sockets = new WebSocketServer({ server, path: "/ws" });
  sockets.on("connection", (socket) => {
    socket.send(
      JSON.stringify({
        type: "hello",
        serverVersion: "bench",
        providers: [],
        defaultWorkdir: "/bench",
      } satisfies ServerMessage),
    );
    socket.on("message", (data) => {
      const command = JSON.parse(String(data)) as { type: string };
      if (command.type === "list_sessions")
        socket.send(JSON.stringify({ type: "session_list", sessions: [] } satisfies ServerMessage));
      if (command.type === "create_session") streamSession(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const close = async () => {
    for (const client of sockets.clients) client.terminate();
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) =>
      server.close((error) => (error ? reject(error) : resolve())),
    );
  };
  return { url: `http://127.0.0.1:${port}/#token=00`, close };
}

test("10,000 streamed text deltas render without freezing the tab", async ({ page }, testInfo) => {
  const standIn = await startStandIn();
  try {
    await page.addInitScript(() => {
      const record = { longest: 0, total: 0, count: 0 };
      (window as unknown as { __longTasks: typeof record }).__longTasks = record;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          record.longest = Math.max(record.longest, entry.duration);
          record.total += entry.duration;
          record.count += 1;
        }
      }).observe({ type: "longtask", buffered: true });
    });
    const started = Date.now();
    await page.goto(standIn.url);
    await expect(page.getByTestId("turn-stop")).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId("assistant-text")).toContainText(`w${deltaCount - 1}`);
    const elapsedMs = Date.now() - started;
    const textLength = await page
      .getByTestId("assistant-text")
      .evaluate((element) => element.textContent?.length ?? 0);
    const longTasks = await page.evaluate(
      () =>
        (window as unknown as { __longTasks: { longest: number; total: number; count: number } }).__longTasks,
    );
    const summary = `${deltaCount} deltas (${textLength} chars) rendered in ${elapsedMs} ms from page load; long tasks: ${longTasks.count}, longest ${Math.round(longTasks.longest)} ms, total ${Math.round(longTasks.total)} ms`;
    console.log(summary);
    testInfo.annotations.push({ type: "benchmark", description: summary });
    // "Not freezing": no single task blocks the page for as long as half a second.
    expect(longTasks.longest).toBeLessThan(500);
  } finally {
    await standIn.close();
  }
});
