// "Add skill" with a plugin bundle: an Agent Plugins zip with two skills and one MCP server (the SDK-built
// skills server, its argument written with ${PLUGIN_ROOT}) dropped on the dialog. The plan lists the
// plugin's skills and the server it adds to the project's settings; installed, both skills appear in the
// catalog with their plugin; a new session on the folder asks for trust before the server starts, and
// once trusted the server runs (the skill it serves is listed as mcp:<plugin>-<server>).
import { fileURLToPath } from "node:url";
import { zipSync } from "fflate";
import { expect, test } from "./fixtures.ts";
import { dropFile } from "./pages/drop-file.ts";

const encode = (text: string) => new TextEncoder().encode(text);
const skillsServer = fileURLToPath(new URL("../server/mcp/testing/skills-server.mjs", import.meta.url));

function pluginZip(): Buffer {
  const skill = (name: string) =>
    encode(`---\nname: ${name}\ndescription: The ${name} skill of the demo plugin.\n---\nDo ${name}.\n`);
  return Buffer.from(
    zipSync({
      "demo-plugin/plugin.json": encode(
        JSON.stringify({
          $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
          name: "demo-plugin",
        }),
      ),
      "demo-plugin/skills/alpha/SKILL.md": skill("alpha"),
      "demo-plugin/skills/beta/SKILL.md": skill("beta"),
      "demo-plugin/served/gamma/SKILL.md": skill("gamma"),
      "demo-plugin/mcp.json": encode(
        JSON.stringify({
          $schema: "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json",
          mcpServers: {
            docs: { type: "stdio", command: "node", args: [skillsServer, "${PLUGIN_ROOT}/served"] },
          },
        }),
      ),
    }),
  );
}

test("a plugin zip installs as one unit; its server starts once the folder is trusted", async ({
  page,
  workspace,
}) => {
  const { catalog } = workspace;
  await page.getByTestId("catalog-add-skill").click();
  await page.getByTestId("add-skill-layer-project").check();
  await dropFile(page, "demo-plugin.zip", pluginZip());
  await expect(page.getByTestId("add-skill-plan-name")).toHaveText("demo-plugin");
  await expect(page.getByTestId("add-skill-plugin")).toContainText("alpha, beta");
  await expect(page.getByTestId("add-skill-plugin-server")).toContainText("demo-plugin-docs");
  await page.getByTestId("add-skill-install").click();
  await expect(page.getByTestId("add-skill-installed")).toContainText("demo-plugin");
  await page.getByTestId("add-skill-close").click();
  await expect(catalog.source("alpha")).toHaveText("project");
  await expect(page.getByTestId("skill-plugin-alpha")).toHaveText("plugin: demo-plugin");
  await expect(page.getByTestId("skill-plugin-beta")).toHaveText("plugin: demo-plugin");

  // The folder's settings now grant an MCP server: a new session on it asks before starting it.
  const dialog = await workspace.sessions.newSession();
  await dialog.getByTestId("new-session-create").click();
  const prompt = page.getByTestId("trust-prompt");
  await expect(prompt).toBeVisible();
  await expect(prompt.getByTestId("trust-grant-mcp")).toContainText("demo-plugin-docs");
  await expect(page.getByTestId("mcp-server-demo-plugin-docs")).toHaveAttribute("data-status", "withheld");
  await prompt.getByTestId("trust-folder-session").click();
  await expect(page.getByTestId("mcp-server-demo-plugin-docs")).toHaveAttribute("data-status", "connected", {
    timeout: 30_000,
  });
  await expect(catalog.source("gamma")).toHaveText("mcp:demo-plugin-docs");
  await workspace.scratchScreenshot("install-plugin");
});
