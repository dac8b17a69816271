// Nothing typed is lost, and the view follows: the chat keeps the newest output on screen after a tall
// answer unless the reader scrolled up (then a "new output" pill), sending returns to the bottom, Enter
// during a run queues the message (removable, sent when the run ends, or Stop & send), errors count up
// and stay with their session, and after a server restart the new address pasted into the same tab
// reconnects — a wrong token and a missing one saying different things.
import type { Locator, Page } from "@playwright/test";
import { writeFile } from "node:fs/promises";
import { e2eScenarios, expect, startPlayground, test } from "./fixtures.ts";
import { WorkspacePage } from "./pages/workspace-page.ts";

/** Scrolls the conversation up the way a reader does: the mouse wheel over it. */
async function scrollChatUp(page: Page) {
  const turns = page.getByTestId("chat-turns");
  const box = (await turns.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -5000);
  await expect.poll(() => turns.evaluate((element) => element.scrollTop)).toBeLessThan(50);
}

/** Wholly inside the chat's visible area (not only "in the page"). */
async function expectOnScreen(page: Page, target: Locator) {
  await expect(target).toBeInViewport({ ratio: 1 });
  const turns = (await page.getByTestId("chat-turns").boundingBox())!;
  const box = (await target.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(turns.y + turns.height + 1);
}

test("the chat follows a tall answer to its end, a reader who scrolled up gets a pill, sending returns to the bottom", async ({
  page,
  workspace,
}) => {
  const { chat } = workspace;
  await chat.sendWithEnter("a tall answer please");
  await expect(chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
  // The newest output is on screen without the reader touching anything.
  await expectOnScreen(page, chat.assistantTexts().last());
  await expect(chat.assistantTexts().last()).toHaveText("The last line of the tall answer.");
  await expectOnScreen(page, chat.stopTurn().last());
  await expect(page.getByTestId("chat-new-output")).toHaveCount(0);

  // A reader who scrolls up keeps their place; the new output is announced, not forced on them.
  await chat.sendWithEnter("another tall answer");
  await expect(page.getByTestId("chat-stop")).toBeVisible();
  await scrollChatUp(page);
  await expect(chat.stopTurn()).toHaveCount(2);
  const pill = page.getByTestId("chat-new-output");
  await expect(pill).toBeVisible();
  await expect(chat.stopTurn().last()).not.toBeInViewport();
  await workspace.scratchScreenshot("chat-new-output-pill");
  await pill.click();
  await expectOnScreen(page, chat.stopTurn().last());
  await expect(pill).toHaveCount(0);

  // Sending always brings the conversation back to its bottom, wherever the reader was.
  await scrollChatUp(page);
  await chat.sendWithEnter("hello");
  await expect(chat.stopTurn()).toHaveCount(3);
  await expectOnScreen(page, chat.userTurns().last());
  await expectOnScreen(page, chat.stopTurn().last());
});

test("Enter during a run queues the message: shown, removable, sent when the run ends or after Stop & send", async ({
  page,
  workspace,
}) => {
  const { chat } = workspace;
  const input = page.getByTestId("composer-input");
  const queued = page.getByTestId("queued-message");

  // Sent when the run ends.
  await chat.sendWithEnter("a tall answer please");
  await expect(page.getByTestId("chat-stop")).toBeVisible();
  await input.fill("hello once it is done");
  await input.press("Enter");
  await expect(input).toHaveValue("");
  await expect(queued).toHaveCount(1);
  await expect(queued.getByTestId("queued-message-text")).toHaveText("hello once it is done");
  await expect(workspace.errorCards()).toHaveCount(0);
  await expect(chat.userTurns()).toHaveText(["a tall answer please", "hello once it is done"]);
  await expect(chat.stopTurn()).toHaveCount(2);
  await expect(chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
  await expect(queued).toHaveCount(0);

  // Removable; and Stop & send ends a long run first.
  await chat.sendWithEnter("slow: please wait for the long job");
  await chat.allowOnce();
  await expect(chat.toolCall("run_command")).toHaveAttribute("data-state", "running");
  await input.fill("hello again");
  await input.press("Enter");
  await input.fill("a second thought");
  await page.getByTestId("chat-queue").click();
  await expect(queued.getByTestId("queued-message-text")).toHaveText(["hello again", "a second thought"]);
  await workspace.scratchScreenshot("chat-queued-messages");
  await queued.nth(1).getByTestId("queued-remove").click();
  await expect(queued).toHaveCount(1);
  await queued.getByTestId("queued-stop-and-send").click();
  await expect(chat.stopTurn().nth(2)).toHaveAttribute("data-reason", "canceled");
  await expect(chat.userTurns().last()).toHaveText("hello again");
  await expect(chat.stopTurn()).toHaveCount(4);
  await expect(chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
  await expect(queued).toHaveCount(0);
  await expect(chat.userTurns()).not.toContainText(["a second thought"]);
  await expect(workspace.errorCards()).toHaveCount(0);
});

test("an error counts up on one card and stays with its session", async ({ page, workspace }, testInfo) => {
  const broken = testInfo.outputPath("broken.yaml");
  await writeFile(broken, "name: broken\nturns:\n  - txt: hi\n");
  const importBroken = async () => {
    await page.getByTestId("session-menu").click();
    await page.getByTestId("session-import-scenario-file").setInputFiles(broken);
  };
  await importBroken();
  const card = workspace.errorCards();
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("broken.yaml: turns[0].txt is not a known field");
  await importBroken();
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("×2");

  const [first] = await workspace.sessions.ids();
  await (await workspace.sessions.newSession()).getByTestId("new-session-create").click();
  await expect(workspace.sessions.button()).toContainText("New session");
  await expect(card).toHaveCount(0);
  await workspace.sessions.open();
  await workspace.sessions.item(first).click();
  await expect(card).toHaveCount(1);
});

test("after a restart the new address pasted into the same tab reconnects; wrong and missing tokens say different things", async ({
  page,
  browser,
}) => {
  const first = await startPlayground(e2eScenarios);
  let second: Awaited<ReturnType<typeof startPlayground>> | undefined;
  try {
    const workspace = new WorkspacePage(page);
    await workspace.open(first.playground.url);
    await workspace.chat.send("hello");
    await expect(workspace.chat.stopTurn()).toHaveAttribute("data-reason", "completed");

    // The server restarts on the same port with a new token, as `npm start` does.
    await first.kill();
    second = await startPlayground(e2eScenarios, {}, { again: first.playground });
    const wrong = page.getByTestId("wrong-token");
    await expect(wrong).toContainText("The server was restarted");
    await expect(page.getByTestId("connection-status")).toHaveText("token of an earlier start");
    await workspace.scratchScreenshot("wrong-token");

    // What the banner says to do: paste the new address into this tab. Only the fragment changes.
    await page.goto(second.playground.url);
    await workspace.expectConnected();
    await expect(wrong).toHaveCount(0);
    await expect(workspace.chat.userTurns()).toHaveText(["hello"]);
    await workspace.chat.send("hello again");
    await expect(workspace.chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");

    // A tab that never had a token says that instead, and the address with the token connects it.
    const fresh = await browser.newPage();
    await fresh.goto(second.playground.origin);
    await expect(fresh.getByTestId("no-token")).toContainText("This page needs the start token");
    await expect(fresh.getByTestId("wrong-token")).toHaveCount(0);
    await fresh.goto(second.playground.url);
    await new WorkspacePage(fresh).expectConnected();
    await fresh.close();
  } finally {
    await second?.stop();
    await first.stop();
  }
});
