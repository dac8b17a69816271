// Issue 24: the main views and every dialog pass axe (no serious or critical violation), and a keyboard
// alone reaches them: Tab through the header (every stop named), open each dialog with Enter and close it
// with Escape (the focus comes back to what opened it), arrow through the pane tabs and the skill tabs.
// Checked at 1440×900 and 1280×720, with screenshots under test-results/screenshots/.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";
import type { WorkspacePage } from "./pages/workspace-page.ts";

const sizes = [
  [1440, 900],
  [1280, 720],
] as const;

/** Opens a dialog from `opener` with the keyboard, checks it, closes it with Escape. */
async function dialogByKeyboard(
  workspace: WorkspacePage,
  opener: Locator,
  testId: string,
  name: string,
  returnTo: Locator = opener,
): Promise<void> {
  const page = workspace.page;
  await opener.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByTestId(testId);
  await expect(dialog).toBeVisible();
  // A native modal: what is behind it is inert, the focus is inside it, and Tab stays inside.
  await expect(dialog).toHaveJSProperty("open", true);
  await expect.poll(() => focusInside(page, testId), `${name}: the focus moves into it`).toBe(true);
  for (let step = 0; step < 12; step++) await page.keyboard.press("Tab");
  expect(await focusInside(page, testId), `${name}: Tab stays inside`).toBe(true);
  await expectAccessible(page, name);
  await workspace.scratchScreenshot(`a11y-${testId}`);
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(returnTo, `${name}: the focus goes back to what opened it`).toBeFocused();
}

function focusInside(page: Page, testId: string): Promise<boolean> {
  return page.evaluate(
    (id) => !!document.querySelector(`[data-testid="${id}"]`)?.contains(document.activeElement),
    testId,
  );
}

/** The test ids of the header's Tab stops, in order, and whether each has an accessible name. */
async function headerTabStops(page: Page): Promise<string[]> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.locator("body").focus();
  const stops: string[] = [];
  for (let step = 0; step < 30; step++) {
    await page.keyboard.press("Tab");
    const stop = await page.evaluate(() => {
      const active = document.activeElement as HTMLElement | null;
      if (!active?.closest('[data-testid="header"]')) return undefined;
      const label = active.getAttribute("aria-label") ?? active.textContent ?? "";
      return `${active.dataset.testid ?? active.tagName}${label.trim() ? "" : " (UNNAMED)"}`;
    });
    if (stop === undefined) {
      if (stops.length > 0) break;
      continue;
    }
    stops.push(stop);
  }
  return stops;
}

test("the workspace, the inspector and the catalog pass axe; header, pane tabs and skill tabs work from the keyboard", async ({
  page,
  workspace,
}) => {
  // Nine axe passes (each view, the workspace at two sizes): about 25 s alone on 2 cores, more when the machine is busy.
  // What it checks is not speed, so it gets the room (Playwright's own test.slow: 3× the timeout).
  test.slow();
  const { chat, inspector } = workspace;
  await expectAccessible(page, "the workspace before the first message");
  await chat.send("hello there");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  for (const [width, height] of sizes) {
    await page.setViewportSize({ width, height });
    await expectAccessible(page, `the workspace at ${width}×${height}`);
    await workspace.scratchScreenshot(`a11y-workspace-${width}`);
  }

  // Tab through the header: every stop is a named control, in reading order.
  const stops = await headerTabStops(page);
  expect(stops.filter((stop) => stop.endsWith("(UNNAMED)"))).toEqual([]);
  for (const control of [
    "session-picker",
    "header-run-settings",
    "toggle-catalog",
    "toggle-inspector",
    "open-trigger-lab",
    "toggle-presenter",
  ])
    expect(stops).toContain(control);
  // The run settings popover: its controls are named too.
  const settings = page.getByTestId("header-run-settings");
  await settings.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("run-settings")).toBeVisible();
  await expect(settings).toHaveAttribute("aria-expanded", "true");
  await expectAccessible(page, "the run settings");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("run-settings")).toHaveCount(0);

  // The inspector: a tablist whose tabs move with the arrow keys and select as they go.
  await inspector.selectRequest(1);
  const environment = page.getByTestId("pane-tab-environment");
  await expect(environment).toHaveAttribute("aria-selected", "true");
  await environment.focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("pane-tab-messages")).toBeFocused();
  await expect(page.getByTestId("pane-tab-messages")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("pane-messages")).toBeVisible();
  await page.keyboard.press("End");
  await expect(page.getByTestId("pane-tab-raw")).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("pane-tab-stable")).toBeFocused();
  await expect(page.getByTestId("pane-stable")).toBeVisible();
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByTestId("pane-tab-raw")).toHaveAttribute("aria-selected", "true");
  // Only the selected tab is a Tab stop; Tab goes on to the panel it controls.
  await expect(page.locator('[data-testid="inspector-pane-tabs"] [role="tab"][tabindex="0"]')).toHaveCount(1);
  await page.keyboard.press("Tab");
  await expect(page.getByRole("tabpanel", { name: /Raw/ })).toBeFocused();
  await expectAccessible(page, "the inspector", '[data-testid="inspector-panel"]');
  await workspace.scratchScreenshot("a11y-inspector");

  // The catalog and a skill's detail, whose tabs work the same way.
  await expectAccessible(page, "the catalog", 'aside[aria-label="Skill catalog"]');
  await workspace.catalog.openDetail("csv-report");
  await page.getByTestId("skill-tab-sop").focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("skill-tab-raw")).toBeFocused();
  await expect(page.getByTestId("skill-raw")).toBeVisible();
  await expectAccessible(page, "a skill's detail", '[data-testid="skill-detail"]');
  // Its tools, each with the tool console's form.
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("skill-tools")).toBeVisible();
  await expectAccessible(page, "a skill's tools and their console", '[data-testid="skill-detail"]');
  await workspace.scratchScreenshot("a11y-skill-detail");

  // The slash completion: the box points at the highlighted option, which the arrows move.
  const box = page.getByTestId("composer-input");
  await box.fill("/");
  const list = page.getByRole("listbox", { name: "Skills to invoke" });
  await expect(list).toBeVisible();
  const first = await box.getAttribute("aria-activedescendant");
  expect(first).toBeTruthy();
  await expect(page.locator(`[id="${first}"]`)).toHaveAttribute("aria-selected", "true");
  await box.press("ArrowDown");
  const second = await box.getAttribute("aria-activedescendant");
  expect(second).not.toBe(first);
  await expect(page.locator(`[id="${second}"]`)).toHaveAttribute("aria-selected", "true");
  await expectAccessible(page, "the slash completion", '[data-testid="composer"]');
  await box.press("Escape");
  await expect(list).toHaveCount(0);
  await expect(box).toHaveValue("/");
});

