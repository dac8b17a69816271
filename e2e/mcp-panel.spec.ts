// MCP servers in the browser: the workdir's .mcp.json starts the reference server-everything (over stdio,
// in the sandbox) once the folder is trusted; the MCP panel shows it, its tools with the token cost of
// their definitions and its stderr; echo runs from the panel's tool console through an approval card that
// names the server; the image tool's picture is shown.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "./fixtures.ts";
import { expectAccessible } from "./axe.ts";
import { WorkspacePage } from "./pages/workspace-page.ts";

const everything = fileURLToPath(
  new URL("../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);

test("the MCP panel shows the server and its tools; echo from the tool console works", async ({
  page,
  playground,
}) => {
  await writeFile(
    path.join(playground.workdir, ".mcp.json"),
    JSON.stringify({ mcpServers: { everything: { command: "node", args: [everything, "stdio"] } } }),
  );
  const workspace = new WorkspacePage(page);
  await workspace.open(playground.url);

  // Untrusted: listed, not started.
  const panel = page.getByTestId("mcp-panel");
  const server = panel.getByTestId("mcp-server-everything");
  await expect(server).toHaveAttribute("data-status", "withheld");
  const prompt = page.getByTestId("trust-prompt");
  await expect(prompt.getByTestId("trust-grant-mcp")).toContainText("everything");
  await prompt.getByTestId("trust-folder-session").click();

  await expect(server).toHaveAttribute("data-status", "connected", { timeout: 30_000 });
  await expect(server.getByTestId("mcp-server-sandbox")).toHaveText(/sandbox (on · network off|off)/);
  await expect(server.getByTestId("mcp-server-tools").locator(":scope > summary")).toContainText(
    "tokens of definitions",
  );
  await server.getByTestId("mcp-server-tools").locator(":scope > summary").click();
  const echo = server.getByTestId("mcp-tool-mcp__everything__echo");
  await expect(echo).toBeVisible();
  await expect(server.getByTestId("mcp-tool-mcp__everything__get-sum")).toBeVisible();
  await expect(echo.getByTestId("mcp-tool-tokens")).toHaveText(/^\d+ tokens$/);
  await expect(panel.getByTestId("mcp-total-tokens")).toHaveText(
    /^\d+ tokens of definitions per request, from the first run after they connect$/,
  );
  await server
    .getByTestId("mcp-server-stderr")
    .evaluate((element) => element.closest("details")?.setAttribute("open", ""));
  await expect(server.getByTestId("mcp-server-stderr")).toContainText("Starting default (STDIO) server");
  await workspace.scratchScreenshot("mcp-panel");
  await expectAccessible(page, "the MCP panel with a server and its tools");

  // The tool console: a form from echo's input schema, the call through an approval card.
  const toolConsole = echo.getByTestId("tool-console-mcp__everything__echo");
  await toolConsole.locator("summary").click();
  await toolConsole
    .getByTestId("console-form-mcp__everything__echo-field-message")
    .fill("hello from the browser");
  await toolConsole.getByTestId("console-form-mcp__everything__echo-submit").click();
  const card = workspace.chat.approvalCard();
  await expect(card.getByTestId("approval-mcp")).toContainText("everything");
  await workspace.chat.allowOnce();
  await expect(toolConsole.getByTestId("console-stdout")).toHaveText("Echo: hello from the browser");
  await expect(toolConsole.getByTestId("console-status")).toHaveText("ok");

  // An image result is shown as an image (the model was told about it in words).
  const image = server.getByTestId("tool-console-mcp__everything__get-tiny-image");
  await image.locator("summary").click();
  await image.getByTestId("console-form-mcp__everything__get-tiny-image-submit").click();
  await workspace.chat.allowOnce();
  await expect(image.getByTestId("mcp-result-image")).toBeVisible();
  await expect(image.getByTestId("console-stdout")).toContainText("[image: image/png");

  // Restart: the server goes away and comes back.
  await server.getByTestId("mcp-reconnect-everything").click();
  await expect(server).toHaveAttribute("data-status", "connected", { timeout: 30_000 });
});
