// What a stakeholder sees reads well: a slash command is a compact chip (its SOP one click away) and the
// session is titled by what the user typed; a stop is said once; the tool console's approval speaks of
// the console, not of a model or a run; the page loads without a 404; the session picker shows when each
// session was made, a short id and a branch marker, in an order a reload does not change; Compare shows
// the answers' Markdown.
import { expect, test } from "./fixtures.ts";
import { WorkspacePage } from "./pages/workspace-page.ts";

test("a slash command is a chip titled by the user's words; a stop is said once; the console's approval; no 404", async ({
  page,
  playground,
}) => {
  const problems: string[] = [];
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  const workspace = new WorkspacePage(page);
  await workspace.open(playground.url);
  const { chat, catalog, sessions } = workspace;

  await chat.sendWithEnter("/csv-report data/sales.csv");
  await chat.allowOnce();
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  const user = chat.userTurns().first();
  await expect(user.getByTestId("turn-slash-command")).toHaveText("/csv-report data/sales.csv");
  await expect(user.getByTestId("turn-slash-sop")).toBeHidden();
  expect((await user.boundingBox())!.height).toBeLessThan(90);
  await user.getByTestId("turn-slash-sop-toggle").click();
  await expect(user.getByTestId("turn-slash-sop")).toContainText("Write a report a busy reader can trust");
  await workspace.scratchScreenshot("slash-chip");
  await expect(sessions.button()).toHaveText(/^\/csv-report data\/sales\.csv/);
  await sessions.open();
  await expect(sessions.items().first()).not.toContainText("# CSV report");
  await page.keyboard.press("Escape");

  // Stop: the line says what happened once.
  await chat.sendWithEnter("slow: please wait for the long job");
  await chat.allowOnce();
  await expect(chat.toolCall("run_command").last()).toHaveAttribute("data-state", "running");
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(chat.stopTurn().last()).toHaveText(
    "— Stopped by the user; its tools were killed after 1 request —",
  );
  const killed = chat.toolCall("run_command").last();
  await expect(killed.getByTestId("tool-call-error")).toHaveText("canceled");
  expect((await killed.innerText()).split("the process group was killed").length - 1).toBe(1);

  // A call from the tool console: no model asked for it and no run is going.
  await catalog.openDetail("csv-report");
  await page.getByTestId("skill-tab-tools").click();
  await page.getByTestId("tool-console-profile_csv").locator("summary").click();
  await page.getByTestId("console-form-profile_csv-field-path").fill("data/sales.csv");
  await page.getByTestId("console-form-profile_csv-submit").click();
  const card = chat.approvalCard();
  await expect(card.getByTestId("approval-by-hand")).toHaveText(
    "you started this call from the tool console",
  );
  await expect(card.getByTestId("approval-deny-reason")).not.toHaveAttribute("placeholder", /model/);
  await expect(card.getByTestId("approval-keys")).not.toContainText("stops the run");
  await chat.allowOnce();
  await expect(page.getByTestId("console-result").getByTestId("console-status")).toHaveText("ok");

  expect(problems).toEqual([]);
});

test("the session picker shows when, a short id and a branch marker, in the same order after a reload and a run", async ({
  page,
  workspace,
}) => {
  const { chat, sessions } = workspace;
  await chat.send("hello");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  const [original] = await sessions.ids();
  await page.keyboard.press("Escape");
  await page.getByTestId("inspector-rerun").click();
  await expect(page.getByTestId("branch-label")).toHaveText("forked from #1: rerun, unchanged");
  await (await sessions.newSession()).getByTestId("new-session-create").click();
  await expect(sessions.button()).toContainText("New session");

  const order = await sessions.ids();
  expect(order).toHaveLength(3);
  const branch = order.find((id) => id !== original && id !== order[0])!;
  for (const id of order) {
    await expect(page.getByTestId(`session-made-${id}`)).toHaveText(/^today \d\d:\d\d$/);
    await expect(page.getByTestId(`session-short-id-${id}`)).toHaveText(id.split("-").pop()!);
  }
  await expect(page.getByTestId(`session-branch-${branch}`)).toHaveText("⎇ rerun of #1 in “hello”");
  await expect(page.getByTestId(`session-branch-${original}`)).toHaveCount(0);
  await workspace.scratchScreenshot("session-picker");

  await page.reload();
  await workspace.expectConnected();
  expect(await sessions.ids()).toEqual(order);
  // A run in the oldest session moves nothing.
  await sessions.item(original).click();
  await chat.send("hello once more");
  await expect(chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
  expect(await sessions.ids()).toEqual(order);
});

test("Compare shows the answers' Markdown as formatting", async ({ page, workspace }) => {
  const { chat } = workspace;
  await chat.send("a tall answer please");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  await page.getByTestId("inspector-rerun").click();
  await expect(page.getByTestId("branch-label")).toContainText("rerun");
  await expect(chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
  await page.getByTestId("branch-compare").click();
  const compare = page.getByRole("dialog", { name: "Compare two runs" });
  await expect(compare.getByTestId("compare-left-answer").locator("strong")).toHaveText("tall answer");
  await expect(compare.getByTestId("compare-right-answer").locator("strong")).toHaveText("tall answer");
  await expect(compare.getByTestId("compare-left-answer")).not.toContainText("**");
});
