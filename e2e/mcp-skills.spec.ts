// Skills over MCP (SEP-2640) in the page: the SDK-built skills server (server/mcp/testing/skills-server.mjs)
// from the user's settings serves skills. The catalog shows them as mcp:docs (a name the project's own
// skill has, qualified as docs/review), the detail says where one comes from; loading it asks first (the
// card names the server), the environment tags it with its origin, and the level-3 lane shows its file as
// read. A file whose bytes do not match the listed digest fails verification in the tool card.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "./fixtures.ts";
import { WorkspacePage } from "./pages/workspace-page.ts";

const skillsServer = fileURLToPath(new URL("../server/mcp/testing/skills-server.mjs", import.meta.url));

async function put(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

test("an MCP server's skills list as mcp:docs, load with consent, and pass or fail verification", async ({
  page,
  playground,
}) => {
  const served = path.join(playground.home, "served-skills");
  await put(
    path.join(served, "pdf-tools", "SKILL.md"),
    "---\nname: pdf-tools\ndescription: Fill PDF forms. Use when the user asks to fill a PDF form.\n---\n# PDF tools\nRead reference/forms.md before filling a form.\n",
  );
  await put(
    path.join(served, "pdf-tools", "reference", "forms.md"),
    "# Forms\nField names are case-sensitive.\n",
  );
  await put(
    path.join(served, "review", "SKILL.md"),
    "---\nname: review\ndescription: The server's review.\n---\nBody.\n",
  );
  await put(
    path.join(served, "tampered", "SKILL.md"),
    "---\nname: tampered\ndescription: Listed with a wrong digest.\n---\nRead ref.md.\n",
  );
  await put(path.join(served, "tampered", "ref.md"), "the real reference\n");
  const overrides = path.join(playground.home, "overrides.json");
  await writeFile(
    overrides,
    JSON.stringify({ tampered: { digests: { "ref.md": `sha256:${"0".repeat(64)}` } } }),
  );
  await put(
    path.join(playground.home, ".PseudoClaude", "settings.json"),
    JSON.stringify({ mcpServers: { docs: { command: "node", args: [skillsServer, served, overrides] } } }),
  );

  const workspace = new WorkspacePage(page);
  await workspace.open(playground.url);
  const { catalog, chat, inspector } = workspace;
  await expect(catalog.source("pdf-tools")).toHaveText("mcp:docs", { timeout: 30_000 });
  await expect(catalog.source("docs/review")).toHaveText("mcp:docs");
  await expect(catalog.source("review")).toHaveText("project");

  await catalog.openDetail("docs/review");
  await expect(page.getByTestId("skill-detail-source")).toHaveText("mcp:docs");
  await expect(page.getByTestId("skill-mcp-origin")).toContainText("skill://review/SKILL.md");
  await expect(page.getByTestId("skill-mcp-qualified")).toContainText(
    'a skill on disk is also named "review"',
  );
  await page.getByTestId("skill-detail-close").click();

  await chat.send("fill the pdf form");
  await expect(chat.approvalCard()).toBeVisible();
  await expect(chat.approvalCard()).toContainText("served by MCP server docs");
  await chat.allowOnce();
  await expect(chat.stopTurn()).toHaveAttribute("data-reason", "completed");
  await expect(chat.toolCall("read_file").getByTestId("tool-call-result")).toContainText(
    "Field names are case-sensitive.",
  );
  await expect(page.getByTestId("skill-file-pdf-tools-reference-forms.md")).toHaveAttribute(
    "data-state",
    "read",
  );
  await inspector.selectRequest(2);
  await expect(await inspector.pane("environment")).toContainText(
    '<skill name="pdf-tools" source="mcp:docs">',
  );

  await chat.send("check the tampered skill");
  await expect(chat.approvalCard()).toBeVisible();
  await chat.allowOnce();
  await expect(chat.stopTurn().last()).toHaveAttribute("data-reason", "completed");
  await expect(chat.toolCall("read_file").last().getByTestId("tool-call-result")).toContainText(
    "verification failed",
  );
  await workspace.scratchScreenshot("mcp-skills");
});
