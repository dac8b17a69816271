import path from "node:path";
import { mkdir, writeFile } from "node:fs/promises";
import { editFile, expect, test } from "./fixtures.ts";

test("editing a SKILL.md and reloading updates the catalog and the reload feed", async ({
  page,
  playground,
  workspace,
}) => {
  const { catalog } = workspace;
  const skills = path.join(playground.workdir, ".PseudoClaude", "skills");
  await editFile(path.join(skills, "add-report", "SKILL.md"), (text) =>
    text.replace(/^description: .*$/m, "description: Add a report dimension (edited during the e2e test)."),
  );
  await mkdir(path.join(skills, "weekly-digest"), { recursive: true });
  await writeFile(
    path.join(skills, "weekly-digest", "SKILL.md"),
    "---\nname: weekly-digest\ndescription: Summarise the week's orders.\n---\n\n# Weekly digest\n\nRead data/sales.csv and summarise.\n",
  );
  await catalog.reload();
  await expect(catalog.skill("add-report")).toContainText("edited during the e2e test");
  await expect(catalog.source("weekly-digest")).toHaveText("project");
  await expect(catalog.reloadEntries().filter({ hasText: "weekly-digest" }).first()).toContainText(
    "+weekly-digest",
  );
  await page.getByTestId("reload-feed").scrollIntoViewIfNeeded();
  await workspace.screenshot("reload-feed");
});

test("a session reopens after a page reload, with its chat and its inspector timeline", async ({
  page,
  workspace,
}) => {
  const { chat, inspector } = workspace;
  await chat.send("hello there");
  await expect(chat.assistantTexts().first()).toContainText("Hello from the scripted model");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");

  await page.reload();
  await workspace.expectConnected();
  await expect(chat.userTurns()).toHaveCount(1);
  await expect(chat.userTurns().first()).toContainText("hello there");
  await expect(chat.assistantTexts().first()).toContainText("Hello from the scripted model");
  await expect(inspector.timelineEntry(1)).toBeVisible();

  // The session list offers it too; reopening it keeps the same conversation.
  await page.getByTestId("session-picker").click();
  const item = page
    .getByTestId("session-list")
    .locator("[data-testid^=session-item-]")
    .filter({ hasText: "hello there" });
  await expect(item).toHaveCount(1);
  await item.click();
  await expect(chat.userTurns()).toHaveCount(1);
  await expect(chat.assistantTexts().first()).toContainText("Hello from the scripted model");
});

test("broken skills become warnings, removals and lint notes, and the rest still loads", async ({
  page,
  playground,
  workspace,
}) => {
  const skills = path.join(playground.workdir, ".PseudoClaude", "skills");
  const write = async (folder: string, text: string) => {
    await mkdir(path.join(skills, folder), { recursive: true });
    await writeFile(path.join(skills, folder, "SKILL.md"), text);
  };
  await write("broken-yaml", "---\nname: broken-yaml\ndescription: [unclosed\n---\n\nBody\n");
  await write(
    "needs-missing",
    "---\nname: needs-missing\ndescription: Deploys things.\ntools: [deploy_to_prod]\n---\n\nDeploy it.\n",
  );
  await write(
    "lint-demo",
    "---\nname: lint-demo-x\ndescription: A name that differs from its folder.\n---\n\nBody\n",
  );
  await workspace.catalog.reload();
  await expect(page.getByTestId("catalog-warnings")).toContainText("broken-yaml");
  await expect(page.getByTestId("catalog-warning").filter({ hasText: "broken-yaml" })).toContainText(
    /SKILL\.md:\d+/,
  );
  await expect(page.getByTestId("not-offered-needs-missing")).toContainText("deploy_to_prod");
  await expect(page.getByTestId("catalog-lint")).toContainText("lint-demo-x");
  await expect(workspace.catalog.source("csv-report")).toHaveText("builtin");
  await page.getByTestId("catalog-warnings").scrollIntoViewIfNeeded();
  await workspace.screenshot("catalog-problems");
});

test("the inspector keeps the request the user selected across a reload, and falls back to the newest when it is gone", async ({
  page,
  workspace,
}) => {
  const { chat, inspector } = workspace;
  for (const count of [1, 2]) {
    await chat.send("hello there");
    await expect(chat.stopTurn().nth(count - 1)).toHaveAttribute("data-reason", "completed");
  }
  await expect(inspector.timelineEntry(2)).toBeVisible();
  await inspector.selectRequest(1);

  await page.reload();
  await workspace.expectConnected();
  await expect(inspector.timelineEntry(2)).toBeVisible();
  await expect(page.getByTestId("inspector-selected")).toHaveText("Request #1");
  await expect(inspector.timelineEntry(1)).toHaveAttribute("aria-pressed", "true");
  await expect(inspector.timelineEntry(2)).toHaveAttribute("aria-pressed", "false");

  // A kept request the session does not have: the newest, as if nothing had been selected, and the
  // entry goes.
  await page.evaluate(() => {
    const key = "pseudoclaude-playground-selected-request";
    const kept = JSON.parse(window.sessionStorage.getItem(key) ?? "{}") as { sessionId?: string };
    window.sessionStorage.setItem(key, JSON.stringify({ sessionId: kept.sessionId, requestIndex: 99 }));
  });
  await page.reload();
  await workspace.expectConnected();
  await expect(inspector.timelineEntry(2)).toBeVisible();
  await expect(page.getByTestId("inspector-selected")).toHaveText("Request #2");
  await expect(inspector.timelineEntry(2)).toHaveAttribute("aria-pressed", "true");
  await expect
    .poll(() =>
      page.evaluate(() => window.sessionStorage.getItem("pseudoclaude-playground-selected-request")),
    )
    .toBeNull();
});
