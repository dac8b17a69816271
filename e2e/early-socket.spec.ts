// The page's socket opens from a small inline script before the page's scripts have loaded, and asks for
// the session the tab showed before a reload at once (app/lib/early-socket.ts); the page adopts that
// socket. What a user sees must not change: one connection, one open, the same session, no error.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

const SESSION_KEY = "pseudoclaude-playground-session";

/** Every socket the page opens from now on, with the commands it sends (as parsed JSON). */
function watchSockets(page: Page): { url: string; sent: { type: string; sessionId?: string }[] }[] {
  const sockets: { url: string; sent: { type: string; sessionId?: string }[] }[] = [];
  page.on("websocket", (socket) => {
    const seen = { url: socket.url(), sent: [] as { type: string; sessionId?: string }[] };
    sockets.push(seen);
    socket.on("framesent", (frame) => seen.sent.push(JSON.parse(String(frame.payload))));
  });
  return sockets;
}

test("after a reload the page's one socket asks for the session it showed first, and shows it", async ({
  page,
  workspace,
}) => {
  const { chat, inspector } = workspace;
  await chat.send("hello there");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  const sessionId = await page.evaluate((key) => window.sessionStorage.getItem(key), SESSION_KEY);
  expect(sessionId).toBeTruthy();

  const sockets = watchSockets(page);
  await page.reload();
  await workspace.expectConnected();
  await expect(chat.userTurns()).toHaveCount(1);
  await expect(inspector.timelineEntry(1)).toBeVisible();
  expect(sockets).toHaveLength(1);
  // Before the session list: the server handles a socket's commands in order, so the list finds the
  // session open instead of reading its log a second time.
  expect(sockets[0].sent[0]).toEqual({
    type: "open_session",
    sessionId,
    batchReplay: true,
    batchLive: true,
  });
  expect(sockets[0].sent.filter((command) => command.type === "open_session")).toHaveLength(1);
  await expect(workspace.errorCards()).toHaveCount(0);
});

test("a reload whose session is gone opens the newest instead and shows no error about it", async ({
  page,
  workspace,
}) => {
  const { chat } = workspace;
  await chat.send("hello there");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  const newest = await page.evaluate((key) => window.sessionStorage.getItem(key), SESSION_KEY);
  // A session this tab showed, deleted since (by another tab, or by hand from the sessions folder).
  await page.evaluate((key) => window.sessionStorage.setItem(key, "20260101-000000-0a1b2c3d"), SESSION_KEY);

  const sockets = watchSockets(page);
  await page.reload();
  await workspace.expectConnected();
  await expect(chat.userTurns().first()).toContainText("hello there");
  expect(sockets).toHaveLength(1);
  const opens = sockets[0].sent.filter((command) => command.type === "open_session");
  expect(opens.map((command) => command.sessionId)).toEqual(["20260101-000000-0a1b2c3d", newest]);
  await expect(workspace.errorCards()).toHaveCount(0);
  expect(await page.evaluate((key) => window.sessionStorage.getItem(key), SESSION_KEY)).toBe(newest);
});

test("the served page runs the early socket's script first, before its stylesheet and scripts", async ({
  page,
  workspace,
}) => {
  await workspace.expectConnected();
  const html = await (await page.request.get(new URL("/", page.url()).href)).text();
  const firstScript = html.indexOf("<script");
  expect(html.slice(firstScript, html.indexOf("</script>", firstScript))).toContain(
    "__pseudoclaudeEarlySocket",
  );
  expect(firstScript).toBeLessThan(html.indexOf('rel="stylesheet"'));
  // In the page too, once hydrated: the first script of the document, in <head>, and its text runs once.
  const first = await page.evaluate(() => {
    const script = document.scripts[0];
    const style = document.querySelector('link[rel="stylesheet"]');
    return {
      inHead: script.parentElement === document.head,
      early: script.text.includes("__pseudoclaudeEarlySocket"),
      beforeStyle: Boolean(style && script.compareDocumentPosition(style) & Node.DOCUMENT_POSITION_FOLLOWING),
      // (Next's inline payload scripts carry the text too, as data: they do not run it.)
      copies: [...document.scripts].filter((each) => each.text === script.text).length,
    };
  });
  expect(first).toEqual({ inHead: true, early: true, beforeStyle: true, copies: 1 });
});
