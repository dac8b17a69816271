import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "./fixtures.ts";

test("you are the model: the manual composer answers with a tool call, then with text", async ({
  page,
  workspace,
}) => {
  const { chat, inspector } = workspace;
  await workspace.newManualSession();
  await expect(page.getByTestId("scripted-badge")).toHaveCount(0);

  await chat.send("Summarise data/sales.csv for me");
  const composer = page.getByTestId("manual-composer");
  await expect(composer).toContainText("request #1");
  // The person sees what "they" were given: only names and descriptions.
  await expect(await inspector.pane("stable")).toContainText("csv-report");
  await composer.getByTestId("manual-tool-select").selectOption("load_skill");
  await composer.getByTestId("manual-tool-form-field-name").fill("csv-report");
  await composer.getByTestId("manual-tool-form-submit").click();
  await expect(composer.getByTestId("manual-calls")).toContainText("load_skill");
  await composer.getByTestId("manual-text").fill("I will load the csv-report skill.");
  await workspace.screenshot("manual-composer");
  await composer.getByTestId("manual-send").click();

  await expect(chat.toolCall("load_skill")).toHaveAttribute("data-state", "done");
  await expect(page.getByTestId("manual-composer")).toContainText("request #2");
  await expect(await inspector.pane("environment")).toContainText("Write a report a busy reader can trust");
  await page.getByTestId("manual-text").fill("Loaded; the body is now in my environment.");
  await page.getByTestId("manual-send").click();
  await expect(chat.assistantTexts().last()).toHaveText("Loaded; the body is now in my environment.");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  await expect(page.getByTestId("manual-composer")).toHaveCount(0);
});

test("a text field of a tool call keeps newlines (Shift+Enter), and Enter still adds the call", async ({
  page,
  workspace,
  playground,
}) => {
  const { chat } = workspace;
  await workspace.newManualSession();
  await chat.send("Write me a two-line note");
  const composer = page.getByTestId("manual-composer");
  await expect(composer).toContainText("request #1");
  await composer.getByTestId("manual-tool-select").selectOption("write_file");
  await composer.getByTestId("manual-tool-form-field-path").fill("note.md");
  const content = composer.getByTestId("manual-tool-form-field-content");
  await content.pressSequentially("# Note");
  await content.press("Shift+Enter");
  await content.pressSequentially("second line");
  await expect(content).toHaveValue("# Note\nsecond line");
  await content.press("Enter");
  await expect(composer.getByTestId("manual-calls")).toContainText('"content": "# Note\\nsecond line"');
  await composer.getByTestId("manual-send").click();
  await chat.allowOnce();
  await expect(chat.toolCall("write_file")).toHaveAttribute("data-state", "done");
  expect(await readFile(path.join(playground.workdir, "note.md"), "utf8")).toBe("# Note\nsecond line");
});

test("the tool console runs a skill tool by hand through the approval path", async ({ page, workspace }) => {
  const { catalog, chat } = workspace;
  await catalog.openDetail("csv-report");
  await page.getByTestId("skill-tab-tools").click();
  // A skill's tools exist only after load_skill; the console can run it too.
  await page.getByTestId("skill-load-now").click();
  await expect(page.getByTestId("skill-tools-unregistered")).toHaveCount(0);
  await page.getByTestId("tool-console-profile_csv").locator("summary").click();
  await page.getByTestId("console-form-profile_csv-field-path").fill("data/sales.csv");
  await page.getByTestId("console-form-profile_csv-field-sample_rows").fill("1");
  await page.getByTestId("console-form-profile_csv-submit").click();
  await expect(chat.approvalCard()).toContainText("profile_csv");
  await chat.allowOnce();
  const result = page.getByTestId("console-result");
  await expect(result.getByTestId("console-status")).toHaveText("ok");
  await expect(result.getByTestId("console-exit-code")).toHaveText("exit 0");
  await expect(result.getByTestId("console-stdin")).toContainText('"path":"data/sales.csv"');
  await expect(result.getByTestId("console-stdout")).not.toBeEmpty();
  await workspace.screenshot("tool-console");
});

test("/skill args completes skill names from the catalog and runs the skill", async ({ page, workspace }) => {
  const input = page.getByTestId("composer-input");
  await input.fill("/csv");
  await expect(page.getByTestId("slash-option-csv-report")).toBeVisible();
  await input.press("Tab");
  await expect(input).toHaveValue("/csv-report ");
  await input.pressSequentially("data/sales.csv");
  await input.press("Enter");
  await expect(workspace.chat.userTurns().first()).toContainText("csv-report");
  await expect(workspace.catalog.stage("csv-report")).not.toHaveText("listed");
});

test("presenter mode enlarges the type and panels collapse", async ({ page, workspace }) => {
  await page.getByTestId("toggle-presenter").click();
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-presenter", "true");
  const size = await page.evaluate(() => getComputedStyle(document.documentElement).fontSize);
  expect(size).toBe("20px");
  await page.getByTestId("toggle-catalog").click();
  await expect(page.getByTestId("catalog-panel")).toHaveCount(0);
  await workspace.screenshot("presenter");
  await page.getByTestId("toggle-catalog").click();
  await expect(page.getByTestId("catalog-panel")).toBeVisible();
});
