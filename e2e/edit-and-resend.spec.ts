// Issue 14, the experiment loop in the browser: edit a skill's description on request #1, resend it to
// the manual provider, answer as the model, see the branch labelled and the compare view's line diff of
// the stable system; the branch survives a page reload; the per-request line diff and Rerun from here.
import { expect, test } from "./fixtures.ts";

const EDITED = "Use this ONLY when the user asks for a CSV report by name.";

test("edit a skill description on request #1, resend to the manual provider, compare, reload", async ({
  page,
  workspace,
}) => {
  const { chat, inspector } = workspace;
  await chat.send("hello there");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  await inspector.selectRequest(1);
  const originalStable = await (await inspector.pane("stable")).getByTestId("pane-stable-text").innerText();
  expect(originalStable).toContain("csv-report");
  expect(originalStable).not.toContain(EDITED);

  await page.getByTestId("inspector-edit-resend").click();
  const dialog = page.getByTestId("edit-request");
  await expect(dialog).toBeVisible();
  await dialog.getByTestId("edit-skill-select").selectOption("csv-report");
  await dialog.getByTestId("edit-skill-description").fill(EDITED);
  await expect(dialog.getByTestId("edit-count")).toHaveText("1 edit");
  await dialog.getByTestId("edit-provider").selectOption("manual");
  await workspace.scratchScreenshot("edit-and-resend-dialog");
  await dialog.getByTestId("edit-send").click();
  await expect(dialog).toHaveCount(0);

  // The branch opens: labelled, the copied conversation shown, request #1 resent as the branch's #2
  // (numbering continues from the fork) waiting for the person. Only the edit and the provider differ.
  await expect(page.getByTestId("branch-label")).toHaveText("forked from #1: skill csv-report description");
  await expect(chat.userTurns().first()).toContainText("hello there");
  const composer = page.getByTestId("manual-composer");
  await expect(composer).toContainText("request #2");
  await expect(page.getByTestId("branch-check")).toHaveAttribute("data-exact", "true");
  await expect(page.getByTestId("branch-check")).toContainText("except what you edited (stable system");
  await expect(await inspector.pane("stable")).toContainText(EDITED);
  await page.getByTestId("manual-text").fill("Answered by hand in the branch.");
  await page.getByTestId("manual-send").click();
  await expect(chat.assistantTexts().last()).toHaveText("Answered by hand in the branch.");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");

  // Compare with the original: the runs side by side and the line diff of the stable system.
  await page.getByTestId("branch-compare").click();
  const compare = page.getByTestId("compare-view");
  await expect(compare).toBeVisible();
  await expect(compare.getByTestId("compare-left-answer")).toHaveText(/Hello from the scripted model/);
  await expect(compare.getByTestId("compare-right-answer")).toHaveText("Answered by hand in the branch.");
  await expect(compare.getByTestId("compare-right-stop")).toHaveText("completed");
  await expect(compare.getByTestId("compare-request-row").first()).toContainText("tokens");
  const diff = compare.getByTestId("compare-diff");
  await expect(diff.getByTestId("compare-diff-summary")).toContainText("1 line removed, 1 added");
  await expect(diff.getByTestId("compare-diff-removed")).toHaveCount(1);
  await expect(diff.getByTestId("compare-diff-removed")).toContainText("csv-report");
  await expect(diff.getByTestId("compare-diff-added")).toContainText(EDITED);
  await workspace.scratchScreenshot("compare-view");
  await compare.getByTestId("compare-close").click();

  // Reload: the tab reopens the branch, still labelled, with its conversation.
  await page.reload();
  await workspace.expectConnected();
  await expect(page.getByTestId("branch-label")).toHaveText("forked from #1: skill csv-report description");
  await expect(chat.assistantTexts().last()).toHaveText("Answered by hand in the branch.");
  await expect(await inspector.pane("stable")).toContainText(EDITED);
  // The original is still there, unchanged.
  await page.getByTestId("branch-open-origin").click();
  await expect(page.getByTestId("branch-banner")).toHaveCount(0);
  await expect(await inspector.pane("stable")).not.toContainText(EDITED);
});

test("the per-request line diff, and Rerun from here as an unchanged branch", async ({ page, workspace }) => {
  const { chat, inspector } = workspace;
  await chat.send("profile the sales data");
  await expect(chat.approvalCard()).toBeVisible();
  await chat.allowOnce();
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  await inspector.selectRequest(2);
  await inspector.pane("environment");
  await page.getByTestId("pane-line-diff-toggle").check();
  const diff = page.getByTestId("pane-line-diff");
  await expect(diff.getByTestId("pane-line-diff-added").first()).toBeVisible();
  await expect(diff).toContainText(`<skill name="csv-report" source="builtin">`);
  await expect(diff.getByTestId("pane-line-diff-removed")).toContainText("none yet");

  await page.getByTestId("inspector-rerun").click();
  await expect(page.getByTestId("branch-label")).toHaveText("forked from #2: rerun, unchanged");
  await expect(page.getByTestId("lane-active")).toHaveText("csv-report");
  await expect(page.getByTestId("branch-check")).toContainText("#3 resends #2 exactly");
});
