// Plugin bundles installed as one unit: an Agent Plugins 1.0 folder with two skills, a broken one and an
// MCP server (the SDK-built skills server, started with ${PLUGIN_ROOT} expanded in its args), and a
// broken server entry: the two skills list together in the chosen layer, the broken parts are warnings,
// the server joins the layer's settings and starts only once the folder is trusted. The same plugin as a
// zip, a Claude Code plugin (${CLAUDE_PLUGIN_ROOT} in its .mcp.json and its skill), the install rules
// (zip-slip), force to reinstall, and removal of the whole unit.
import { mkdir, mkdtemp, readFile, rm, writeFile, access } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadMcpConfig } from "../mcp/config.ts";
import { createWorkspace } from "../session/workspace.ts";
import { installSkill, parseInstallSource } from "./install-source.ts";
import { removePlugin } from "./install-plugin.ts";
import { AGENT_PLUGINS_MCP_SCHEMA, AGENT_PLUGINS_SCHEMA } from "./plugin-bundle.ts";
import { zipFolder, zipOf } from "./testing/zip-fixtures.ts";

const SKILLS_SERVER = fileURLToPath(new URL("../mcp/testing/skills-server.mjs", import.meta.url));

let root: string;
let home: string;
let workdir: string;

async function put(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

function skillMd(name: string, body: string): string {
  return `---\nname: ${name}\ndescription: The ${name} skill of the demo plugin.\n---\n${body}\n`;
}

/** An Agent Plugins 1.0 plugin folder: two skills, a broken one, a server, a broken server entry. */
async function agentPlugin(folder: string): Promise<string> {
  await put(
    path.join(folder, "plugin.json"),
    JSON.stringify({
      $schema: AGENT_PLUGINS_SCHEMA,
      name: "demo-plugin",
      version: "1.2.0",
      description: "Demo",
      extra: 1,
    }),
  );
  await put(path.join(folder, "skills", "alpha", "SKILL.md"), skillMd("alpha", "# Alpha\nDo alpha."));
  await put(path.join(folder, "skills", "alpha", "reference.md"), "alpha reference\n");
  await put(path.join(folder, "skills", "beta", "SKILL.md"), skillMd("beta", "# Beta\nDo beta."));
  await put(path.join(folder, "skills", "broken", "SKILL.md"), "---\nname: broken\n---\n");
  await put(
    path.join(folder, "served", "gamma", "SKILL.md"),
    "---\nname: gamma\ndescription: Served by the plugin's MCP server.\n---\nGamma.\n",
  );
  await put(
    path.join(folder, "mcp.json"),
    JSON.stringify({
      $schema: AGENT_PLUGINS_MCP_SCHEMA,
      mcpServers: {
        docs: {
          type: "stdio",
          command: "node",
          args: [SKILLS_SERVER, "${PLUGIN_ROOT}/served"],
          env: { DATA: "${PLUGIN_DATA}/x" },
        },
        bad: { type: "stdio", command: "node", shell: true },
      },
    }),
  );
  return folder;
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "plugin-install-"));
  home = path.join(root, "home");
  workdir = path.join(root, "work");
  await mkdir(home, { recursive: true });
  await mkdir(workdir, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("installing an Agent Plugins bundle", () => {
  it("installs its skills as one unit, warns about the broken parts, and adds its server to the layer's settings", async () => {
    const folder = await agentPlugin(path.join(root, "demo-plugin"));
    const outcome = await installSkill(parseInstallSource(folder), { layer: "project", home, workdir });
    if (!outcome.ok) throw new Error(outcome.refusal.message);
    const pluginRoot = path.join(workdir, ".PseudoClaude", "plugins", "demo-plugin");
    const dataDir = path.join(workdir, ".PseudoClaude", "plugins-data", "demo-plugin");
    expect(outcome.installed).toBe(true);
    expect(outcome.plan.targetDir).toBe(pluginRoot);
    const plugin = outcome.plan.plugin!;
    expect(plugin).toMatchObject({
      format: "agent-plugins",
      version: "1.2.0",
      skills: ["alpha", "beta"],
      dataDir,
    });
    expect(plugin.mcpServers.map((server) => server.name)).toEqual(["demo-plugin-docs"]);
    const warnings = plugin.warnings.join("\n");
    expect(warnings).toContain('plugin.json: unknown field "extra" is ignored');
    expect(warnings).toContain("skills/broken was left out");
    expect(warnings).toContain('server "bad" was left out: unknown field "shell"');

    const settings = JSON.parse(await readFile(path.join(workdir, ".PseudoClaude", "settings.json"), "utf8"));
    expect(settings.mcpServers["demo-plugin-docs"]).toEqual({
      command: "node",
      args: [SKILLS_SERVER, `${pluginRoot}/served`],
      env: { DATA: `${dataDir}/x`, PLUGIN_ROOT: pluginRoot, PLUGIN_DATA: dataDir },
      cwd: pluginRoot,
      plugin: "demo-plugin",
    });
    await access(dataDir);

    // Its server is a workdir server: withheld until the folder is trusted, then it runs.
    const untrusted = await loadMcpConfig({ workdir, home, trusted: false });
    expect(untrusted.servers).toEqual([]);
    expect(untrusted.withheld.map((server) => server.name)).toEqual(["demo-plugin-docs"]);
    const workspace = await createWorkspace({ workdir, home });
    try {
      const listed = workspace.catalog.snapshot().skills.filter((skill) => skill.plugin === "demo-plugin");
      expect(listed.map((skill) => [skill.name, skill.source])).toEqual([
        ["alpha", "project"],
        ["beta", "project"],
      ]);
      await workspace.startMcp(true);
      const docs = workspace.mcp.views().find((server) => server.name === "demo-plugin-docs")!;
      expect(docs.status, docs.error).toBe("connected");
      expect(workspace.catalog.get("gamma")?.source).toBe("mcp:demo-plugin-docs");
      expect((await workspace.loadSkill("alpha")).ok).toBe(true);
      expect(workspace.activeSkills.get("alpha")!.resources!.baseDir).toBe(
        path.join(pluginRoot, "skills", "alpha"),
      );
    } finally {
      await workspace.mcp.close();
    }
  }, 60_000);

  it("installs the same plugin from a zip, refuses a second install without --force, and removes it as a unit", async () => {
    const folder = await agentPlugin(path.join(root, "demo-plugin"));
    const zip = path.join(root, "demo.zip");
    await writeFile(zip, await zipFolder(folder, "demo-plugin"));
    const target = { layer: "user" as const, home };
    const first = await installSkill(parseInstallSource(zip), target);
    expect(first.ok && first.installed).toBe(true);
    const again = await installSkill(parseInstallSource(zip), target);
    expect(again.ok ? "" : again.refusal.rule).toContain(
      'a user plugin "demo-plugin" is already installed here; pass --force',
    );
    const forced = await installSkill(parseInstallSource(zip), target, { force: true });
    expect(forced.ok && forced.replaced).toEqual([
      path.join(home, ".PseudoClaude", "plugins", "demo-plugin"),
    ]);
    const settingsFile = path.join(home, ".PseudoClaude", "settings.json");
    expect(Object.keys(JSON.parse(await readFile(settingsFile, "utf8")).mcpServers)).toEqual([
      "demo-plugin-docs",
    ]);

    const removed = await removePlugin("demo-plugin", target);
    expect(removed).toMatchObject({ skills: ["alpha", "beta", "broken"], mcpServers: ["demo-plugin-docs"] });
    await expect(access(removed.folder)).rejects.toThrow();
    expect(JSON.parse(await readFile(settingsFile, "utf8")).mcpServers).toEqual({});
    await access(removed.dataDir);
    const workspace = await createWorkspace({ workdir, home });
    expect(workspace.catalog.get("alpha")).toBeUndefined();
  }, 60_000);

  it("applies the install rules to a plugin archive (zip-slip refused, nothing written)", async () => {
    const zip = zipOf({
      "evil/plugin.json": JSON.stringify({ $schema: AGENT_PLUGINS_SCHEMA, name: "evil" }),
      "evil/skills/a/SKILL.md": skillMd("a", "A."),
      "evil/../../escape.txt": "outside",
    });
    const outcome = await installSkill(
      { kind: "bytes", name: "evil.zip", data: zip },
      { layer: "user", home },
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? "" : outcome.refusal.rule).toContain("'..' in the path");
    await expect(access(path.join(home, ".PseudoClaude", "plugins"))).rejects.toThrow();
  });

  it("refuses a manifest of another Agent Plugins version, naming the field", async () => {
    const folder = path.join(root, "old");
    await put(
      path.join(folder, "plugin.json"),
      JSON.stringify({ $schema: "https://agent-plugins.org/schemas/0.9.0/plugin.schema.json", name: "old" }),
    );
    const outcome = await installSkill(parseInstallSource(folder), { layer: "user", home });
    expect(outcome.ok ? "" : outcome.refusal.rule).toContain(
      '"$schema" must be https://agent-plugins.org/schemas/1.0.0/plugin.schema.json',
    );
  });
});

describe("installing a Claude Code plugin", () => {
  it("expands ${CLAUDE_PLUGIN_ROOT} in its .mcp.json and in its skill when the skill is loaded", async () => {
    const folder = path.join(root, "cc-tools");
    await put(path.join(folder, ".claude-plugin", "plugin.json"), JSON.stringify({ name: "cc-tools" }));
    await put(
      path.join(folder, "skills", "lint-it", "SKILL.md"),
      "---\nname: lint-it\ndescription: Lint with the plugin's script.\n---\nRun node ${CLAUDE_PLUGIN_ROOT}/scripts/lint.mjs.\n",
    );
    await put(path.join(folder, "scripts", "lint.mjs"), "console.log('ok')\n");
    await put(
      path.join(folder, ".mcp.json"),
      JSON.stringify({
        mcpServers: { tool: { command: "node", args: ["${CLAUDE_PLUGIN_ROOT}/scripts/lint.mjs"] } },
      }),
    );
    const outcome = await installSkill(parseInstallSource(folder), { layer: "user", home });
    if (!outcome.ok) throw new Error(outcome.refusal.message);
    const pluginRoot = path.join(home, ".PseudoClaude", "plugins", "cc-tools");
    expect(outcome.plan.plugin!.format).toBe("claude-code");
    const settings = JSON.parse(await readFile(path.join(home, ".PseudoClaude", "settings.json"), "utf8"));
    expect(settings.mcpServers["cc-tools-tool"].args).toEqual([`${pluginRoot}/scripts/lint.mjs`]);
    expect(settings.mcpServers["cc-tools-tool"].env.CLAUDE_PLUGIN_ROOT).toBe(pluginRoot);
    const workspace = await createWorkspace({ workdir, home });
    expect((await workspace.loadSkill("lint-it")).ok).toBe(true);
    expect(workspace.activeSkills.get("lint-it")!.body).toContain(`Run node ${pluginRoot}/scripts/lint.mjs.`);
  });
});
