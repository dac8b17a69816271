// Honest approvals (SECURITY.md S13, S14): keystrokes meant for the composer never answer an approval, the
// single-key answers work only on the focused card after its arming delay, and a command that hides
// characters (bidi overrides, zero-width, control) is shown escaped with a warning.
import { existsSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures.ts";
import { expectAccessible } from "./axe.ts";

/** Raw characters that change how a command reads; none of them may reach the page unescaped. */
const hiddenCharacter =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;

test("S14: typing in the composer when an approval appears never answers it", async ({
  page,
  workspace,
  playground,
}) => {
  const { chat } = workspace;
  const composer = page.getByTestId("composer-input");
  // Enter leaves the focus in the (now empty) composer, where the user goes on typing the next message.
  await chat.sendWithEnter("Please clean up the logs folder");
  await expect(chat.approvalCard()).toBeVisible();
  // "a" (allow once), "s" (allow for session) and "d" (deny) all occur; at 40 ms a key the typing lasts
  // well past the card's arming delay.
  const typed = "also keep a backup of app.log, and do it after standup";
  await page.keyboard.type(typed, { delay: 40 });
  await expect(composer).toHaveValue(typed);
  await expect(composer).toBeFocused();
  await expect(chat.approvalCard()).not.toBeFocused();
  await expect(chat.toolCall("run_command")).toHaveAttribute("data-state", "awaiting_approval");
  // The first answer the server gets is this deny: had a keystroke allowed the call, it would have run.
  await chat.deny("typed into the composer");
  await expect(chat.toolCall("run_command")).toHaveAttribute("data-state", "denied");
  await expect(chat.toolCall("run_command").getByTestId("tool-call-denial")).toContainText(
    "typed into the composer",
  );
  expect(existsSync(path.join(playground.workdir, "logs", "app.log"))).toBe(true);
  await expect(composer).toHaveValue(typed);
});

test("single-key answers work only on the focused card, after its arming delay", async ({
  page,
  workspace,
}) => {
  const { chat } = workspace;
  const card = chat.approvalCard();
  await chat.send("Please clean up the logs folder");
  await expect(card).toBeVisible();
  await expect(card).toHaveAttribute("data-armed", "false");
  // Focus outside the card (the conversation was clicked): the keys do nothing.
  await page.getByTestId("chat-turns").click();
  await page.keyboard.press("a");
  await page.keyboard.press("d");
  await expect(card.getByTestId("approval-keys")).toContainText(
    "click it, or Shift+Tab from the message box",
  );
  // A key pressed the moment the card gets focus is ignored (the arming delay), and says so.
  const focused = Date.now();
  await card.focus();
  await page.keyboard.press("a");
  const pressedAfterMs = Date.now() - focused;
  test.info().annotations.push({ type: "focus-to-key", description: `${pressedAfterMs} ms` });
  await expect(card.getByTestId("approval-not-armed")).toBeVisible();
  await expect(chat.toolCall("run_command")).toHaveAttribute("data-state", "awaiting_approval");
  // Typing a reason for denying never answers either.
  await card.getByTestId("approval-deny-reason").fill("");
  await card.getByTestId("approval-deny-reason").pressSequentially("a d s");
  await expect(card.getByTestId("approval-deny-reason")).toHaveValue("a d s");
  await expect(chat.toolCall("run_command")).toHaveAttribute("data-state", "awaiting_approval");
  await card.getByTestId("approval-deny-reason").fill("");
  // Focused and armed: the key answers.
  await chat.focusApproval();
  await page.keyboard.press("d");
  await expect(chat.toolCall("run_command")).toHaveAttribute("data-state", "denied");
  await expect(card).toHaveCount(0);
});

test("keyboard only: Shift+Tab from the composer reaches the card, a answers once armed", async ({
  page,
  workspace,
}) => {
  const { chat } = workspace;
  const card = chat.approvalCard();
  await chat.sendWithEnter("Please clean up the logs folder");
  await expect(card).toBeVisible();
  await expect(page.getByTestId("composer-approval-hint")).toContainText("Shift+Tab");
  await page.keyboard.press("Shift+Tab");
  await expect(card).toBeFocused();
  await expect(card).toHaveAttribute("data-armed", "true");
  await page.keyboard.press("a");
  await expect(card).toHaveCount(0);
  await expect(chat.toolCall("run_command")).toHaveAttribute("data-state", "done");
});

test("S13: a command with bidi, zero-width and control characters is shown escaped with a warning", async ({
  page,
  workspace,
}) => {
  const { chat } = workspace;
  const card = chat.approvalCard();
  await chat.send("run the hidden tidy-up");
  const command = card.getByTestId("approval-command");
  await expect(command).toHaveText("echo safe #\\u202E\\u2066; touch X\\u2069\\u200B\\u001B[2K");
  expect(await command.textContent()).not.toMatch(hiddenCharacter);
  const warning = card.getByTestId("approval-hidden-warning");
  await expect(warning).toContainText("5 hidden characters");
  await expect(warning).toContainText("\\u202E right-to-left override");
  await expect(warning).toContainText("\\u200B zero-width space");
  // The tool card shows the same input escaped, and the whole card carries no raw hidden character.
  const input = chat.toolCall("run_command").getByTestId("tool-call-input");
  await expect(input).toContainText("\\u202E");
  expect(await input.textContent()).not.toMatch(hiddenCharacter);
  expect(await card.textContent()).not.toMatch(hiddenCharacter);
  await workspace.scratchScreenshot("approval-hidden-characters");
  await expectAccessible(page, "an approval with hidden characters");
  await chat.deny("hidden characters");
  await expect(chat.toolCall("run_command")).toHaveAttribute("data-state", "denied");
  await expect(page.getByTestId("header")).toBeVisible();
});

test("S21: a secret in a command is named in place with a warning; the rest of the command shows", async ({
  page,
  workspace,
}) => {
  const { chat } = workspace;
  const card = chat.approvalCard();
  await chat.send("list the models with the api key");
  await expect(card.getByTestId("approval-command")).toHaveText(
    "curl -s -H 'x-api-key: [secret: an API key]' https://api.example.com/v1/models && echo listed",
  );
  const warning = card.getByTestId("approval-secrets");
  await expect(warning).toContainText("Carries a secret");
  await expect(warning.getByTestId("approval-secret")).toHaveText([
    /an API key — from text shaped like an API key/,
  ]);
  expect(await page.content()).not.toContain("e2eKeyValue0123456789abcdef");
  await chat.deny("carries a key");
  await expect(chat.toolCall("run_command")).toHaveAttribute("data-state", "denied");
});