test("every dialog is a native modal that passes axe, opens with Enter and closes with Escape", async ({
  page,
  workspace,
  playground,
}) => {
  const { chat } = workspace;
  await chat.send("hello there");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  await workspace.inspector.selectRequest(1);

  await dialogByKeyboard(
    workspace,
    page.getByTestId("inspector-edit-resend"),
    "edit-request",
    "Edit & resend",
  );
  await dialogByKeyboard(
    workspace,
    page.getByTestId("inspector-compare"),
    "compare-view",
    "Compare two runs",
  );
  await dialogByKeyboard(workspace, page.getByTestId("open-trigger-lab"), "trigger-lab", "the trigger lab");
  await dialogByKeyboard(workspace, page.getByTestId("catalog-add-skill"), "add-skill-dialog", "Add skill");

  // From the session list (a popover): New session, and the delete confirmation.
  await workspace.sessions.open();
  // The menu closes as the dialog opens: the focus comes back to the picker.
  await dialogByKeyboard(
    workspace,
    page.getByTestId("session-new"),
    "new-session-dialog",
    "New session",
    workspace.sessions.button(),
  );
  await workspace.sessions.open();
  const [current] = await workspace.sessions.ids();
  await dialogByKeyboard(
    workspace,
    page.getByTestId(`session-delete-${current}`),
    `session-delete-confirm-${current}`,
    "the delete confirmation",
  );
  // Escape closed the confirmation only: the list is still open, the session still there.
  await expect(workspace.sessions.item(current)).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(workspace.sessions.list()).toHaveCount(0);

  // The bypass confirmation, asked by the header's permission switch; its safe answer has the focus.
  const mode = await workspace.setting("header-permission-mode");
  await mode.selectOption("bypassPermissions");
  const confirmation = page.getByRole("alertdialog", { name: "Stop asking before each tool runs?" });
  await expect(confirmation).toHaveJSProperty("open", true);
  await expect(confirmation.getByTestId("confirmation-cancel")).toBeFocused();
  await expectAccessible(page, "the bypass confirmation");
  await workspace.scratchScreenshot("a11y-confirmation");
  await page.keyboard.press("Escape");
  await expect(confirmation).toHaveCount(0);
  await expect(await workspace.setting("header-permission-mode")).toHaveValue("default");
  await page.keyboard.press("Escape");

  // The trust prompt: a folder whose settings grant something asks in a modal; Escape keeps it untrusted.
  const settingsFile = path.join(playground.workdir, ".PseudoClaude", "settings.json");
  await mkdir(path.dirname(settingsFile), { recursive: true });
  await writeFile(settingsFile, JSON.stringify({ permissions: { allow: ["run_command(ls *)"] } }));
  const dialog = await workspace.sessions.newSession();
  await dialog.getByTestId("new-session-create").press("Enter");
  const prompt = page.getByRole("alertdialog", { name: /Trust this folder\?/ });
  await expect(prompt).toHaveJSProperty("open", true);
  await expect(prompt.getByTestId("trust-folder-keep")).toBeFocused();
  for (const [width, height] of sizes) {
    await page.setViewportSize({ width, height });
    await expectAccessible(page, `the trust prompt at ${width}×${height}`);
    await workspace.scratchScreenshot(`a11y-trust-prompt-${width}`);
  }
  await page.keyboard.press("Escape");
  await expect(prompt).toHaveCount(0);
  await expect(page.getByTestId("header-trust")).toHaveText("untrusted folder");
});

test("presenter mode passes axe at 1280×720 and 1440×900, with an approval waiting", async ({
  page,
  workspace,
}) => {
  const { chat } = workspace;
  await page.getByTestId("toggle-presenter").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-presenter", "true");
  await chat.send("clean up the logs");
  await expect(chat.approvalCard()).toBeVisible();
  // The waiting approval is announced, not only drawn.
  await expect(page.getByTestId("approval-announcement")).toHaveText(/Approval needed: run_command/);
  for (const [width, height] of sizes) {
    await page.setViewportSize({ width, height });
    await expectAccessible(page, `presenter mode at ${width}×${height}`);
    await workspace.scratchScreenshot(`a11y-presenter-${width}`);
  }
  await chat.deny("not now");
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  await expect(page.getByTestId("approval-announcement")).toHaveText("");
  await expectAccessible(page, "presenter mode after the run");
});
