// A session whose working folder was removed (as a demo copy is when its server stops) says so where the
// user looks: a banner above its still-readable chat, a mark in the session list, no trust question for a
// folder that is not there, a message refused with the reason; and a fresh tab opens a session that can
// run instead of it.
import { cp, rm } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "./fixtures.ts";
import { WorkspacePage } from "./pages/workspace-page.ts";

const SESSION_KEY = "pseudoclaude-playground-session";

test("a session whose folder is gone shows a banner, refuses a message, and a fresh tab skips it", async ({
  page,
  context,
  playground,
  workspace,
}) => {
  const { chat } = workspace;
  await chat.send("hello there");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");

  // A newer session on a folder of its own (with the demo's MCP server, which would ask for trust).
  const gone = path.join(path.dirname(playground.workdir), "gone-copy");
  await cp(path.join(process.cwd(), "examples", "demo-workdir"), gone, { recursive: true });
  await workspace.sessions.newSession();
  await page.getByTestId("new-session-workdir").fill(gone);
  await page.getByTestId("new-session-create").click();
  await expect(page.getByTestId("new-session-dialog")).toBeHidden();
  await workspace.expectConnected();
  // While the folder exists its MCP server asks for trust; the session keeps it untrusted.
  await expect(page.getByTestId("trust-prompt")).toBeVisible();
  await page.getByTestId("trust-folder-keep").click();
  await expect(page.getByTestId("trust-prompt")).toHaveCount(0);
  await chat.send("hello from the folder that goes");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  const goneId = await page.evaluate((key) => window.sessionStorage.getItem(key), SESSION_KEY);
  expect(goneId).toBeTruthy();

  await rm(gone, { recursive: true });
  await page.reload();
  await workspace.expectConnected();
  const banner = page.getByTestId("workdir-gone-banner");
  await expect(banner).toContainText(gone);
  await expect(banner).toContainText("no longer exists");
  await expect(page.getByTestId("workdir-gone-new-session")).toBeVisible();
  // The log stays readable; no trust question for a folder that does not exist.
  await expect(chat.userTurns().first()).toContainText("hello from the folder that goes");
  await expect(page.getByTestId("trust-prompt")).toHaveCount(0);
  await workspace.sessions.open();
  await expect(page.getByTestId(`session-workdir-gone-${goneId}`)).toContainText("folder gone");
  await page.keyboard.press("Escape");

  // A message is refused up front, with create_session's reason.
  await chat.send("one more");
  await expect(page.getByTestId("error-list")).toContainText(`workdir ${gone} cannot be used`);
  await expect(chat.userTurns()).toHaveCount(1);

  // A fresh tab (no stored session) opens the newest session whose folder exists.
  const fresh = new WorkspacePage(await context.newPage());
  await fresh.open(playground.url);
  await expect(fresh.chat.userTurns().first()).toContainText("hello there");
  await expect(fresh.page.getByTestId("workdir-gone-banner")).toHaveCount(0);
});
