// MCP in the demo. Without servers the MCP panel says what an MCP server adds and how to configure one.
// With the demo's own .mcp.json (its plain-Node tickets server), trusting the folder starts the server,
// the panel lists its tools, and the mcp-tickets scenario calls them through approval cards; the Tools
// pane marks them as the server's.
import { demoScenarios, expect, test } from "./fixtures.ts";

test.describe("without MCP servers", () => {
  test("the MCP panel has an empty state that says how to add one", async ({ page, workspace }) => {
    const panel = page.getByTestId("mcp-panel");
    await expect(panel.getByTestId("mcp-empty")).toHaveText("none in this session");
    await expect(panel.getByTestId("mcp-empty-how")).toContainText(".mcp.json");
    await expect(panel.getByTestId("mcp-empty-how")).toContainText("~/.PseudoClaude/settings.json");
    await panel.locator("summary").click();
    await expect(panel.getByTestId("mcp-empty-example")).toContainText('"mcpServers"');
    await workspace.scratchScreenshot("mcp-empty");
  });
});

test.describe("the demo's tickets server", () => {
  test.use({ scenariosDir: demoScenarios, demoMcp: true });

  test("starts once the folder is trusted; the walk-through calls its tools", async ({ page, workspace }) => {
    const server = page.getByTestId("mcp-server-tickets");
    await expect(server).toHaveAttribute("data-status", "withheld");
    await page.getByTestId("trust-prompt").getByTestId("trust-folder-session").click();
    await expect(server).toHaveAttribute("data-status", "connected", { timeout: 30_000 });
    await expect(server.getByTestId("mcp-server-tools").locator(":scope > summary")).toContainText("2 tools");
    await server.getByTestId("mcp-server-tools").locator(":scope > summary").click();
    await expect(server.getByTestId("mcp-tool-mcp__tickets__search_tickets")).toBeVisible();
    await expect(server.getByTestId("mcp-tool-mcp__tickets__get_ticket")).toBeVisible();

    const { chat, inspector } = workspace;
    await chat.send("which ticket tracks the cents bug?");
    await expect(chat.approvalCard().getByTestId("approval-mcp")).toContainText("tickets");
    const first = await chat.approvalCard().getAttribute("data-call-id");
    await chat.allowOnce();
    // The second call's card, not the first one still on screen until its answer comes back.
    await expect(chat.approvalCard()).not.toHaveAttribute("data-call-id", first ?? "");
    await expect(chat.approvalCard().getByTestId("approval-mcp")).toContainText("tickets");
    await chat.allowOnce();
    await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
    await expect(chat.toolCall("mcp__tickets__get_ticket").getByTestId("tool-call-result")).toContainText(
      "ACME-101 [open] Revenue is off by a cent on Sprocket lines",
    );
    await inspector.selectRequest(1);
    const tools = await inspector.pane("tools");
    await expect(tools).toContainText("mcp__tickets__search_tickets");
    await expect(tools).toContainText("MCP: tickets");
    await workspace.scratchScreenshot("demo-mcp");
  });
});
