// Folder trust and risky sessions: a session on a folder whose own settings grant something shows what it
// would grant and asks; a workdir that contains the home folder, and bypassPermissions, need a confirmation.
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect, test, type Playground } from "./fixtures.ts";
import type { WorkspacePage } from "./pages/workspace-page.ts";

async function grantingSettings(playground: Playground): Promise<string> {
  const file = path.join(playground.workdir, ".PseudoClaude", "settings.json");
  await mkdir(path.dirname(file), { recursive: true });
  const settings = {
    permissions: {
      allow: ["run_command(*)"],
      deny: ["run_command(rm *)"],
      defaultMode: "acceptEdits",
    },
    mcpServers: { files: { command: "node", args: ["files-server.js"] } },
  };
  await writeFile(file, JSON.stringify(settings, null, 2));
  return file;
}

/** A new session on the same workdir, from the picker (the folder's settings are read when it opens). */
async function newSession(workspace: WorkspacePage, workdir?: string) {
  const dialog = await workspace.sessions.newSession();
  if (workdir !== undefined) await dialog.getByTestId("new-session-workdir").fill(workdir);
  await dialog.getByTestId("new-session-create").click();
}

test("an untrusted folder that grants something: the prompt lists it, Keep untrusted keeps its deny rules", async ({
  page,
  workspace,
  playground,
}) => {
  await expect(page.getByTestId("trust-prompt")).toHaveCount(0);
  const settingsFile = await grantingSettings(playground);
  await newSession(workspace);
  const prompt = page.getByTestId("trust-prompt");
  await expect(prompt).toBeVisible();
  await expect(prompt.getByTestId("trust-folder")).toHaveText(playground.workdir);
  await expect(prompt.getByTestId("trust-settings-file")).toHaveText(settingsFile);
  await expect(prompt.getByTestId("trust-grant-allow")).toHaveText([
    "runs without asking: allow run_command(*)",
  ]);
  await expect(prompt.getByTestId("trust-grant-mcp")).toContainText("files");
  await expect(prompt.getByTestId("trust-grant-mode")).toContainText("acceptEdits");
  await expect(page.getByTestId("header-trust")).toHaveText("untrusted folder");
  await workspace.scratchScreenshot("trust-prompt");

  await prompt.getByTestId("trust-folder-keep").click();
  await expect(prompt).toHaveCount(0);
  // Untrusted: the folder's deny rule still refuses `rm`, without asking.
  const { chat } = workspace;
  await chat.send("Please clean up the logs folder");
  await expect(chat.toolCall("run_command")).toHaveAttribute("data-state", "denied");
  await expect(chat.approvalCard()).toHaveCount(0);
  expect(existsSync(path.join(playground.workdir, "logs", "app.log"))).toBe(true);

  // The header badge brings the prompt back; trusting for this session is not remembered.
  await page.getByTestId("header-trust").click();
  await expect(prompt).toBeVisible();
  await prompt.getByTestId("trust-folder-session").click();
  await expect(prompt).toHaveCount(0);
  await expect(page.getByTestId("header-trust")).toHaveText("trusted folder");
  await expect(page.getByTestId("header-trust")).toHaveAttribute("title", /this session only/);
  expect(existsSync(path.join(playground.home, ".PseudoClaude", "trusted-folders.json"))).toBe(false);
});

test("Trust this folder remembers it: the next session on it does not ask", async ({
  page,
  workspace,
  playground,
}) => {
  await grantingSettings(playground);
  await newSession(workspace);
  const prompt = page.getByTestId("trust-prompt");
  await prompt.getByTestId("trust-folder-remember").click();
  await expect(page.getByTestId("header-trust")).toHaveText("trusted folder");
  const store = await readFile(path.join(playground.home, ".PseudoClaude", "trusted-folders.json"), "utf8");
  expect(store).toContain(playground.workdir);
  await newSession(workspace);
  await expect(page.getByTestId("header-trust")).toHaveText("trusted folder");
  await expect(prompt).toHaveCount(0);
});

