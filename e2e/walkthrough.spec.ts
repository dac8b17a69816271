// The README's 5-minute teaching walk-through, played with the repo's own demo scenarios (scenarios/),
// so the steps a teacher follows keep working. Its screenshots are the ones the README shows.
import { demoScenarios, expect, test } from "./fixtures.ts";

test.use({ scenariosDir: demoScenarios });

test("teaching walk-through: names first, the body after load_skill, tools visible from the next run", async ({
  page,
  workspace,
}) => {
  const { chat, inspector, catalog } = workspace;

  // 1. The project's review skill overrides the builtin one; ask for a review.
  await expect(catalog.shadow("review")).toContainText("project overrides builtin");
  await chat.send("review src/orders.js");
  await expect(chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
  await inspector.selectRequest(1);
  await expect(await inspector.pane("environment")).not.toContainText(`<skill name="review" source=`);
  await inspector.selectRequest(2);
  await expect(await inspector.pane("environment")).toContainText(`<skill name="review" source=`);
  await expect(inspector.stableUnchanged()).toBeVisible();
  await workspace.screenshot("walkthrough-1-review");

  // 2. Registered is not visible: load csv-report, its tool appears only in the next run's definitions.
  await chat.send("profile data/sales.csv");
  await expect(chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
  await expect(inspector.notVisibleLane()).toContainText("profile_csv");
  await expect(catalog.stage("csv-report")).toHaveText("tools registered");
  await chat.send("go ahead");
  await expect(chat.approvalCard()).toContainText("profile_csv");
  await workspace.screenshot("walkthrough-2-approval");
  await chat.allowOnce();
  await expect(chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
  await expect(chat.toolCall("profile_csv").last()).toHaveAttribute("data-state", "done");
  await expect(catalog.stage("csv-report")).toHaveText("tools visible to the model");
  const last = await page.getByTestId("inspector-timeline").locator("button").count();
  await inspector.selectRequest(last);
  await expect(inspector.stableUnchanged()).toHaveText("unchanged since request #1");
  await expect((await inspector.pane("tools")).getByTestId("pane-tool-profile_csv")).toBeVisible();
  await inspector.pane("environment");
  await workspace.screenshot("walkthrough-3-inspector");

  // 5. Safety: deny a command (the model is told), then stop a slow one.
  await chat.send("commit my changes");
  await expect(chat.approvalCard().getByTestId("approval-command")).toContainText("git status");
  await chat.deny("not now");
  await expect(chat.toolCall("run_command").last()).toHaveAttribute("data-state", "denied");
  await expect(chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
  await chat.send("run something slow");
  await chat.allowOnce();
  await expect(chat.toolCall("run_command").last()).toHaveAttribute("data-state", "running");
  await chat.stop();
  await expect(chat.stopTurn().last()).toHaveAttribute("data-reason", "canceled");

  // 6. Eager disclosure: every body moves into the stable system, and its hash changes.
  await (await workspace.setting("header-disclosure-mode")).selectOption("eager");
  await expect(await workspace.setting("header-disclosure-mode")).toHaveValue("eager");
  await chat.send("hello");
  await expect(chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
  await expect(page.getByTestId("stable-changed")).toBeVisible();
  await expect(page.getByTestId("stable-first-difference")).toContainText("line");
  await workspace.screenshot("walkthrough-4-eager");
});
