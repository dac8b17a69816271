// Nothing typed is lost to a reload of the tab: a message queued during a run (Enter was pressed on it)
// is still queued afterwards and goes out when the run ends, and a half-typed draft is still in the box;
// and a message typed before the page has a session is sent once it has one, never dropped.
import { expect, test } from "./fixtures.ts";

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

test("a message typed the moment the page opens is sent, not dropped", async ({ page, playground }) => {
  await page.goto(playground.url);
  const input = page.getByTestId("composer-input");
  // No waiting for the session: the box takes the message only once it has somewhere to send it.
  await input.fill("hello from the first second");
  await input.press("Enter");
  await expect(page.getByTestId("turn-user").last()).toHaveText("hello from the first second");
  await expect(input).toHaveValue("");
});
