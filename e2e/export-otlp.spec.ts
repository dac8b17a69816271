// Share → OpenTelemetry trace: the session downloads as an OTLP/JSON trace request (a span for the run,
// for each model request and tool call), and the conversation's text stays out of it.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { expect, test } from "./fixtures.ts";

const scenarios = fileURLToPath(new URL("./fixtures/export-scenarios/", import.meta.url));
test.use({ scenariosDir: scenarios });

test("the Share menu downloads the session as an OpenTelemetry trace", async ({
  page,
  workspace,
}, testInfo) => {
  const { chat } = workspace;
  await chat.send("review the README");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");

  await page.getByTestId("session-menu").click();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("session-export-otlp").click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.otlp\.json$/);
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  const text = await readFile(file, "utf8");
  const trace = JSON.parse(text) as {
    resourceSpans: { scopeSpans: { spans: { name: string; traceId: string; spanId: string }[] }[] }[];
  };
  const spans = trace.resourceSpans[0]!.scopeSpans[0]!.spans;
  expect(spans.map((span) => span.name)).toContain("invoke_agent PseudoClaude Playground");
  expect(spans.some((span) => span.name.startsWith("chat "))).toBe(true);
  expect(spans.some((span) => span.name.startsWith("execute_tool "))).toBe(true);
  expect(
    spans.every((span) => /^[0-9a-f]{32}$/.test(span.traceId) && /^[0-9a-f]{16}$/.test(span.spanId)),
  ).toBe(true);
  expect(text).not.toContain("review the README");
});
