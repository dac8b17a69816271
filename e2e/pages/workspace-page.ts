// Page objects for the workspace: one method per thing a user does or looks at, so the specs read like
// the walk-through and every locator lives in one place.
import { expect, type Locator, type Page } from "@playwright/test";
import path from "node:path";
import { fileURLToPath } from "node:url";

// A test run writes its screenshots under the git-ignored test-results/; `UPDATE_SCREENSHOTS=1` refreshes
// the tracked ones in e2e/screenshots/ (the README shows them) on purpose.
const screenshotDir = fileURLToPath(
  new URL(
    process.env.UPDATE_SCREENSHOTS === "1" ? "../screenshots/" : "../../test-results/screenshots/",
    import.meta.url,
  ),
);
/** Screenshots taken to look at, not to track (git-ignored). */
const scratchDir = fileURLToPath(new URL("../../test-results/screenshots/", import.meta.url));

export type PaneName = "stable" | "environment" | "messages" | "tools" | "raw";

export class CatalogPanel {
  constructor(private readonly page: Page) {}
  skill(name: string): Locator {
    return this.page.getByTestId(`skill-${name}`);
  }
  source(name: string): Locator {
    return this.page.getByTestId(`skill-source-${name}`);
  }
  stage(name: string): Locator {
    return this.page.getByTestId(`skill-stage-${name}`);
  }
  shadow(name: string): Locator {
    return this.page.getByTestId(`skill-shadow-${name}`);
  }
  async reload() {
    await this.page.getByTestId("catalog-reload").click();
  }
  reloadEntries(): Locator {
    return this.page.getByTestId("reload-entry");
  }
  async openDetail(name: string) {
    await this.skill(name).click();
    await expect(this.page.getByTestId("skill-detail")).toBeVisible();
  }
}

export class ChatPanel {
  constructor(private readonly page: Page) {}
  async send(text: string) {
    await this.page.getByTestId("composer-input").fill(text);
    await this.page.getByTestId("chat-send").click();
  }
  /** Sends with the Enter key, leaving the focus where a keyboard user's would be. */
  async sendWithEnter(text: string) {
    await this.page.getByTestId("composer-input").fill(text);
    await this.page.getByTestId("composer-input").press("Enter");
  }
  approvalCard(): Locator {
    return this.page.getByTestId("approval-card");
  }
  /**
   * Gives the oldest approval card the focus (a click on its heading, as a user would) and waits until its
   * single-key answers are armed.
   */
  async focusApproval() {
    await this.approvalCard().first().getByTestId("approval-title").click();
    await expect(this.approvalCard().first()).toBeFocused();
    await expect(this.approvalCard().first()).toHaveAttribute("data-armed", "true");
  }
  /** Answers the oldest approval with its single key: focus the card, wait for it to arm, press. */
  async answerWithKey(key: "a" | "s" | "d") {
    await this.focusApproval();
    await this.page.keyboard.press(key);
  }
  async allowOnce() {
    await this.approvalCard().getByTestId("approval-allow-once").click();
  }
  async deny(reason: string) {
    await this.approvalCard().getByTestId("approval-deny-reason").fill(reason);
    await this.approvalCard().getByTestId("approval-deny").click();
  }
  toolCall(name: string): Locator {
    return this.page.locator(`[data-tool="${name}"]`);
  }
  assistantTexts(): Locator {
    return this.page.getByTestId("assistant-text");
  }
  userTurns(): Locator {
    return this.page.getByTestId("turn-user");
  }
  stopTurn(): Locator {
    return this.page.getByTestId("turn-stop");
  }
  async stop() {
    await this.page.getByTestId("chat-stop").click();
  }
}