test("a workdir that contains the home folder asks first; Cancel creates nothing, Confirm creates it", async ({
  page,
  workspace,
  playground,
}) => {
  const broad = path.dirname(playground.home);
  const before = await workspace.sessions.ids();
  await page.keyboard.press("Escape");
  await newSession(workspace, broad);
  const dialog = page.getByTestId("confirmation-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("confirmation-item-broad_workdir")).toContainText(
    `${broad} is / or contains your home folder`,
  );
  await expect(dialog.getByTestId("confirmation-item-broad_workdir")).toBeVisible();
  await workspace.scratchScreenshot("confirmation-broad-workdir");
  await dialog.getByTestId("confirmation-cancel").click();
  await expect(dialog).toHaveCount(0);
  expect(await workspace.sessions.ids()).toHaveLength(before.length);
  await page.keyboard.press("Escape");

  await newSession(workspace, broad);
  await dialog.getByTestId("confirmation-confirm").click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId("header-workdir")).toHaveAttribute("title", `Working directory: ${broad}`);
  expect(await workspace.sessions.ids()).toHaveLength(before.length + 1);
  await expect(workspace.errorCards()).toHaveCount(0);
});

test("bypassPermissions: the new-session dialog warns and needs a tick; the header switch asks", async ({
  page,
  workspace,
}) => {
  const dialog = await workspace.sessions.newSession();
  await expect(dialog.getByTestId("new-session-bypass-warning")).toHaveCount(0);
  await dialog.getByTestId("new-session-permission-mode").selectOption("bypassPermissions");
  await expect(dialog.getByTestId("new-session-bypass-warning")).toContainText("nothing asks");
  await expect(dialog.getByTestId("new-session-create")).toBeDisabled();
  await dialog.getByTestId("new-session-bypass-confirm").check();
  await dialog.getByTestId("new-session-create").click();
  // Confirmed up front: no second dialog.
  await expect(await workspace.setting("header-permission-mode")).toHaveValue("bypassPermissions");
  await expect(page.getByTestId("confirmation-dialog")).toHaveCount(0);
  await expect(workspace.errorCards()).toHaveCount(0);

  // Switching an existing session: back to default (no question), then to bypass (asks).
  const mode = await workspace.setting("header-permission-mode");
  await mode.selectOption("default");
  await expect(mode).toHaveValue("default");
  await mode.selectOption("bypassPermissions");
  // A real dialog, in plain words, with the focus on the answer that keeps approvals on.
  const confirmation = page.getByRole("alertdialog", { name: "Stop asking before each tool runs?" });
  await expect(confirmation).toHaveAttribute("data-testid", "confirmation-dialog");
  await expect(confirmation.getByTestId("confirmation-item-bypass_permissions")).toContainText(
    "runs without asking you first",
  );
  await expect(confirmation).not.toContainText("confirm:");
  await expect(confirmation.getByTestId("confirmation-cancel")).toBeFocused();
  await workspace.scratchScreenshot("confirmation-bypass");
  await page.keyboard.press("Enter");
  await expect(confirmation).toHaveCount(0);
  await expect(await workspace.setting("header-permission-mode")).toHaveValue("default");
  await (await workspace.setting("header-permission-mode")).selectOption("bypassPermissions");
  await confirmation.getByTestId("confirmation-confirm").click();
  await expect(await workspace.setting("header-permission-mode")).toHaveValue("bypassPermissions");
});

