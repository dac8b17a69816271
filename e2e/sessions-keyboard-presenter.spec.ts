// What a presenter and a returning user rely on: deleting a session (with a confirmation), driving the
// approval card and Stop from the keyboard alone, presenter mode on a 1280×720 projector, and a new-session
// dialog that says what to set when a provider is not configured.
import { expect, test } from "./fixtures.ts";

// An empty key means "not configured", whatever the machine running the tests has in its environment.
test.use({ serverEnv: { ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "", OPENAI_BASE_URL: "" } });

test("delete a session from the picker: asks first, Keep keeps it, Delete removes it and opens another", async ({
  page,
  workspace,
}) => {
  const { chat, sessions } = workspace;
  await chat.send("hello");
  await expect(chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
  const [first] = await sessions.ids();
  // A second session, which becomes the open one.
  await (await sessions.newSession()).getByTestId("new-session-create").click();
  await expect(sessions.button()).toContainText("New session");
  const ids = await sessions.ids();
  expect(ids).toHaveLength(2);
  const second = ids.find((id) => id !== first)!;

  // Keep: nothing happens.
  let confirmation = await sessions.askDelete(first);
  await expect(confirmation).toContainText("cannot be undone");
  await workspace.screenshot("session-delete-confirm");
  await confirmation.getByTestId("session-delete-no").click();
  await expect(confirmation).toHaveCount(0);
  await expect(sessions.item(first)).toBeVisible();

  // Delete the open session: the page moves to the remaining one instead of going blank.
  confirmation = await sessions.askDelete(second);
  await confirmation.getByTestId("session-delete-yes").click();
  await expect(sessions.item(second)).toHaveCount(0);
  await expect(sessions.button()).toContainText("hello");
  await expect(page.getByTestId("skill-list")).toBeVisible();
  await expect(chat.userTurns()).toHaveText(["hello"]);

  // The deletion reached the server: a reload lists one session.
  await page.reload();
  await workspace.expectConnected();
  expect(await sessions.ids()).toEqual([first]);
});

test("keyboard only: Shift+Tab after Enter reaches the approval card, a answers it, Esc stops a long tool", async ({
  page,
  workspace,
}) => {
  const { chat } = workspace;
  await chat.sendWithEnter("Please clean up the logs folder");
  await expect(chat.approvalCard()).toBeVisible();
  // The focus stays in the composer; Shift+Tab moves it to the card, whose keys arm a moment later.
  await page.keyboard.press("Shift+Tab");
  await expect(chat.approvalCard()).toBeFocused();
  await expect(chat.approvalCard()).toHaveAttribute("data-armed", "true");
  await expect(chat.approvalCard().getByTestId("approval-keys")).toBeVisible();
  await page.keyboard.press("a");
  await expect(chat.approvalCard()).toHaveCount(0);
  await expect(chat.toolCall("run_command")).toHaveAttribute("data-state", "done");
  await expect(page.getByTestId("composer-input")).toHaveValue("");
  // The run is over: the composer has the focus again for the next message.
  await expect(chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
  await expect(page.getByTestId("composer-input")).toBeFocused();

  await chat.sendWithEnter("slow: please wait for the long job");
  await expect(chat.approvalCard()).toBeVisible();
  await page.keyboard.press("Shift+Tab");
  await expect(chat.approvalCard()).toBeFocused();
  await expect(chat.approvalCard()).toHaveAttribute("data-armed", "true");
  await page.keyboard.press("a");
  await expect(chat.toolCall("run_command").last()).toHaveAttribute("data-state", "running");
  await page.keyboard.press("Escape");
  await expect(chat.stopTurn().last()).toHaveAttribute("data-reason", "canceled");
  await expect(chat.toolCall("run_command").last()).not.toHaveAttribute("data-state", "running");
});

test("presenter mode at 1280×720: the chat keeps its room and the approval answers are on screen", async ({
  page,
  workspace,
}) => {
  const { chat } = workspace;
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByTestId("toggle-presenter").click();
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-presenter", "true");
  await chat.sendWithEnter("Please clean up the logs folder");
  await expect(chat.approvalCard()).toBeVisible();
  for (const button of ["approval-allow-once", "approval-allow-session", "approval-deny"])
    await expect(chat.approvalCard().getByTestId(button)).toBeInViewport();
  const chatBox = await page.getByRole("main", { name: "Chat" }).boundingBox();
  expect(chatBox!.width).toBeGreaterThanOrEqual(480);
  await workspace.screenshot("presenter-approval-1280");
  await chat.answerWithKey("d");
  await expect(chat.toolCall("run_command")).toHaveAttribute("data-state", "denied");
});

test("new session: an unconfigured provider says what to set and cannot be created", async ({
  page,
  workspace,
}) => {
  const dialog = await workspace.sessions.newSession({ provider: "anthropic" });
  const hint = dialog.getByTestId("new-session-provider-hint");
  await expect(hint).toContainText("anthropic is not configured on the server");
  await expect(hint).toContainText("ANTHROPIC_API_KEY");
  await expect(dialog.getByTestId("new-session-create")).toBeDisabled();
  await workspace.screenshot("new-session-unconfigured");
  await page.getByTestId("new-session-provider").selectOption("scripted");
  await expect(dialog.getByTestId("new-session-create")).toBeEnabled();
  await expect(hint).toContainText("no network");
});

test("newcomer help: panes, lanes and stages explain themselves on hover", async ({ page, workspace }) => {
  const { chat } = workspace;
  await expect(workspace.catalog.stage("csv-report")).toHaveAttribute("title", /name and description/);
  await chat.send("hello");
  await expect(chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
  await expect(page.getByTestId("pane-tab-stable")).toHaveAttribute("title", /byte-identical/);
  await expect(page.getByTestId("pane-tab-environment")).toHaveAttribute("title", /loaded skill/);
  await expect(page.getByTestId("lane-help-not-visible")).toHaveAttribute("title", /next run/);
});
