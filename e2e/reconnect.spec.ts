import type { WebSocketRoute } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { WorkspacePage } from "./pages/workspace-page.ts";

// The socket goes through a Playwright route to the real server so the test can drop it mid-session.
test("after a dropped socket the page reconnects, resumes from its last seq and shows nothing twice", async ({
  page,
  playground,
}) => {
  let pageSide: WebSocketRoute | undefined;
  const commands: { type: string; lastSeq?: number }[] = [];
  await page.routeWebSocket(/\/ws\?token=/, (route) => {
    const server = route.connectToServer();
    pageSide = route;
    route.onMessage((message) => {
      commands.push(JSON.parse(String(message)) as { type: string; lastSeq?: number });
      server.send(message);
    });
  });
  const workspace = new WorkspacePage(page);
  await workspace.open(playground.url);
  await workspace.chat.send("hello there");
  await expect(workspace.chat.stopTurn()).toHaveAttribute("data-reason", "completed");

  pageSide!.close();
  await expect(page.getByTestId("connection-status")).toHaveText("connected");
  await expect
    .poll(() => commands.filter((command) => command.type === "open_session").length)
    .toBeGreaterThan(0);
  const reopened = commands.filter((command) => command.type === "open_session").at(-1)!;
  expect(reopened.lastSeq).toBeGreaterThan(0);

  await expect(workspace.chat.userTurns()).toHaveCount(1);
  await expect(workspace.chat.stopTurn()).toHaveCount(1);
  await workspace.chat.send("profile the sales CSV");
  await expect(workspace.chat.approvalCard()).toBeVisible();
  await workspace.chat.allowOnce();
  await expect(workspace.chat.stopTurn()).toHaveCount(2);
  await expect(workspace.chat.userTurns()).toHaveCount(2);
});
