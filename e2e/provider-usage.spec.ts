// A real provider path end to end: the server's Anthropic provider (official SDK) talks to a local fake
// that speaks the Messages API SSE format; the inspector shows the provider's usage and cache numbers
// beside its own token counts, and the Raw pane shows the payload with the key redacted.
import {
  anthropicError,
  anthropicStream,
  startFakeAnthropic,
} from "../server/providers/testing/fake-anthropic.ts";
import type { FakeServer } from "../server/providers/testing/fake-http.ts";
import { expect, test as base } from "./fixtures.ts";

const apiKey = "sk-ant-e2e-secret-key-0123456789";

const test = base.extend<{ fakeAnthropic: FakeServer }>({
  fakeAnthropic: async ({}, use) => {
    const fake = await startFakeAnthropic();
    await use(fake);
    await fake.close();
  },
  // The playground server reads the provider endpoint and key from its environment.
  serverEnv: async ({ fakeAnthropic }, use) => {
    await use({ ANTHROPIC_BASE_URL: fakeAnthropic.url, ANTHROPIC_API_KEY: apiKey });
  },
});

test("Anthropic usage and cache numbers and the redacted raw payload appear in the inspector", async ({
  page,
  workspace,
  fakeAnthropic,
}) => {
  fakeAnthropic.enqueue(
    anthropicStream({
      text: "Loading the csv-report skill.",
      toolUses: [{ name: "load_skill", input: { name: "csv-report" }, chunks: 3 }],
      usage: { input_tokens: 2100, output_tokens: 40, cache_creation_input_tokens: 900 },
    }),
    anthropicStream({
      text: ["The skill ", "is loaded."],
      usage: { input_tokens: 2600, output_tokens: 12, cache_read_input_tokens: 900 },
    }),
  );
  await page.getByTestId("session-picker").click();
  await page.getByTestId("session-new").click();
  await page.getByTestId("new-session-provider").selectOption("anthropic");
  await page.getByTestId("new-session-create").click();
  await expect(page.getByTestId("header-provider")).toContainText("anthropic");
  await expect(page.getByTestId("scripted-badge")).toHaveCount(0);

  await workspace.chat.send("Summarise the sales CSV");
  await expect(workspace.chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  await workspace.inspector.selectRequest(2);
  await expect(page.getByTestId("provider-usage")).toContainText("input 2600");
  await expect(page.getByTestId("provider-usage")).toContainText("cache read 900");
  await workspace.inspector.selectRequest(1);
  await expect(page.getByTestId("provider-usage")).toContainText("cache write 900");
  const raw = await workspace.inspector.pane("raw");
  await expect(raw.getByTestId("pane-raw-text")).toContainText("cache_control");
  await expect(raw).not.toContainText(apiKey);
  await workspace.screenshot("provider-usage");
});

test("a rejected key ends the run with a readable provider error, and the next message works", async ({
  page,
  workspace,
  fakeAnthropic,
}) => {
  fakeAnthropic.enqueue(
    anthropicError(401, "authentication_error", "invalid x-api-key"),
    anthropicStream({ text: "Working again.", usage: { input_tokens: 10, output_tokens: 3 } }),
  );
  await page.getByTestId("session-picker").click();
  await page.getByTestId("session-new").click();
  await page.getByTestId("new-session-provider").selectOption("anthropic");
  await page.getByTestId("new-session-create").click();
  await expect(page.getByTestId("header-provider")).toContainText("anthropic");
  await workspace.chat.send("hello");
  const stop = workspace.chat.stopTurn();
  await expect(stop).toHaveAttribute("data-reason", "provider_error");
  await expect(stop).toContainText(/401|key/i);
  await workspace.screenshot("provider-error");
  await workspace.chat.send("hello again");
  await expect(workspace.chat.assistantTexts().last()).toHaveText("Working again.");
  await expect(workspace.chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
});