export class InspectorPanel {
  constructor(private readonly page: Page) {}
  async selectRequest(index: number) {
    await this.page.getByTestId(`timeline-request-${index}`).click();
    await expect(this.page.getByTestId("inspector-selected")).toHaveText(`Request #${index}`);
  }
  timelineEntry(index: number): Locator {
    return this.page.getByTestId(`timeline-request-${index}`);
  }
  /** Opens a pane and returns its content. */
  async pane(name: PaneName): Promise<Locator> {
    await this.page.getByTestId(`pane-tab-${name}`).click();
    const pane = this.page.getByTestId(`pane-${name}`);
    await expect(pane).toBeVisible();
    return pane;
  }
  stableUnchanged(): Locator {
    return this.page.getByTestId("stable-unchanged");
  }
  stableHash(): Locator {
    return this.page.getByTestId("stable-hash-value");
  }
  notVisibleLane(): Locator {
    return this.page.getByTestId("lane-not-visible");
  }
  activeLane(): Locator {
    return this.page.getByTestId("lane-active");
  }
  tokenTotal(): Locator {
    return this.page.getByTestId("tokens-total");
  }
}

export class SessionPicker {
  constructor(private readonly page: Page) {}
  button(): Locator {
    return this.page.getByTestId("session-picker");
  }
  list(): Locator {
    return this.page.getByTestId("session-list");
  }
  async open() {
    if (!(await this.list().isVisible())) await this.button().click();
    await expect(this.list()).toBeVisible();
  }
  items(): Locator {
    return this.list().locator('[data-testid^="session-item-"]');
  }
  item(id: string): Locator {
    return this.page.getByTestId(`session-item-${id}`);
  }
  /** Ids of the listed sessions, in list order. */
  async ids(): Promise<string[]> {
    await this.open();
    const testIds = await this.items().evaluateAll((nodes) => nodes.map((node) => node.dataset.testid ?? ""));
    return testIds.map((testId) => testId.replace("session-item-", ""));
  }
  /** Asks to delete; the confirmation is returned, not answered. */
  async askDelete(id: string): Promise<Locator> {
    await this.open();
    await this.page.getByTestId(`session-delete-${id}`).click();
    const confirmation = this.page.getByTestId(`session-delete-confirm-${id}`);
    await expect(confirmation).toBeVisible();
    return confirmation;
  }
  async newSession(settings: { provider?: string } = {}): Promise<Locator> {
    await this.open();
    await this.page.getByTestId("session-new").click();
    const dialog = this.page.getByTestId("new-session-dialog");
    await expect(dialog).toBeVisible();
    if (settings.provider)
      await this.page.getByTestId("new-session-provider").selectOption(settings.provider);
    return dialog;
  }
}

export class WorkspacePage {
  readonly catalog: CatalogPanel;
  readonly chat: ChatPanel;
  readonly inspector: InspectorPanel;
  readonly sessions: SessionPicker;
  constructor(readonly page: Page) {
    this.catalog = new CatalogPanel(page);
    this.chat = new ChatPanel(page);
    this.inspector = new InspectorPanel(page);
    this.sessions = new SessionPicker(page);
  }

  async open(url: string) {
    await this.page.goto(url);
    await this.expectConnected();
  }

  /** A new session whose model is the person at the page (the manual provider), opened and shown. */
  async newManualSession() {
    await this.sessions.newSession({ provider: "manual" });
    await this.page.getByTestId("new-session-create").click();
    await expect(this.page.getByTestId("manual-badge")).toBeVisible();
  }

  async expectConnected() {
    await expect(this.page.getByTestId("connection-status")).toHaveText("connected");
    // A session is open once the catalog has arrived.
    await expect(this.page.getByTestId("skill-list")).toBeVisible();
  }

  /**
   * A control of the session's run settings (permissions, disclosure, cache, network), which live behind
   * the header's settings button: opens that popover when it is closed, then returns the control.
   */
  async setting(testId: string): Promise<Locator> {
    const popover = this.page.getByTestId("run-settings");
    if (!(await popover.isVisible())) await this.page.getByTestId("header-run-settings").click();
    await expect(popover).toBeVisible();
    return this.page.getByTestId(testId);
  }

  errorCards(): Locator {
    return this.page.getByTestId("error-card");
  }

  async screenshot(name: string) {
    await this.page.screenshot({ path: path.join(screenshotDir, `${name}.png`) });
  }

  /** A screenshot under test-results/screenshots/ (git-ignored), for looking at a new view. */
  async scratchScreenshot(name: string) {
    await this.page.screenshot({ path: path.join(scratchDir, `${name}.png`) });
  }
}
