// MCP servers as their READMEs configure them (issue 21, item 4), through real bubblewrap and real
// servers: a server under the sandbox's private /tmp, a server under a hidden secret, `npx -y` with and
// without network, and an HTTP server on another address with the session's network off and on.
import { lookup } from "node:dns/promises";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ProcessRunner } from "../tools/process-runner.ts";
import { Registry } from "../tools/registry.ts";
import { detectSandbox, sandboxPolicy } from "../tools/sandbox.ts";
import type { McpServerConfig, StdioServerConfig } from "./config.ts";
import { McpServers } from "./mcp-servers.ts";
import { isLoopbackHost, networkNeed, packageRunnerOf } from "./server-launch.ts";
import { startHttpMcpServer, type TestHttpMcpServer } from "./testing/http-mcp-server.ts";
import { EVERYTHING_SERVER } from "./testing/processes.ts";

/** This file's own process runner (the composition root a test is). */
const processes = new ProcessRunner();

let workdir: string;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(() => {
  expect(detectSandbox().available, detectSandbox().reason).toBe(true);
});
beforeEach(async () => {
  workdir = await mkdtemp(path.join(tmpdir(), "pc-mcp-launch-work-"));
  cleanups.push(() => rm(workdir, { recursive: true, force: true }));
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function stdio(fields: Partial<StdioServerConfig> & { command: string }): StdioServerConfig {
  return {
    transport: "stdio",
    name: "srv",
    args: [],
    env: {},
    network: false,
    configFile: path.join(workdir, ".mcp.json"),
    scope: "workdir",
    ...fields,
  };
}

async function startOne(
  config: McpServerConfig,
  options: { homes?: string[]; initializeTimeoutMs?: number; sessionNetwork?: boolean } = {},
) {
  const servers = new McpServers({
    registry: new Registry(),
    workdir,
    sandbox: { homes: options.homes ?? [] },
    clientVersion: "test",
    ...(options.sessionNetwork ? { sessionNetwork: true } : {}),
    ...(options.initializeTimeoutMs ? { initializeTimeoutMs: options.initializeTimeoutMs } : {}),
  });
  cleanups.push(() => servers.close());
  await servers.start({ servers: [config], withheld: [], warnings: [] });
  return servers;
}

describe("paths the sandbox hides", () => {
  it("a launcher under /tmp and the server it names are bound read-only into the sandbox: it starts", async () => {
    const hidden = await mkdtemp("/tmp/pc-mcp-hidden-");
    cleanups.push(() => rm(hidden, { recursive: true, force: true }));
    const launcher = path.join(hidden, "start-server");
    await writeFile(launcher, `#!/bin/sh\nexec '${process.execPath}' "$@"\n`);
    await chmod(launcher, 0o755);
    // Named through a symlink in another folder of /tmp: both the link and what it points to are needed.
    const links = await mkdtemp("/tmp/pc-mcp-links-");
    cleanups.push(() => rm(links, { recursive: true, force: true }));
    await symlink(launcher, path.join(links, "server"));
    const servers = await startOne(
      stdio({ command: path.join(links, "server"), args: [EVERYTHING_SERVER, "stdio"] }),
    );
    const view = servers.views()[0]!;
    // Before the fix: "bwrap: execvp …start-server: No such file or directory" (the private /tmp hid it).
    expect(view.status, view.error).toBe("connected");
    expect(view.tools.length).toBeGreaterThan(0);
  });

  it("the folder of /tmp bound back is read-only, and a workdir inside it stays writable (a clone under /tmp)", async () => {
    const clone = await mkdtemp("/tmp/pc-mcp-clone-");
    cleanups.push(() => rm(clone, { recursive: true, force: true }));
    const inner = path.join(clone, "examples", "work");
    await mkdir(inner, { recursive: true });
    await writeFile(path.join(clone, "server.mjs"), "server\n");
    const policy = sandboxPolicy({
      workdir: inner,
      visiblePaths: [path.join(clone, "server.mjs")],
      settings: { network: false, homes: [] },
    });
    expect(policy.readOnly).toContain(clone);
    const outcome = await processes.run({
      shellCommand:
        "cat ../../server.mjs && echo ok > mine.txt && (echo no > ../../planted.txt) 2>&1; echo done",
      cwd: inner,
      timeoutMs: 10_000,
      sandbox: policy,
    });
    expect(outcome.stdout).toMatch(/^server\n.*Read-only file system\ndone\n$/s);
    expect(existsSync(path.join(inner, "mine.txt"))).toBe(true);
    expect(existsSync(path.join(clone, "planted.txt"))).toBe(false);
  });

  it("a server under a secret the sandbox hides is refused with the reason", async () => {
    const home = await mkdtemp("/var/tmp/pc-mcp-launch-home-");
    cleanups.push(() => rm(home, { recursive: true, force: true }));
    await mkdir(path.join(home, ".ssh"));
    const script = path.join(home, ".ssh", "server.mjs");
    await writeFile(script, "");
    const servers = await startOne(stdio({ command: process.execPath, args: [script] }), { homes: [home] });
    expect(servers.views()[0]).toMatchObject({ status: "failed" });
    expect(servers.views()[0]!.error).toContain(
      `${script} lies in ${path.join(home, ".ssh")}, which the sandbox hides (a secret)`,
    );
  });
});

describe("a package runner (npx -y), as a server's README configures it", () => {
  const readme = (network: boolean) =>
    stdio({
      name: "everything",
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-everything", "stdio"],
      network,
    });

  it("with network off: the failure names the cause, both fixes and the sandbox policy", async () => {
    const servers = await startOne(readme(false), { initializeTimeoutMs: 2_000 });
    const view = servers.views()[0]!;
    expect(view.status).toBe("failed");
    expect(view.needsNetwork).toBe(
      "npx downloads @modelcontextprotocol/server-everything from the npm registry when it is not installed",
    );
    // Before the fix: "no answer to initialize within 10 s", and nothing else.
    expect(view.error).toContain(
      "Likely cause: npx needs the network to download @modelcontextprotocol/server-everything from the npm registry, and the sandbox gives this server none.",
    );
    expect(view.error).toContain('allow network for this server (tick "network" for it in the trust prompt');
    expect(view.error).toContain(`add "network": true to mcpServers.everything in ${workdir}/.mcp.json`);
    expect(view.error).toContain(
      'install it once (npm install -g @modelcontextprotocol/server-everything) and set "command" to its binary',
    );
    expect(view.error).toMatch(/\(sandbox: network off; writable: .* and a private \/tmp;/);
  });

  it("with network allowed for it: it downloads into the sandbox's private /tmp and starts (or, offline, says why)", async () => {
    const online = await lookup("registry.npmjs.org").then(
      () => true,
      () => false,
    );
    const servers = await startOne(readme(true));
    const view = servers.views()[0]!;
    if (online) {
      expect(view.status, view.error).toBe("connected");
      expect(view.tools.map((tool) => tool.tool)).toContain("echo");
      expect(view.needsNetwork).toBeUndefined();
    } else {
      expect(view.status).toBe("failed");
      expect(view.stderrTail).toMatch(/EAI_AGAIN|ENOTFOUND|ENETUNREACH/);
    }
  }, 90_000);
});

describe("an HTTP server on another machine with the session's network off (S17)", () => {
  const lan = Object.values(os.networkInterfaces())
    .flat()
    .find((address) => address && !address.internal && address.family === "IPv4")?.address;
  let remote: TestHttpMcpServer;

  it.runIf(lan !== undefined)(
    "is never contacted until the session allows network; then it connects; off again, it is closed",
    async () => {
      remote = await startHttpMcpServer(lan);
      cleanups.push(() => remote.close());
      const config: McpServerConfig = {
        transport: "http",
        name: "remote",
        url: remote.url,
        headers: {},
        configFile: path.join(workdir, ".mcp.json"),
        scope: "user",
      };
      const servers = await startOne(config);
      expect(servers.views()[0]).toMatchObject({ status: "failed" });
      expect(servers.views()[0]!.error).toContain(
        `not connected: it is at ${new URL(remote.url).host}, another machine`,
      );
      expect(servers.views()[0]!.error).toContain("Allow network for this session");
      expect(remote.requests).toBe(0);

      await servers.setSessionNetwork(true);
      expect(servers.views()[0]!.status, servers.views()[0]!.error).toBe("connected");
      expect(remote.requests).toBeGreaterThan(0);

      await servers.setSessionNetwork(false);
      const seen = remote.requests;
      expect(servers.views()[0]!.status).toBe("failed");
      expect(remote.requests).toBe(seen);
    },
  );
});

describe("the rules as data", () => {
  it.each([
    [["npx", "-y", "@scope/server"], "npx", "@scope/server"],
    [["npm", "exec", "--yes", "pkg"], "npm exec", "pkg"],
    [["pnpm", "dlx", "pkg"], "pnpm dlx", "pkg"],
    [["uvx", "mcp-server-fetch"], "uvx", "mcp-server-fetch"],
    [["uv", "tool", "run", "mcp-server-git"], "uv tool run", "mcp-server-git"],
    [["pipx", "run", "pkg"], "pipx run", "pkg"],
    [["/usr/local/bin/bunx", "pkg"], "bunx", "pkg"],
  ])("%j is a package runner (%s) fetching %s", (argv, runner, target) => {
    const [command, ...args] = argv;
    expect(packageRunnerOf(stdio({ command: command!, args }))).toMatchObject({ runner, target });
  });

  it.each([
    ["node", ["server.js"]],
    ["npm", ["start"]],
    ["uv", ["run", "server.py"]],
    ["pipx", ["list"]],
  ])("%s %j fetches nothing", (command, args) => {
    expect(packageRunnerOf(stdio({ command, args }))).toBeUndefined();
    expect(networkNeed(stdio({ command, args }))).toBeUndefined();
  });

  it.each([
    ["localhost", true],
    ["127.0.0.1", true],
    ["127.8.9.10", true],
    ["[::1]", true],
    ["app.localhost", false],
    ["localhost.evil.example", false],
    ["127.0.0.1.nip.io", false],
    ["10.0.0.1", false],
    ["0.0.0.0", false],
    ["mcp.example.com", false],
  ])("%s is loopback: %s", (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});
