import { expect, test } from "./fixtures.ts";

test("Deny with a reason: the card shows the denial and the model is told", async ({ page, workspace }) => {
  const { chat, inspector } = workspace;
  await chat.send("Please clean up the logs folder");
  await expect(chat.approvalCard().getByTestId("approval-command")).toHaveText("rm -rf logs");
  await chat.deny("keep the logs for the incident review");
  await expect(chat.toolCall("run_command")).toHaveAttribute("data-state", "denied");
  await expect(chat.toolCall("run_command").getByTestId("tool-call-denial")).toContainText(
    "keep the logs for the incident review",
  );
  await expect(chat.assistantTexts().last()).toHaveText("Understood, I did not delete anything.");
  // What the model was given next: the denial as a tool result in request #2's messages.
  await inspector.selectRequest(2);
  const messages = await inspector.pane("messages");
  await expect(messages.getByTestId("pane-message").last()).toContainText(/denied/i);
  await expect(messages.getByTestId("pane-message").last()).toContainText(
    "keep the logs for the incident review",
  );
  await workspace.screenshot("denied");
});

test("keyboard: a allows once when the card has the focus and is armed", async ({ page, workspace }) => {
  const { chat } = workspace;
  await chat.send("Please clean up the logs folder");
  await expect(chat.approvalCard()).toBeVisible();
  // Focus outside the card: the key does nothing (the card never answers keys meant elsewhere).
  await page.getByTestId("chat-turns").click();
  await page.keyboard.press("a");
  await expect(chat.approvalCard()).not.toBeFocused();
  await expect(chat.toolCall("run_command")).toHaveAttribute("data-state", "awaiting_approval");
  await chat.answerWithKey("a");
  await expect(chat.approvalCard()).toHaveCount(0);
  await expect(chat.toolCall("run_command")).toHaveAttribute("data-state", "done");
});

test("Stop kills a long-running tool and the run ends canceled", async ({ page, workspace }) => {
  const { chat } = workspace;
  await chat.send("slow: please wait for the long job");
  await chat.allowOnce();
  await expect(chat.toolCall("run_command")).toHaveAttribute("data-state", "running");
  await workspace.screenshot("running-tool");
  await chat.stop();
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "canceled");
  await expect(chat.toolCall("run_command")).not.toHaveAttribute("data-state", "running");
  await expect(page.getByTestId("chat-send")).toBeVisible();
});
