// Issue 22 items 3 and 5 in the browser, at the two presenter sizes: a skill's SOP is not marked changed
// when another skill loads after it; "Rerun from here" on the request with both loaded resends it exactly —
// both SOPs with their arguments, numbered on from the request it forks — and the branch says so.
import path from "node:path";
import { editFile, expect, test } from "./fixtures.ts";

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
]) {
  test(`badges and an exact rerun at ${viewport.width}×${viewport.height}`, async ({ page, workspace }) => {
    await page.setViewportSize(viewport);
    const { chat, inspector } = workspace;
    await chat.send("check the orders and the csv");
    await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");

    // Request #3: csv-report is new, review's SOP is the same bytes as in #2.
    await inspector.selectRequest(3);
    const environment = await inspector.pane("environment");
    const section = (name: string) =>
      environment.locator(`[data-testid="env-section"][data-section="${name}"]`);
    await expect(section("csv-report")).toHaveAttribute("data-status", "new");
    await expect(section("review")).toHaveAttribute("data-status", "same");
    await expect(section("review")).not.toContainText("changed since previous request");
    await expect(section("base")).toHaveAttribute("data-status", "same");
    await workspace.scratchScreenshot(`badges-${viewport.width}x${viewport.height}`);

    await page.getByTestId("inspector-rerun").click();
    await expect(page.getByTestId("branch-label")).toHaveText("forked from #3: rerun, unchanged");
    const check = page.getByTestId("branch-check");
    await expect(check).toHaveAttribute("data-exact", "true");
    await expect(check).toContainText("#4 resends #3 exactly: same segment hashes");
    await inspector.selectRequest(4);
    const resent = await inspector.pane("environment");
    await expect(resent).toContainText("What to review: src/orders.js");
    await expect(resent).toContainText("Target file: data/sales.csv");
    await expect(check).toBeInViewport();
    await workspace.scratchScreenshot(`branch-exact-${viewport.width}x${viewport.height}`);
  });
}

test("a rerun after a SOP changed on disk says which segment differs and why", async ({
  page,
  workspace,
  playground,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const { chat, inspector } = workspace;
  await chat.send("check the orders and the csv");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  await editFile(path.join(playground.workdir, ".PseudoClaude", "skills", "review", "SKILL.md"), (text) =>
    text.replace("What to review:", "Review only this:"),
  );
  await inspector.selectRequest(3);
  await page.getByTestId("inspector-rerun").click();
  const check = page.getByTestId("branch-check");
  await expect(check).toHaveAttribute("data-exact", "false");
  await expect(check).toContainText("#4 differs from #3 in 1 segment you did not edit");
  await check.locator("summary").click();
  await expect(check.getByTestId("branch-difference")).toHaveText(
    /environment review: the SOP of skill review changed since request #3/,
  );
  await workspace.scratchScreenshot("branch-differs-1280x720");
});
