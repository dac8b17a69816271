import { rm } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "./fixtures.ts";

test("opens the printed URL, connects, strips the token and shows the offline-demo badge", async ({
  page,
  workspace,
}) => {
  await expect(page).not.toHaveURL(/token=/);
  await expect(page.getByTestId("scripted-badge")).toHaveText("scripted model — offline demo");
  await expect(workspace.errorCards()).toHaveCount(0);
});

test("the catalog shows builtin and project skills and an override with its shadowed builtin", async ({
  page,
  workspace,
}) => {
  const catalog = workspace.catalog;
  await expect(catalog.source("csv-report")).toHaveText("builtin");
  await expect(catalog.source("add-report")).toHaveText("project");
  await expect(catalog.source("review")).toHaveText("project");
  await expect(catalog.shadow("review")).toContainText("project overrides builtin");
  await expect(catalog.shadow("review")).toContainText("skills/review/SKILL.md");
  await expect(catalog.stage("csv-report")).toHaveText("listed");
  await workspace.screenshot("workspace");

  await catalog.openDetail("csv-report");
  await page.getByTestId("skill-tab-tools").click();
  await expect(page.getByTestId("tool-spec-profile_csv")).toContainText("profile-csv.mjs");
  await expect(page.getByTestId("skill-body-tokens")).toHaveText(/^[\d,]+$/);
  await expect(page.getByTestId("skill-listing-tokens")).toHaveText(/^\d+$/);
  await page.getByTestId("skill-tab-sop").click();
  await expect(page.getByTestId("skill-sop").locator("h1")).toHaveText("CSV report");
  await workspace.screenshot("skill-detail");
});

test("an empty chat offers the demo's tasks; one click sends it as the user's message", async ({
  page,
  workspace,
}) => {
  const prompts = page.getByTestId("demo-prompt");
  await expect(prompts).toHaveCount(4);
  await prompts.filter({ hasText: "list the TODOs" }).click();
  await expect(workspace.chat.userTurns()).toHaveText(["list the TODOs"]);
  // The fixture plays its own scenarios, so only check that a model request answered the message.
  await expect(page.getByTestId("turn-link-request-1")).toBeVisible();
  await expect(prompts).toHaveCount(0);
});

test("a workdir without the demo's files is offered none of the demo's tasks, one with some only theirs", async ({
  page,
  playground,
  workspace,
}) => {
  const prompts = page.getByTestId("demo-prompt");
  await expect(prompts).toHaveCount(4);
  // The server checks the tasks' files when it sends the session: a reload opens it again.
  await rm(path.join(playground.workdir, "src", "orders.js"));
  await page.reload();
  await workspace.expectConnected();
  await expect(prompts).toHaveText(["profile data/sales.csv"]);
  await rm(path.join(playground.workdir, "data", "sales.csv"));
  await page.reload();
  await workspace.expectConnected();
  await expect(prompts).toHaveCount(0);
  await expect(page.getByText("or try one of the demo's tasks")).toHaveCount(0);
});
