// Presenter mode fits a projector: at 1280×720 (presenter type) and 1440×900 the header is one row that
// fits the width, the inspector's summary is not squeezed into a box of its own, every pane tab is on
// screen whole, and the catalog never draws over the MCP panel. Screenshots of both sizes go to the
// git-ignored test-results/screenshots/ for a person to look at.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { WorkspacePage } from "./pages/workspace-page.ts";

const everything = fileURLToPath(
  new URL("../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);

/** The header holds one row of controls and nothing sticks out of it. */
async function expectOneRowHeader(page: Page) {
  const header = page.getByTestId("header");
  const fits = await header.evaluate((element) => ({
    overflow: element.scrollWidth - element.clientWidth,
    rightEdge: element.getBoundingClientRect().right,
    width: window.innerWidth,
  }));
  expect(fits.overflow, "header content wider than the header").toBeLessThanOrEqual(0);
  expect(fits.rightEdge).toBeLessThanOrEqual(fits.width);
  const tops = await header.evaluate((element) =>
    [...element.children].map((child) => {
      const box = child.getBoundingClientRect();
      return {
        top: box.top,
        bottom: box.bottom,
        name: (child as HTMLElement).dataset.testid ?? child.tagName,
      };
    }),
  );
  // Side by side, none drawn over another, none cut (only the workdir and the session title may end in "…").
  const boxes = await header.evaluate((element) =>
    [...element.children].map((child) => {
      const box = child.getBoundingClientRect();
      const describe = (node: Element) =>
        `<${node.tagName.toLowerCase()} ${(node as HTMLElement).dataset.testid ?? ""} "${(node.textContent ?? "").slice(0, 30)}">`;
      const clipped = [child, ...child.querySelectorAll("*")]
        .filter(
          (node) =>
            node instanceof HTMLElement &&
            // Screen-reader-only text is 1 px wide on purpose.
            node.clientWidth > 1 &&
            getComputedStyle(node).textOverflow !== "ellipsis" &&
            node.scrollWidth > node.clientWidth + 1 &&
            getComputedStyle(node).overflowX !== "visible",
        )
        .map(describe);
      const spills = [...child.querySelectorAll("*")].some((node) => {
        const inner = node.getBoundingClientRect();
        return inner.width > 0 && (inner.left < box.left - 1 || inner.right > box.right + 1);
      });
      return {
        left: box.left,
        right: box.right,
        clipped,
        spills,
        name: (child as HTMLElement).dataset.testid ?? child.tagName,
      };
    }),
  );
  for (let index = 1; index < boxes.length; index++)
    expect(
      boxes[index].left,
      `${boxes[index].name} starts after ${boxes[index - 1].name} ends`,
    ).toBeGreaterThanOrEqual(boxes[index - 1].right - 1);
  for (const box of boxes) {
    expect(box.clipped, `${box.name} is cut`).toEqual([]);
    expect(box.spills, `${box.name} spills out of its place`).toBe(false);
  }
  const picker = (await page.getByTestId("session-picker").boundingBox())!;
  // One row: every item's vertical middle within the picker button's height.
  for (const item of tops) {
    const middle = (item.top + item.bottom) / 2;
    expect(middle, item.name).toBeGreaterThan(picker.y);
    expect(middle, item.name).toBeLessThan(picker.y + picker.height);
  }
  for (const control of ["toggle-presenter", "toggle-inspector", "header-run-settings", "session-picker"])
    await expect(page.getByTestId(control)).toBeInViewport({ ratio: 1 });
}

/** Nothing in the catalog column (the catalog, the MCP panel) is wider than the column: no sideways scroll. */
async function expectCatalogColumnFits(page: Page) {
  const wider = await page.getByRole("complementary", { name: "Skill catalog" }).evaluate((column) => {
    const right = column.getBoundingClientRect().right;
    return [...column.querySelectorAll<HTMLElement>("*")]
      .filter(
        (node) => node.getBoundingClientRect().width > 0 && node.getBoundingClientRect().right > right + 1,
      )
      .map((node) => `${node.dataset.testid ?? node.tagName} "${(node.textContent ?? "").slice(0, 40)}"`);
  });
  expect(wider, "wider than the catalog column").toEqual([]);
}

/** The summary is at its full height (no scroller of its own) and every pane tab is on screen whole. */
async function expectInspectorFits(page: Page) {
  const summary = page.getByTestId("inspector-summary-area");
  const nested = await summary.evaluate((element) => ({
    overflowY: getComputedStyle(element).overflowY,
    hidden: element.scrollHeight - element.clientHeight,
  }));
  expect(["visible", "clip"]).toContain(nested.overflowY);
  expect(nested.hidden).toBeLessThanOrEqual(1);
  const inspector = (await page.getByRole("complementary", { name: "Prompt inspector" }).boundingBox())!;
  for (const pane of ["stable", "environment", "messages", "tools", "raw"]) {
    const tab = page.getByTestId(`pane-tab-${pane}`);
    await expect(tab).toBeInViewport({ ratio: 1 });
    const box = (await tab.boundingBox())!;
    expect(box.x + box.width, pane).toBeLessThanOrEqual(inspector.x + inspector.width + 1);
  }
  // Choosing a pane shows it, and its tabs stay on screen.
  await page.getByTestId("pane-tab-tools").click();
  await expect(page.getByTestId("pane-tools")).toBeInViewport();
  await expect(page.getByTestId("pane-tab-raw")).toBeInViewport({ ratio: 1 });
}

test("at 1280×720 in presenter mode and at 1440×900: one header row, the summary and every pane tab on screen", async ({
  page,
  workspace,
}) => {
  const { chat } = workspace;
  await chat.send("profile data/sales.csv");
  await chat.allowOnce();
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");

  await page.setViewportSize({ width: 1440, height: 900 });
  await expectOneRowHeader(page);
  await expectInspectorFits(page);
  await workspace.scratchScreenshot("layout-1440x900");

  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByTestId("toggle-presenter").click();
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-presenter", "true");
  await expectOneRowHeader(page);
  await expectInspectorFits(page);
  await expectCatalogColumnFits(page);
  await workspace.scratchScreenshot("layout-1280x720-presenter");
  // The run settings open from the one row and stay usable.
  await (await workspace.setting("header-disclosure-mode")).selectOption("eager");
  await expect(page.getByTestId("header-run-settings-summary")).toHaveText("default · eager");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("run-settings")).toHaveCount(0);
  await expectOneRowHeader(page);
  await workspace.scratchScreenshot("layout-1280x720-settings");
});

test("the catalog scrolled to its warnings never draws over the MCP panel", async ({ page, playground }) => {
  const broken = path.join(playground.workdir, ".PseudoClaude", "skills");
  for (let index = 1; index <= 6; index++) {
    await mkdir(path.join(broken, `broken-${index}`), { recursive: true });
    await writeFile(
      path.join(broken, `broken-${index}`, "SKILL.md"),
      `---\nname: broken-${index}\n---\nno description\n`,
    );
  }
  await writeFile(
    path.join(playground.workdir, ".mcp.json"),
    JSON.stringify({ mcpServers: { everything: { command: "node", args: [everything, "stdio"] } } }),
  );
  await page.setViewportSize({ width: 1280, height: 720 });
  const workspace = new WorkspacePage(page);
  await workspace.open(playground.url);
  await page.getByTestId("trust-prompt").getByTestId("trust-folder-session").click();
  const mcp = page.getByTestId("mcp-panel");
  await expect(mcp.getByTestId("mcp-server-everything")).toHaveAttribute("data-status", "connected", {
    timeout: 30_000,
  });
  // Scroll the catalog to its end (its warnings), as a reader would.
  const list = page.getByTestId("skill-list").locator("xpath=..");
  await list.evaluate((element) => (element.scrollTop = element.scrollHeight));
  const box = (await mcp.boundingBox())!;
  for (const [x, y] of [
    [box.x + 4, box.y + 4],
    [box.x + box.width / 2, box.y + 8],
    [box.x + box.width - 4, box.y + Math.min(box.height - 4, 40)],
  ]) {
    const inside = await page.evaluate(
      ([left, top]) => !!document.elementFromPoint(left, top)?.closest('[data-testid="mcp-panel"]'),
      [x, y],
    );
    expect(inside, `the point (${x}, ${y}) of the MCP panel shows the panel`).toBe(true);
  }
  await workspace.scratchScreenshot("catalog-and-mcp-1280x720");
  // In presenter type the panel's figures wrap inside the column instead of running out of it.
  await page.getByTestId("toggle-presenter").click();
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-presenter", "true");
  await expectCatalogColumnFits(page);
});
