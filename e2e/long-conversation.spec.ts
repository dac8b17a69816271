// A conversation longer than the chat renders whole (app/components/chat-list.tsx, VIRTUAL_AFTER turns):
// only the rows in view are in the page, and the reader notices nothing — it opens at its bottom, the
// top is one scroll away, a reader who scrolled up gets the "new output" pill and sending returns to the
// bottom, and the inspector's "show turn" brings a request's turn into view though it was not rendered.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { ProtocolClient } from "../server/transport/protocol-client.ts";
import { expect, test } from "./fixtures.ts";
import { ChatPanel } from "./pages/workspace-page.ts";

/** Each message is one request answered in one line: three turns (user, assistant, stop) per message. */
const MESSAGES = 45;
const scenarios = mkdtempSync(path.join(os.tmpdir(), "long-conversation-"));
writeFileSync(
  path.join(scenarios, "long.yaml"),
  [
    "name: long",
    "turns:",
    ...Array.from({ length: MESSAGES + 2 }, (_unused, index) => `  - text: "Answer ${index + 1}."`),
  ].join("\n") + "\n",
);
test.use({ scenariosDir: scenarios });

/** Wheels the conversation up the way a reader does, `pixels` at a time, to its top when asked. */
async function scrollChatUp(page: Page, pixels: number, toTop = false) {
  const turns = page.getByTestId("chat-turns");
  const box = (await turns.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  if (!toTop) return page.mouse.wheel(0, -pixels);
  // Rows measured on the way up change the height above the view: wheel until the top stays the top.
  await expect
    .poll(async () => {
      await page.mouse.wheel(0, -pixels);
      return turns.evaluate((element) => element.scrollTop);
    })
    .toBe(0);
}

async function longConversation(page: Page, client: ProtocolClient, url: string) {
  const sessionId = await client.createSession({ provider: "scripted", scenario: "long.yaml" });
  for (let message = 1; message <= MESSAGES; message++) {
    const stop = await client.sendMessage(sessionId, `Message ${message}`);
    expect(stop.reason).toBe("completed");
  }
  await page.goto(url);
  const chat = new ChatPanel(page);
  const log = page.getByRole("log", { name: "Conversation" });
  await expect(log.locator(`[data-virtual-rows="${MESSAGES * 3}"]`)).toHaveCount(1);
  // Opened at its bottom: the newest answer is on screen, the first message is not even in the page.
  await expect(page.getByText(`Answer ${MESSAGES}.`)).toBeInViewport();
  await expect(chat.userTurns().filter({ hasText: /^Message 1$/ })).toHaveCount(0);
  expect(await chat.userTurns().count()).toBeLessThan(MESSAGES);
  // The inspector's timeline (three rows in sight) shows the newest request it selected, not its first rows.
  await expect(page.getByTestId(`timeline-request-${MESSAGES}`)).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId(`timeline-request-${MESSAGES}`)).toBeInViewport();

  // The top is one scroll away, rendered when it comes into view.
  await scrollChatUp(page, 5000, true);
  await expect(chat.userTurns().filter({ hasText: /^Message 1$/ })).toBeInViewport();

  // Output that arrives while the reader is up in the conversation raises the pill; it follows again.
  const pill = page.getByTestId("chat-new-output");
  await expect(pill).toHaveCount(0);
  const stop = await client.sendMessage(sessionId, "from elsewhere");
  expect(stop.reason).toBe("completed");
  await expect(pill).toBeVisible();
  await expect(chat.userTurns().filter({ hasText: /^Message 1$/ })).toBeInViewport();
  await pill.click();
  await expect(page.getByText(`Answer ${MESSAGES + 1}.`)).toBeInViewport();
  await expect(pill).toHaveCount(0);

  // Sending from the box returns to the bottom from anywhere.
  await scrollChatUp(page, 5000, true);
  await chat.sendWithEnter("one more");
  await expect(page.getByText(`Answer ${MESSAGES + 2}.`)).toBeInViewport();

  // The inspector's double-click shows request #1's turn, far above and not rendered until then.
  await expect(page.locator("#turn-request-1")).toHaveCount(0);
  await page.getByTestId("timeline-request-1").dblclick();
  await expect(page.locator("#turn-request-1")).toBeInViewport();
  await expect(page.locator("#turn-request-1")).toHaveAttribute("data-highlighted", "true");
}

test("a long conversation is virtual: it opens at its bottom, scrolls to its top, follows with a pill, and shows a request's turn", async ({
  page,
  playground,
}) => {
  const client = await ProtocolClient.connectTo({ address: playground.origin, token: playground.token });
  try {
    await longConversation(page, client, playground.url);
  } finally {
    await client.close();
  }
});