test("the prompt shows what each MCP server runs and reaches (never a value), offers network to one that needs it, and a folder changed since asks again with the change", async ({
  page,
  workspace,
  playground,
}) => {
  const mcpFile = path.join(playground.workdir, ".mcp.json");
  const fetcherEntry = {
    command: "uvx",
    args: ["mcp-server-fetch", "--ignore-robots-txt"],
    // PATH names no uvx: the start fails at once (it would otherwise download from PyPI).
    env: { PATH: "/opt/no-such-bin", API_TOKEN: "value-never-shown" },
  };
  await writeFile(
    mcpFile,
    JSON.stringify({
      mcpServers: {
        fetcher: fetcherEntry,
        docs: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer never-shown-either" } },
      },
    }),
  );
  await newSession(workspace);
  const prompt = page.getByTestId("trust-prompt");
  const fetcher = prompt.locator('[data-testid="trust-grant-mcp"][data-server="fetcher"]');
  await expect(fetcher.getByTestId("trust-server-command")).toHaveText(
    "uvx mcp-server-fetch --ignore-robots-txt",
  );
  await expect(fetcher.getByTestId("trust-server-env")).toHaveText(
    "API_TOKEN, PATH (names only; values are not shown)",
  );
  await expect(fetcher.getByTestId("trust-server-network")).toHaveText(
    "off: it runs in the sandbox with no network",
  );
  await expect(fetcher.getByTestId("trust-server-needs-network")).toContainText(
    "uvx downloads mcp-server-fetch from PyPI when it is not installed",
  );
  const docs = prompt.locator('[data-testid="trust-grant-mcp"][data-server="docs"]');
  await expect(docs.getByTestId("trust-server-url")).toHaveText("https://mcp.example.com/mcp");
  await expect(docs.getByTestId("trust-server-headers")).toHaveText("Authorization (names only)");
  await expect(docs.getByTestId("trust-server-needs-network")).toContainText(
    "it is at mcp.example.com, another machine",
  );
  await expect(prompt).not.toContainText("never-shown");
  for (const [width, height] of [
    [1440, 900],
    [1280, 720],
  ] as const) {
    await page.setViewportSize({ width, height });
    await workspace.scratchScreenshot(`trust-prompt-servers-${width}`);
  }

  await fetcher.getByTestId("trust-server-allow-network-fetcher").check();
  await expect(fetcher.getByTestId("trust-server-network")).toHaveText("on (you allow it below)");
  await prompt.getByTestId("trust-folder-remember").click();
  await expect(page.getByTestId("header-trust")).toHaveText("trusted folder");
  const store = JSON.parse(
    await readFile(path.join(playground.home, ".PseudoClaude", "trusted-folders.json"), "utf8"),
  );
  expect(store.folders[0]).toMatchObject({ path: playground.workdir, networkServers: ["fetcher"] });
  expect(JSON.stringify(store)).not.toContain("never-shown");
  // The server ran with the network the user gave it (and failed: its PATH has no uvx).
  const row = page.getByTestId("mcp-server-fetcher");
  await expect(row.getByTestId("mcp-server-error")).toContainText("command not found: uvx");
  await expect(row.getByTestId("mcp-server-sandbox")).toHaveText(/sandbox (on · network on|off)/);
  // The remote server is not contacted while the session's network is off.
  await expect(page.getByTestId("mcp-server-docs").getByTestId("mcp-server-error")).toContainText(
    "Allow network for this session",
  );

  // Someone edits the trusted config: the next session asks again and says what changed.
  await writeFile(
    mcpFile,
    JSON.stringify({
      mcpServers: { fetcher: { ...fetcherEntry, env: { ...fetcherEntry.env, NODE_OPTIONS: "--require x" } } },
    }),
  );
  await newSession(workspace);
  await expect(page.getByTestId("header-trust")).toHaveText("untrusted folder");
  await expect(prompt.getByTestId("trust-renewal")).toContainText(
    "its settings changed since you trusted it",
  );
  await expect(prompt.getByTestId("trust-change")).toHaveText([
    "MCP server fetcher changed: env NODE_OPTIONS added",
  ]);
  await expect(prompt).not.toContainText("--require x");
  await workspace.scratchScreenshot("trust-prompt-renewal-1280");
  await expect(page.getByTestId("mcp-server-fetcher").getByTestId("mcp-server-error")).toContainText(
    "not trusted",
  );
});
