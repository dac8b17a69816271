import { expect, test } from "./fixtures.ts";

// The teaching flow: request #1 sees only names and descriptions; load_skill puts the body in request #2's
// Environment pane only; the stable system stays byte-identical; the skill's tool is registered during the
// run but not visible to the model in that run; calling it asks for approval.
test("load a skill, approve its tool, and inspect what each request contained", async ({
  page,
  workspace,
}) => {
  const { chat, inspector, catalog } = workspace;
  const bodyLine = "Write a report a busy reader can trust";

  await chat.send("Please profile the sales CSV");
  await expect(chat.approvalCard()).toBeVisible();
  await expect(chat.approvalCard()).toContainText("profile_csv");
  await expect(chat.approvalCard().getByTestId("approval-stdin")).toContainText('"path":"data/sales.csv"');
  await expect(chat.approvalCard().getByTestId("approval-cwd")).toContainText("csv-report");
  await expect(chat.toolCall("profile_csv")).toHaveAttribute("data-state", "awaiting_approval");
  await expect(chat.toolCall("load_skill")).toHaveAttribute("data-state", "done");
  await expect(catalog.stage("csv-report")).toHaveText("tools registered");
  await workspace.screenshot("approval");

  await chat.allowOnce();
  await expect(chat.approvalCard()).toHaveCount(0);
  await expect(chat.toolCall("profile_csv")).toHaveAttribute("data-state", "done");
  await expect(chat.toolCall("profile_csv").getByTestId("tool-call-result")).toContainText(/rows|columns/i);
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");

  // Request #1: the body is nowhere.
  await inspector.selectRequest(1);
  for (const pane of ["stable", "environment", "messages", "tools"] as const) {
    await expect(await inspector.pane(pane)).not.toContainText(bodyLine);
  }
  await expect(await inspector.pane("stable")).toContainText("csv-report");
  const firstHash = await inspector.stableHash().textContent();

  // Request #2: the body is in the Environment pane, and only there.
  await inspector.selectRequest(2);
  await expect(await inspector.pane("environment")).toContainText(bodyLine);
  for (const pane of ["stable", "messages", "tools"] as const) {
    await expect(await inspector.pane(pane)).not.toContainText(bodyLine);
  }
  await expect(inspector.stableUnchanged()).toHaveText("unchanged since request #1");
  await expect(inspector.stableHash()).toHaveText(firstHash ?? "");
  await expect(inspector.activeLane()).toHaveText("csv-report");
  await expect(inspector.notVisibleLane()).toContainText("profile_csv");
  const tools = await inspector.pane("tools");
  await expect(tools.getByTestId("pane-tool-profile_csv")).toHaveCount(0);
  await expect(tools.getByTestId("pane-tools-not-visible")).toContainText("profile_csv");
  await expect(inspector.tokenTotal()).toHaveText(/= \d+ tokens/);
  // The numbers are the server's, and the page says which tokenizer made them.
  await expect(page.getByTestId("tokenizer-name")).toContainText(
    "counted by the server: o200k_base (gpt-tokenizer)",
  );
  await expect(page.getByTestId("eager-tokens")).toHaveText(/^\d+$/);
  await expect(page.getByTestId("eager-total")).toContainText(/whole request \d+ tokens instead of \d+/);
  await inspector.pane("environment");
  await workspace.screenshot("inspector-request-2");

  // Copy a pane, and the whole request as JSON.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByTestId("copy-pane-environment").click();
  await expect(page.getByTestId("copy-pane-environment")).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(
    `<skill name="csv-report" source="builtin">`,
  );
  await page.getByTestId("copy-request-json").click();
  await expect(page.getByTestId("copy-request-json")).toHaveText("Copied");
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as {
    requestIndex: number;
    registeredNotVisible: string[];
  };
  expect(copied.requestIndex).toBe(2);
  expect(copied.registeredNotVisible).toContain("profile_csv");

  // Linked both ways: the chat turn opens its request, the request shows its turn.
  await page.getByTestId("turn-link-request-3").click();
  await expect(page.getByTestId("inspector-selected")).toHaveText("Request #3");
  await inspector.selectRequest(1);
  await page.getByTestId("inspector-show-turn").click();
  await expect(page.locator("#turn-request-1")).toHaveAttribute("data-highlighted", "true");
  await expect(page.locator("#turn-request-1")).toBeInViewport();
});

test("switching to eager disclosure puts every body into the stable system", async ({ page, workspace }) => {
  const { chat, inspector } = workspace;
  await (await workspace.setting("header-disclosure-mode")).selectOption("eager");
  await expect(await workspace.setting("header-disclosure-mode")).toHaveValue("eager");
  await chat.send("hello there");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  await inspector.selectRequest(1);
  await expect(await inspector.pane("stable")).toContainText("Write a report a busy reader can trust");
  await expect(page.getByTestId("eager-vs-progressive")).toContainText("Eager disclosure");
});

test("the labelled experiment makes a skill's tools visible in the same run", async ({ page, workspace }) => {
  const { chat, inspector } = workspace;
  await page.getByTestId("session-picker").click();
  await page.getByTestId("session-new").click();
  await page.getByTestId("new-session-refresh-tools").check();
  await page.getByTestId("new-session-create").click();
  await expect(page.getByTestId("refresh-tools-badge")).toBeVisible();
  await chat.send("Please profile the sales CSV");
  await chat.allowOnce();
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  await inspector.selectRequest(2);
  await expect((await inspector.pane("tools")).getByTestId("pane-tool-profile_csv")).toBeVisible();
  await expect(inspector.notVisibleLane()).toHaveText("—");
});
