// The page as the real server sends it: the early socket's inline script (app/lib/early-socket.ts, which
// Next writes in <body> where app/page.tsx renders it) comes first in <head>, before the stylesheet an
// inline script waits for and the chunk scripts, and runs once; the element React hydrates stays where
// it was, empty. The page is the shape Next's export writes, with the script's real text.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EARLY_SOCKET_SCRIPT_ID, earlySocketScript } from "../../app/lib/early-socket.ts";
import { EARLY_SCRIPT_ID, earlyScriptFirst } from "./page-html.ts";
import { rawRequest, startTestServer, type TestServer } from "./testing/harness.ts";

const SCRIPT = earlySocketScript();

/** A page as `next build` exports app/page.tsx: resources in <head>, the inline script in <body>. */
const EXPORTED =
  '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>' +
  '<meta name="viewport" content="width=device-width, initial-scale=1"/>' +
  '<link rel="stylesheet" href="/_next/static/chunks/a.css" data-precedence="next"/>' +
  '<script src="/_next/static/chunks/b.js" async=""></script><title>PseudoClaude Playground</title></head>' +
  `<body><div hidden=""><!--$--><!--/$--></div><script id="${EARLY_SOCKET_SCRIPT_ID}">${SCRIPT}</script>` +
  '<div class="workspace"></div><script>self.__next_f=self.__next_f||[]</script></body></html>';

let server: TestServer;
const get = (route: string, method = "GET") =>
  rawRequest(server.port, { method, path: route, headers: { Host: `localhost:${server.port}` } });

beforeAll(async () => {
  server = await startTestServer({}, { watch: false });
  const out = path.join(server.root, "out");
  await mkdir(out, { recursive: true });
  await writeFile(path.join(out, "index.html"), EXPORTED);
  await writeFile(
    path.join(out, "plain.html"),
    "<!DOCTYPE html><html><head></head><body><script>x()</script></body></html>",
  );
});
afterAll(async () => {
  await server.dispose();
});

describe("the page as served", () => {
  it("names the script by the id the page gives it", () => {
    expect(EARLY_SCRIPT_ID).toBe(EARLY_SOCKET_SCRIPT_ID);
  });

  it("runs the early socket first: its script opens <head>, before the stylesheet and the chunks", async () => {
    const page = await get("/");
    expect(page.status).toBe(200);
    const html = page.body;
    const firstScript = html.indexOf("<script");
    expect(html.slice(firstScript)).toMatch(new RegExp(`^<script>${escape(SCRIPT)}</script>`));
    // After the charset declaration (within the first 1,024 bytes), before anything it could wait for.
    expect(html.indexOf('<meta charSet="utf-8"/>')).toBeLessThan(firstScript);
    expect(firstScript).toBeLessThan(html.indexOf('rel="stylesheet"'));
    expect(firstScript).toBeLessThan(html.indexOf("</head>"));
    // Once: the element React hydrates is where the page rendered it, with nothing to run.
    expect(html.split(SCRIPT)).toHaveLength(2);
    expect(html).toContain(
      `<div hidden=""><!--$--><!--/$--></div><script id="${EARLY_SOCKET_SCRIPT_ID}"></script><div class="workspace">`,
    );
    expect(Number(page.headers["content-length"])).toBe(Buffer.byteLength(html));
    expect(page.headers["content-security-policy"]).toContain("script-src 'self' 'unsafe-inline'");
    expect(page.headers["cache-control"]).toBe("no-store");
    const head = await get("/", "HEAD");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    expect(head.headers["content-length"]).toBe(page.headers["content-length"]);
  });

  it("sends a page without the early socket as it is", async () => {
    const plain = await get("/plain");
    expect(plain.body).toBe("<!DOCTYPE html><html><head></head><body><script>x()</script></body></html>");
    expect(earlyScriptFirst(EXPORTED.replace("<head>", ""))).toBe(EXPORTED.replace("<head>", ""));
    const served = earlyScriptFirst(EXPORTED);
    expect(earlyScriptFirst(served)).toBe(served);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
