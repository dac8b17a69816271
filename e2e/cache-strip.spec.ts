// The prompt-cache strip on the next-run demo, predicted as claude-sonnet-4-5 (the default "cache as",
// since the scripted model caches nothing): request 3 is the next run, whose tool list gained profile_csv,
// so the strip says "tools changed"; the inspector prices the request, the run and the session. "cache as"
// is a picker of the rules table's models; another choice predicts every request shown again.
import { demoScenarios, expect, test } from "./fixtures.ts";

test.use({ scenariosDir: demoScenarios });

test("cache strip: request 3 of the next-run demo misses because the tools changed, and the run has a price", async ({
  page,
  workspace,
}) => {
  const { chat, inspector } = workspace;
  const cacheAs = await workspace.setting("header-cache-as");
  await expect(cacheAs).toHaveValue("claude-sonnet-4-5");
  await expect(cacheAs.locator("option:checked")).toHaveText("claude-sonnet-4-5 · ≥ 1,024 tokens · 5 min");
  await expect(cacheAs.locator("option", { hasText: "claude-haiku-4-5 · ≥ 4,096 tokens" })).toHaveCount(1);
  await expect(await workspace.setting("header-cache-breakpoints")).toHaveValue("rolling");

  await chat.send("profile data/sales.csv");
  await expect(chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
  await inspector.selectRequest(1);
  await expect(page.getByTestId("cache-model")).toContainText("as claude-sonnet-4-5");
  await expect(page.getByTestId("cache-reason")).toContainText("first request");
  await inspector.selectRequest(2);
  // Request 2 reads tools + stable: its first segments are green.
  await expect(page.getByTestId("cache-segment").first()).toHaveAttribute("data-status", "read");

  await chat.send("go ahead");
  await chat.allowOnce();
  await expect(chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
  await inspector.selectRequest(3);
  await expect(page.getByTestId("cache-reason")).toContainText("tools changed: profile_csv became visible");
  await expect(page.getByTestId("cache-segment").first()).toHaveAttribute("data-status", "written");
  await expect(page.getByTestId("cache-segment").first()).toHaveAttribute("title", /tools changed/);
  await expect(page.getByTestId("cost-request")).toHaveText(/^\$\d/);
  await expect(page.getByTestId("cost-run")).toContainText(/\$\d[\d.]* predicted/);
  await expect(page.getByTestId("cost-session")).toContainText("predicted");
  await page.getByTestId("context-view-toggle").click();
  await expect(page.getByTestId("context-item").first()).toBeVisible();
  await workspace.scratchScreenshot("cache-strip-request-3");

  // Another model: every request shown is predicted again under its rules. (The settings popover closed
  // when the chat took the focus: open it again.)
  await (await workspace.setting("header-cache-as")).selectOption("claude-haiku-4-5");
  await page.getByTestId("header-run-settings").click();
  await expect(page.getByTestId("run-settings")).toHaveCount(0);
  await inspector.selectRequest(2);
  await expect(page.getByTestId("cache-model")).toContainText("as claude-haiku-4-5");
  await expect(page.getByTestId("cache-segment").first()).toHaveAttribute("data-status", "uncached");
  await expect(page.getByTestId("cache-reason")).toContainText("4,096-token minimum of claude-haiku-4-5");
  await (await workspace.setting("header-cache-as")).selectOption("claude-sonnet-4-5");
  await expect(page.getByTestId("cache-model")).toContainText("as claude-sonnet-4-5");
  await expect(page.getByTestId("cache-segment").first()).toHaveAttribute("data-status", "read");
});
