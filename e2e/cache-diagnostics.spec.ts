// The provider's cache diagnostics beside the prediction, in a real Chromium: the server's Anthropic
// provider (official SDK) talks to a local server speaking the Messages API's SSE, which answers with
// `diagnostics` on message_start. Request #3 (the next run) is predicted tools_changed, because the
// skill's tool became visible, but the provider says messages_changed: the strip flags the disagreement
// and the session's figures at the top of the inspector count it. The README's cache section shows this
// screen (UPDATE_SCREENSHOTS=1 refreshes it).
import { anthropicStream, startFakeAnthropic } from "../server/providers/testing/fake-anthropic.ts";
import type { FakeServer } from "../server/providers/testing/fake-http.ts";
import { expect, test as base } from "./fixtures.ts";

const test = base.extend<{ fakeAnthropic: FakeServer }>({
  fakeAnthropic: async ({}, use) => {
    const fake = await startFakeAnthropic();
    await use(fake);
    await fake.close();
  },
  serverEnv: async ({ fakeAnthropic }, use) => {
    await use({
      ANTHROPIC_BASE_URL: fakeAnthropic.url,
      ANTHROPIC_API_KEY: "sk-ant-e2e-diagnostics-0123456789",
      PSEUDOCLAUDE_ANTHROPIC_MODEL: "claude-sonnet-4-5",
    });
  },
});

test.use({ viewport: { width: 1440, height: 900 } });

test("the strip shows the predicted divergence beside the provider's, flags a disagreement, and the session counts it", async ({
  page,
  workspace,
  fakeAnthropic,
}) => {
  fakeAnthropic.enqueue(
    anthropicStream({
      id: "msg_e2e_1",
      text: "Loading the csv-report skill.",
      toolUses: [{ name: "load_skill", input: { name: "csv-report", arguments: "data/sales.csv" } }],
      usage: { input_tokens: 60, output_tokens: 30, cache_creation_input_tokens: 5000 },
    }),
    anthropicStream({
      id: "msg_e2e_2",
      text: "The skill is loaded; its profile tool is yours from the next message.",
      diagnostics: { cache_miss_reason: { type: "system_changed", cache_missed_input_tokens: 3300 } },
      usage: {
        input_tokens: 40,
        output_tokens: 20,
        cache_creation_input_tokens: 3500,
        cache_read_input_tokens: 2000,
      },
    }),
    anthropicStream({
      id: "msg_e2e_3",
      text: "Profiling now.",
      diagnostics: { cache_miss_reason: { type: "messages_changed", cache_missed_input_tokens: 5600 } },
      usage: { input_tokens: 50, output_tokens: 10, cache_creation_input_tokens: 5600 },
    }),
  );
  await page.getByTestId("session-picker").click();
  await page.getByTestId("session-new").click();
  await page.getByTestId("new-session-provider").selectOption("anthropic");
  await page.getByTestId("new-session-create").click();
  await expect(page.getByTestId("header-provider")).toContainText("anthropic");
  await expect(await workspace.setting("header-cache-diagnostics")).toBeChecked();
  await page.getByTestId("header-run-settings").click();
  await expect(page.getByTestId("run-settings")).toHaveCount(0);

  await workspace.chat.send("profile data/sales.csv");
  await expect(workspace.chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
  await workspace.inspector.selectRequest(2);
  await expect(page.getByTestId("cache-diagnostics-predicted")).toContainText("system_changed since #1");
  await expect(page.getByTestId("cache-diagnostics-predicted")).toContainText("csv-report SOP loaded");
  await expect(page.getByTestId("cache-diagnostics-reported")).toContainText("system_changed (3,300 tokens");
  await expect(page.getByTestId("cache-diagnostics-agree")).toBeVisible();
  await expect(page.getByTestId("cache-stats-rebuilds")).toHaveText("expected rebuilds 1");

  await workspace.chat.send("go ahead");
  await expect(workspace.chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
  await workspace.inspector.selectRequest(3);
  await expect(page.getByTestId("cache-diagnostics-predicted")).toContainText("tools_changed since #2");
  await expect(page.getByTestId("cache-diagnostics-reported")).toContainText(
    "messages_changed (5,600 tokens",
  );
  await expect(page.getByTestId("cache-diagnostics-disagree")).toBeVisible();
  await expect(page.getByTestId("cache-reason-mismatch")).toBeVisible();
  await expect(page.getByTestId("cache-stats-source")).toHaveText("(provider reports)");
  await expect(page.getByTestId("cache-stats-misses")).toHaveText("misses 1/3");
  await expect(page.getByTestId("cache-stats-last-miss")).toContainText("#3: messages_rewritten");
  await expect(page.getByTestId("cache-stats-disagreements")).toHaveText("1 disagreement");
  await expect(page.getByTestId("cache-stats-expiry")).toContainText("expires in");
  const sent = fakeAnthropic.requests.map(
    (request) => (request.body as { diagnostics?: unknown }).diagnostics,
  );
  expect(sent).toEqual([
    { previous_message_id: null },
    { previous_message_id: "msg_e2e_1" },
    { previous_message_id: "msg_e2e_2" },
  ]);
  // The request's summary scrolls on its own: bring the cache panel (prediction, report, badges) into view.
  await page.getByTestId("cache-panel").evaluate((panel) => panel.scrollIntoView({ block: "start" }));
  await expect(page.getByTestId("cache-diagnostics-disagree")).toBeInViewport();
  await workspace.screenshot("cache-diagnostics");
});
