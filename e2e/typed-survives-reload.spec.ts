// Nothing typed is lost to a reload of the tab: a message queued during a run (Enter was pressed on it)
// is still queued afterwards and goes out when the run ends, and a half-typed draft is still in the box.
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
