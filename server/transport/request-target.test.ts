// Host confusion beyond a wrong Host value: two Host headers, and absolute-form request targets whose
// authority is not this server (`GET http://evil/ HTTP/1.1`). RFC 9112 §3.2.2: the target's authority
// wins over the Host header, so it must pass the same allowlist.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing/harness.ts";
import { TEST_SCENARIOS } from "./testing/scenarios.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(TEST_SCENARIOS, { watch: false });
});
afterAll(async () => {
  await server.dispose();
});

/** Sends bytes exactly as given and resolves with the status line of the answer. */
function rawStatusLine(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString("latin1")));
    socket.on("end", () => resolve(received.split("\r\n")[0] ?? ""));
    socket.on("error", reject);
    socket.write(text);
  });
}

describe("request target and duplicated Host", () => {
  it("two Host headers are refused even when the first is allowed", async () => {
    const good = `127.0.0.1:${server.port}`;
    for (const [first, second] of [
      [good, "rebind.evil"],
      ["rebind.evil", good],
      [good, good],
    ]) {
      const status = await rawStatusLine(
        server.port,
        `GET / HTTP/1.1\r\nHost: ${first}\r\nHost: ${second}\r\nConnection: close\r\n\r\n`,
      );
      expect(status, `${first} + ${second}`).toMatch(/^HTTP\/1\.1 (400|403) /);
    }
  });

  it("an absolute-form target naming another host is refused; one naming this server is served", async () => {
    const good = `127.0.0.1:${server.port}`;
    const refused = await rawStatusLine(
      server.port,
      `GET http://evil.example/ HTTP/1.1\r\nHost: ${good}\r\nConnection: close\r\n\r\n`,
    );
    expect(refused).toMatch(/^HTTP\/1\.1 403 /);
    const upgrade = await rawStatusLine(
      server.port,
      `GET http://evil.example/ws?token=${server.token} HTTP/1.1\r\nHost: ${good}\r\nOrigin: http://${good}\r\n` +
        "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n" +
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
    );
    expect(upgrade).toMatch(/^HTTP\/1\.1 403 /);
    const served = await rawStatusLine(
      server.port,
      `GET http://${good}/ HTTP/1.1\r\nHost: ${good}\r\nConnection: close\r\n\r\n`,
    );
    expect(served).not.toMatch(/ 403 /);
  });
});

/** Opens a socket, writes `text` (maybe nothing), and resolves with what came back once it closed. */
function untilClosed(port: number, text: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString("latin1")));
    socket.on("close", () => resolve(received));
    socket.on("error", reject);
    if (text) socket.write(text);
  });
}

describe("slow and partial requests", () => {
  it("a browser's spare connection that never sends a byte is closed without a line in the terminal", async () => {
    // Chromium opens a connection ahead of need and may never use it: that is not a client error, and a
    // "client error: Request timeout" line in the user's terminal during a normal demo says otherwise.
    const lines: string[] = [];
    const slow = await startTestServer(TEST_SCENARIOS, {
      watch: false,
      headersTimeoutMs: 500,
      log: (line) => lines.push(line),
    });
    try {
      await untilClosed(slow.port, "");
      await untilClosed(slow.port, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${slow.port}\r\n`);
      // The half-sent request (a slowloris client) is still reported; the idle connection is not.
      expect(lines.filter((line) => line.startsWith("client error"))).toEqual([
        "client error: Request timeout",
      ]);
    } finally {
      await slow.dispose();
    }
  });

  it("a request whose headers never finish is cut off after the headers timeout", async () => {
    const slow = await startTestServer(TEST_SCENARIOS, { watch: false, headersTimeoutMs: 500 });
    try {
      const started = Date.now();
      // One header line, then silence: a slowloris client.
      const closed = await untilClosed(slow.port, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${slow.port}\r\n`);
      expect(closed).toMatch(/^HTTP\/1\.1 408 /);
      // headersTimeout plus Node's check interval (kept short by the server) and a margin for a busy machine.
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await slow.dispose();
    }
  });
});
