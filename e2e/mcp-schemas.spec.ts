// What an MCP server published that the playground cannot take as is, on the server's own row: this repo's
// schema server (every JSON Schema dialect, and two tools whose input schemas cannot be compiled here)
// has every tool registered and counted; the two carry "arguments not checked" with the reason, and the
// row's warnings say the same. The list at the top of the panel does not repeat them.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "./fixtures.ts";
import { WorkspacePage } from "./pages/workspace-page.ts";

const schemaServer = fileURLToPath(new URL("../server/mcp/testing/schema-server.mjs", import.meta.url));

test("every tool of a server is registered and counted; a schema not compiled here is flagged on its row", async ({
  page,
  playground,
}) => {
  await writeFile(
    path.join(playground.workdir, ".mcp.json"),
    JSON.stringify({ mcpServers: { schemas: { command: "node", args: [schemaServer] } } }),
  );
  const workspace = new WorkspacePage(page);
  await workspace.open(playground.url);
  await page.getByTestId("trust-prompt").getByTestId("trust-folder-session").click();

  const panel = page.getByTestId("mcp-panel");
  const server = panel.getByTestId("mcp-server-schemas");
  await expect(server).toHaveAttribute("data-status", "connected", { timeout: 30_000 });
  await expect(server.getByTestId("mcp-server-tool-count")).toContainText("11 tools registered");
  const warnings = server.getByTestId("mcp-server-warning");
  await expect(warnings).toHaveCount(2);
  await expect(warnings.nth(0)).toContainText('tool "lookahead": its arguments are not checked');
  await expect(warnings.nth(0)).toContainText("/properties/code/pattern");
  await expect(warnings.nth(1)).toContainText('tool "ancient": its arguments are not checked');
  await expect(panel.getByTestId("mcp-warning")).toHaveCount(0);

  const lookahead = server.getByTestId("mcp-tool-mcp__schemas__lookahead");
  await expect(lookahead.getByTestId("mcp-tool-unchecked")).toHaveText("arguments not checked");
  await expect(lookahead.getByTestId("mcp-tool-unchecked")).toHaveAttribute("title", /lookahead/);
  await expect(
    server.getByTestId("mcp-tool-mcp__schemas__order").getByTestId("mcp-tool-unchecked"),
  ).toHaveCount(0);
  await workspace.scratchScreenshot("mcp-schemas");
});
