// The page's early socket (app/lib/early-socket.ts) against the real server: the inline script's own
// function, run as the page runs it — from its source text (earlySocketScript, as app/page.tsx inlines it)
// — with a real WebSocket client (the `ws` package, which the browser's WebSocket API mirrors), a page
// address and a tab's sessionStorage. What the page relies on: the session the tab showed is asked for
// first and its replay is kept for the hook; with none stored the newest is opened once the list comes;
// a stored session that is gone is dropped without an error reaching the page; nothing is created.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebSocket as WsSocket } from "ws";
import {
  EARLY_SOCKET_GLOBAL,
  SESSION_KEY,
  TOKEN_KEY,
  earlyConnect,
  earlySocketScript,
  firstSessionTarget,
  refusesOpen,
  socketUrl,
  takeEarlySocket,
  tokenInFragment,
  type EarlySocket,
} from "../../app/lib/early-socket.ts";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";

const SCENARIO = "name: hello\nturns:\n  - text: Hello from the early socket.\n";

/** A tab's sessionStorage (the Storage calls the script makes). */
class TabStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
}

let server: TestServer;
let older: string;
let newer: string;

const saved = { window: (globalThis as Record<string, unknown>).window, WebSocket: globalThis.WebSocket };

beforeAll(async () => {
  server = await startTestServer({ "hello.yaml": SCENARIO });
  const client = await TestClient.connect(server);
  older = await client.createSession({ provider: "scripted", scenario: "hello.yaml" });
  await client.sendMessage(older, "hi");
  newer = await client.createSession({ provider: "scripted", scenario: "hello.yaml" });
  await client.sendMessage(newer, "hi again");
  await client.close();
  await server.hub.shutdown();
});
afterAll(async () => {
  await server.dispose();
});
afterEach(() => {
  takeEarlySocket()?.socket.close();
  const global = globalThis as Record<string, unknown>;
  if (saved.window === undefined) delete global.window;
  else global.window = saved.window;
  if (saved.WebSocket === undefined) delete global.WebSocket;
  else global.WebSocket = saved.WebSocket;
});

/**
 * Loads a page whose address is `hash` and whose tab stored `session`, and runs the inline script: from
 * its source text as the page inlines it, or (`direct`) the same function called as the module exports it.
 */
function loadPage(hash: string, session?: string, direct = false): TabStorage {
  const storage = new TabStorage();
  if (session) storage.setItem(SESSION_KEY, session);
  const origin = server.origin;
  (globalThis as Record<string, unknown>).window = {
    location: { hash, protocol: "http:", host: new URL(origin).host },
    sessionStorage: storage,
  };
  // The browser sends its page's origin with the upgrade; the server checks it.
  (globalThis as Record<string, unknown>).WebSocket = class extends WsSocket {
    constructor(url: string) {
      super(url, { origin });
    }
  };
  if (direct)
    earlyConnect(
      { token: TOKEN_KEY, session: SESSION_KEY, global: EARLY_SOCKET_GLOBAL },
      tokenInFragment,
      socketUrl,
      firstSessionTarget,
      refusesOpen,
    );
  else new Function(earlySocketScript())();
  return storage;
}

const early = (): EarlySocket =>
  (globalThis as unknown as { window: Record<string, EarlySocket> }).window[EARLY_SOCKET_GLOBAL]!;

/** Waits until the kept frames hold one that `test` accepts. */
async function frameWhere(test: (message: { type?: string; sessionId?: string }) => boolean) {
  await expect
    .poll(() => early().frames.some((text) => test(JSON.parse(text) as { type?: string })), {
      timeout: 10_000,
    })
    .toBe(true);
}

/** The newest session of the list the script received (a reopen makes a session newer). */
function newestListed(): string {
  const list = early()
    .frames.map(
      (text) => JSON.parse(text) as { type?: string; sessions?: { id: string; updatedAt: string }[] },
    )
    .find((message) => message.type === "session_list");
  return [...(list?.sessions ?? [])].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0]!.id;
}

describe("the early socket", () => {
  it("asks for the session the tab showed first, before the list, and keeps its replay for the hook", async () => {
    loadPage(`#token=${server.token}`, older);
    await frameWhere((message) => message.type === "session_list");
    await frameWhere((message) => message.type === "events" && message.sessionId === older);
    expect(early().openedSession).toBe(older);
    expect(early().listSent).toBe(true);
    // The hook takes it once: the script stops handling frames, and a second take gets nothing.
    const taken = takeEarlySocket();
    expect(taken?.token).toBe(server.token);
    expect(takeEarlySocket()).toBeUndefined();
    taken?.socket.close();
  });

  it("with nothing stored, opens the newest session once the list has come", async () => {
    loadPage(`#token=${server.token}`, undefined, true);
    await frameWhere((message) => message.type === "session_list");
    const target = newestListed();
    await frameWhere((message) => message.type === "events" && message.sessionId === target);
    expect(early().openedSession).toBe(target);
  });

  it("a stored session that is gone: its refusal is dropped and the newest opens instead", async () => {
    loadPage(`#token=${server.token}`, "20990101-000000-deadbeef", true);
    await frameWhere((message) => message.type === "session_list");
    const target = newestListed();
    expect([older, newer]).toContain(target);
    await frameWhere((message) => message.type === "events" && message.sessionId === target);
    expect(early().openedSession).toBe(target);
    expect(early().frames.some((text) => text.startsWith('{"type":"error"'))).toBe(false);
  });

  it("takes the token the tab stored when the address has none, and does nothing without one", async () => {
    const storage = new TabStorage();
    storage.setItem(TOKEN_KEY, server.token);
    loadPage("");
    expect((globalThis as unknown as { window: Record<string, unknown> }).window[EARLY_SOCKET_GLOBAL]).toBe(
      undefined,
    );
    (globalThis as unknown as { window: { sessionStorage: TabStorage } }).window.sessionStorage = storage;
    new Function(earlySocketScript())();
    await frameWhere((message) => message.type === "session_list");
  });
});
