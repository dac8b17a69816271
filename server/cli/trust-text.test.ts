// The CLI's trust text: what a folder would grant, each MCP server as it would run (never a value), and
// why a folder trusted before asks again.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { loadFolderPermission, rememberTrustedFolder } from "../permission/trust.ts";
import { describeTrust } from "./trust-text.ts";

let root: string;
let home: string;
let workdir: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), "pc-trust-text-")));
  home = path.join(root, "home");
  workdir = path.join(root, "repo");
  await mkdir(path.join(workdir, ".PseudoClaude"), { recursive: true });
  await mkdir(home);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const mcp = (servers: unknown) =>
  writeFile(path.join(workdir, ".mcp.json"), JSON.stringify({ mcpServers: servers }));

it("lists each server: command and arguments, env names without values, URL and header names, network and why it needs it", async () => {
  await mcp({
    fs: {
      command: "npx",
      args: ["-y", "@scope/server-fs", "/data dir"],
      env: { FS_TOKEN: "value-never-shown" },
    },
    remote: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer never-shown" } },
  });
  const { trust } = await loadFolderPermission({ workdir, home });
  const text = describeTrust(trust, home);
  const file = path.join(workdir, ".mcp.json");
  expect(text.split("\n")).toEqual([
    "not trusted — its own settings would grant MCP servers fs, remote (withheld; pass --trust to apply them for this command)",
    `  MCP server fs (${file}): npx -y @scope/server-fs '/data dir' (env FS_TOKEN) · network off — needs network: npx downloads @scope/server-fs from the npm registry when it is not installed (to allow it, add "network": true to its entry)`,
    `  MCP server remote (${file}): https://mcp.example.com/mcp (headers Authorization) — needs network: it is at mcp.example.com, another machine: the playground connects to it only while the session allows network (run with --allow-network)`,
  ]);
  expect(text).not.toContain("never-shown");
});

it("a remembered folder whose server changed says it asks again, and what changed", async () => {
  await mcp({ fs: { command: "node", args: ["fs.js"] } });
  await rememberTrustedFolder(home, workdir);
  await mcp({ fs: { command: "node", args: ["fs.js"], env: { NODE_OPTIONS: "--require ./x.js" } } });
  const text = describeTrust((await loadFolderPermission({ workdir, home })).trust, home);
  expect(text).toMatch(
    /^ {2}asks again: its settings changed since you trusted it on \S+: review what it grants now$/m,
  );
  expect(text).toMatch(/^ {4}- MCP server fs changed: env NODE_OPTIONS added$/m);
  expect(text).not.toContain("--require");
});
