// Nothing typed is lost to a reload of the tab: a message queued during a run (Enter was pressed on it)
// is still queued afterwards and goes out when the run ends, and a half-typed draft is still in the box;
// a deny reason typed into an approval card and the manual composer's answer (its text and the tool
// calls added) are still there too, and are forgotten once used or once their card is gone; and a
// message typed before the page has a session is sent once it has one, never dropped.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

/** The tab's kept deny reasons and manual answers (lib/typed-storage.ts keys): none once each is used. */
function keptAnswers(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Object.keys(window.sessionStorage).filter((key) => key.includes("pseudoclaude-playground-typed")),
  );
}

test("a queued message and a draft survive a reload during a run", async ({ page, workspace }) => {
  const { chat } = workspace;
  const input = page.getByTestId("composer-input");
  const queued = page.getByTestId("queued-message");

  await chat.sendWithEnter("slow: please wait for the long job");
  await chat.allowOnce();
  await expect(chat.toolCall("run_command")).toHaveAttribute("data-state", "running");
  await input.fill("hello once it is done");
  await input.press("Enter");
  await expect(queued.getByTestId("queued-message-text")).toHaveText("hello once it is done");
  await input.fill("half a thought");

  await page.reload();
  await expect(queued.getByTestId("queued-message-text")).toHaveText("hello once it is done");
  await expect(input).toHaveValue("half a thought");

  // The run still goes on on the server; Stop & send ends it and sends the queued message.
  await queued.getByTestId("queued-stop-and-send").click();
  await expect(chat.userTurns().last()).toHaveText("hello once it is done");
  await expect(chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
  await expect(queued).toHaveCount(0);
  await expect(input).toHaveValue("half a thought");
});

test("a deny reason typed into an approval card survives a reload and is forgotten once used", async ({
  page,
  workspace,
}) => {
  const { chat } = workspace;
  await chat.send("Please clean up the logs folder");
  const reason = chat.approvalCard().getByTestId("approval-deny-reason");
  await reason.fill("keep the logs for the incident review");

  await page.reload();
  await expect(chat.approvalCard().getByTestId("approval-command")).toHaveText("rm -rf logs");
  await expect(reason).toHaveValue("keep the logs for the incident review");
  await chat.approvalCard().getByTestId("approval-deny").click();
  await expect(chat.toolCall("run_command").getByTestId("tool-call-denial")).toContainText(
    "keep the logs for the incident review",
  );
  await expect(chat.approvalCard()).toHaveCount(0);
  await expect.poll(() => keptAnswers(page)).toEqual([]);
});

test("a deny reason is forgotten when its card goes with the run stopped", async ({ page, workspace }) => {
  const { chat } = workspace;
  await chat.send("Please clean up the logs folder");
  await chat.approvalCard().getByTestId("approval-deny-reason").fill("not now");
  await expect.poll(() => keptAnswers(page)).toHaveLength(1);
  await chat.stop();
  await expect(chat.approvalCard()).toHaveCount(0);
  await expect.poll(() => keptAnswers(page)).toEqual([]);
});

test("each session's card keeps its own deny reason when the page switches between them", async ({
  page,
  workspace,
}) => {
  const { chat, sessions } = workspace;
  const reason = chat.approvalCard().getByTestId("approval-deny-reason");
  await chat.send("Please clean up the logs folder");
  await reason.fill("reason for the first session");
  const [first] = await sessions.ids();
  await (await sessions.newSession()).getByTestId("new-session-create").click();
  await expect(sessions.button()).toContainText("New session");
  // The same scenario asks for the same command (maybe under the same call id): its card starts empty.
  await chat.send("Please clean up the logs folder");
  await expect(chat.approvalCard().getByTestId("approval-command")).toHaveText("rm -rf logs");
  await expect(reason).toHaveValue("");
  await reason.fill("reason for the second session");
  await sessions.open();
  await sessions.item(first).click();
  await expect(reason).toHaveValue("reason for the first session");
  await page.reload();
  await expect(reason).toHaveValue("reason for the first session");
});

test("the manual composer's text and added tool calls survive a reload and are forgotten once sent", async ({
  page,
  workspace,
}) => {
  const { chat } = workspace;
  await workspace.newManualSession();
  await chat.send("Summarise data/sales.csv for me");
  const composer = page.getByTestId("manual-composer");
  await expect(composer).toContainText("request #1");
  await composer.getByTestId("manual-tool-select").selectOption("load_skill");
  await composer.getByTestId("manual-tool-form-field-name").fill("csv-report");
  await composer.getByTestId("manual-tool-form-submit").click();
  await expect(composer.getByTestId("manual-calls")).toContainText("load_skill");
  await composer.getByTestId("manual-text").fill("I will load\nthe csv-report skill.");

  await page.reload();
  await expect(composer).toContainText("request #1");
  await expect(composer.getByTestId("manual-text")).toHaveValue("I will load\nthe csv-report skill.");
  await expect(composer.getByTestId("manual-calls")).toContainText("csv-report");
  await composer.getByTestId("manual-send").click();
  await expect(chat.toolCall("load_skill")).toHaveAttribute("data-state", "done");
  await expect(composer).toContainText("request #2");
  // The next request starts empty: the answer sent to #1 is not offered again.
  await expect(composer.getByTestId("manual-text")).toHaveValue("");
  await expect(composer.getByTestId("manual-calls")).toHaveCount(0);
  await expect.poll(() => keptAnswers(page)).toEqual([]);
});

test("a message typed the moment the page opens is sent, not dropped", async ({ page, playground }) => {
  await page.goto(playground.url);
  const input = page.getByTestId("composer-input");
  // No waiting for the session: the box takes the message only once it has somewhere to send it.
  await input.fill("hello from the first second");
  await input.press("Enter");
  await expect(page.getByTestId("turn-user").last()).toHaveText("hello from the first second");
  await expect(input).toHaveValue("");
});
