// MCP servers against real servers: the reference server-everything over stdio under real bubblewrap, and
// a Streamable HTTP server written with the SDK on a local port. Processes are looked for in /proc.
import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Registry } from "../tools/registry.ts";
import { detectSandbox } from "../tools/sandbox.ts";
import { loadMcpConfig, type HttpServerConfig, type StdioServerConfig } from "./config.ts";
import { INITIALIZE_TIMEOUT_MS } from "./mcp-connection.ts";
import { McpServers } from "./mcp-servers.ts";
import { startHttpMcpServer, TINY_PNG, type TestHttpMcpServer } from "./testing/http-mcp-server.ts";
import { EVERYTHING_SERVER, killProcessesWithArgument, processesWithArgument } from "./testing/processes.ts";

let workdir: string;
let home: string;
const owned: McpServers[] = [];

beforeEach(async () => {
  workdir = await mkdtemp(path.join(tmpdir(), "pc-mcp-work-"));
  home = await mkdtemp(path.join(tmpdir(), "pc-mcp-home-"));
});
afterEach(async () => {
  await Promise.all(owned.splice(0).map((servers) => servers.close()));
  await rm(workdir, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

function servers(
  registry = new Registry(),
  options: { initializeTimeoutMs?: number; callTimeoutMs?: number } = {},
) {
  const made = new McpServers({
    registry,
    workdir,
    sandbox: { homes: [home] },
    clientVersion: "test",
    ...options,
  });
  owned.push(made);
  return made;
}

function everything(marker: string, name = "everything"): StdioServerConfig {
  return {
    transport: "stdio",
    name,
    command: process.execPath,
    args: [EVERYTHING_SERVER, "stdio", marker],
    env: {},
    network: false,
    configFile: path.join(workdir, ".mcp.json"),
    scope: "workdir",
  };
}

async function call(registry: Registry, name: string, input: unknown, signal = new AbortController().signal) {
  const prepared = registry.prepare(name, input);
  if (!prepared.ok) throw new Error(prepared.result.error);
  return (await prepared.call.execute({ workdir, callId: "c1", signal })).result;
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("stdio: the reference server-everything", () => {
  it("starts from <workdir>/.mcp.json in a trusted folder, in the sandbox; its tools are mcp__everything__*; echo answers; close leaves no process", async () => {
    const marker = `marker-${randomBytes(6).toString("hex")}`;
    await writeFile(
      path.join(workdir, ".mcp.json"),
      JSON.stringify({
        mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, "stdio", marker] } },
      }),
    );
    const registry = new Registry();
    const mcp = servers(registry);
    await mcp.start(await loadMcpConfig({ workdir, home, trusted: true }));
    const [view] = mcp.views();
    expect(view).toMatchObject({
      name: "everything",
      status: "connected",
      transport: "stdio",
      scope: "workdir",
    });
    expect(view!.sandbox?.enabled).toBe(detectSandbox().available);
    expect(view!.sandbox?.network).toBe(false);
    expect(view!.stderrTail).toContain("Starting default (STDIO) server");
    expect(registry.names()).toEqual(
      expect.arrayContaining(["mcp__everything__echo", "mcp__everything__get-sum"]),
    );
    const echo = registry.get("mcp__everything__echo")!.definition;
    expect(echo).toMatchObject({
      origin: "main",
      mcpServer: "everything",
      category: "exec",
      safety: "side_effect",
    });
    expect(echo.description.length).toBeGreaterThan(0);
    expect(echo.inputSchema).toMatchObject({ type: "object", properties: { message: expect.any(Object) } });
    expect(view!.definitionTokens).toBe(view!.tools.reduce((sum, tool) => sum + tool.definitionTokens, 0));
    expect(view!.definitionTokens).toBeGreaterThan(100);

    const result = await call(registry, "mcp__everything__echo", { message: "hello there" });
    expect(result).toMatchObject({ ok: true, content: "Echo: hello there" });
    const sum = await call(registry, "mcp__everything__get-sum", { a: 2, b: 3 });
    expect(sum.content).toContain("5");
    const image = await call(registry, "mcp__everything__get-tiny-image", {});
    expect(image.content).toMatch(/\[image: image\/png, \d+ bytes — shown to the user/);
    expect((image.metadata?.mcp as { images: unknown[] }).images).toHaveLength(1);

    expect(processesWithArgument(marker).length).toBeGreaterThan(0);
    await mcp.close();
    expect(processesWithArgument(marker)).toEqual([]);
    expect(registry.names().filter((name) => name.startsWith("mcp__"))).toEqual([]);
  });

  it("a workdir's servers are withheld (not started) until the folder is trusted; the user's own start", async () => {
    const marker = `marker-${randomBytes(6).toString("hex")}`;
    await writeFile(
      path.join(workdir, ".mcp.json"),
      JSON.stringify({
        mcpServers: { evil: { command: process.execPath, args: [EVERYTHING_SERVER, "stdio", marker] } },
      }),
    );
    await mkdir(path.join(home, ".PseudoClaude"), { recursive: true });
    await writeFile(
      path.join(home, ".PseudoClaude", "settings.json"),
      JSON.stringify({
        mcpServers: {
          mine: { command: process.execPath, args: [EVERYTHING_SERVER, "stdio", `${marker}-mine`] },
        },
      }),
    );
    const mcp = servers();
    await mcp.start(await loadMcpConfig({ workdir, home, trusted: false }));
    expect(mcp.views().map((view) => [view.name, view.status])).toEqual([
      ["mine", "connected"],
      ["evil", "withheld"],
    ]);
    expect(processesWithArgument(marker)).toEqual([]);
  });

  it("a command that does not exist fails with a reason; the other servers start", async () => {
    const marker = `marker-${randomBytes(6).toString("hex")}`;
    const mcp = servers();
    await mcp.start({
      servers: [{ ...everything(marker), name: "broken", command: "no-such-mcp-server" }, everything(marker)],
      withheld: [],
      warnings: [],
    });
    const [broken, good] = mcp.views();
    expect(broken).toMatchObject({ status: "failed", error: "command not found: no-such-mcp-server" });
    expect(good!.status).toBe("connected");
  });

  it("a command that exists but cannot be executed says so and how to run it, not 'command not found'", async () => {
    // An npm bin whose install did not set the execute bit (seen with a published server's bin script).
    const script = path.join(workdir, "server.js");
    await writeFile(script, "#!/usr/bin/env node\n", { mode: 0o644 });
    const mcp = servers();
    await mcp.start({
      servers: [{ ...everything("unused"), name: "noexec", command: script, args: [] }],
      withheld: [],
      warnings: [],
    });
    const [view] = mcp.views();
    expect(view!.status).toBe("failed");
    expect(view!.error).toContain(`not executable: ${script}`);
    expect(view!.error).toContain(`"command": "node"`);
  });

  it(`a server that does not answer initialize is failed after the timeout (${INITIALIZE_TIMEOUT_MS / 1000} s by default), and ended`, async () => {
    expect(INITIALIZE_TIMEOUT_MS).toBe(10_000);
    const marker = `marker-${randomBytes(6).toString("hex")}`;
    const mcp = servers(new Registry(), { initializeTimeoutMs: 400 });
    await mcp.start({
      servers: [{ ...everything(marker), name: "mute", args: ["-e", "setInterval(() => {}, 1000)", marker] }],
      withheld: [],
      warnings: [],
    });
    expect(mcp.views()[0]).toMatchObject({ status: "failed" });
    // What happened, then the sandbox it ran under (a server's silence is often the policy's doing).
    expect(mcp.views()[0]!.error).toMatch(
      new RegExp(`^no answer to initialize within 0\\.4 s\\. \\(sandbox: network off; writable: ${workdir}`),
    );
    expect(processesWithArgument(marker)).toEqual([]);
  });

  it("MCP_TIMEOUT (milliseconds, Claude Code's variable) sets the start limit, and a timeout names it", async () => {
    // Ten servers starting at once on a busy 2-core machine: one took 11.4 s and failed the fixed 10 s
    // (docs/held-out.md). The limit is the user's to raise, and the failure says how.
    const marker = `marker-${randomBytes(6).toString("hex")}`;
    const before = process.env.MCP_TIMEOUT;
    process.env.MCP_TIMEOUT = "400";
    try {
      const mcp = servers();
      await mcp.start({
        servers: [
          { ...everything(marker), name: "mute", args: ["-e", "setInterval(() => {}, 1000)", marker] },
        ],
        withheld: [],
        warnings: [],
      });
      const error = mcp.views()[0]!.error!;
      expect(error).toMatch(/^no answer to initialize within 0\.4 s\. /);
      expect(error).toContain("MCP_TIMEOUT=<milliseconds>");
    } finally {
      if (before === undefined) delete process.env.MCP_TIMEOUT;
      else process.env.MCP_TIMEOUT = before;
    }
    expect(processesWithArgument(marker)).toEqual([]);
  });

  it("a crash is reported with its stderr and the tools leave the Registry; reconnect brings them back", async () => {
    const marker = `marker-${randomBytes(6).toString("hex")}`;
    const registry = new Registry();
    const mcp = servers(registry);
    await mcp.start({ servers: [everything(marker)], withheld: [], warnings: [] });
    expect(registry.isKnown("mcp__everything__echo")).toBe(true);
    killProcessesWithArgument(marker);
    await waitFor(() => mcp.views()[0]!.status === "crashed", "the crash to be seen");
    expect(mcp.views()[0]!.error).toMatch(/the server exited .*reconnect/);
    expect(registry.isKnown("mcp__everything__echo")).toBe(false);
    expect(mcp.explainMissing("mcp__everything__echo")).toBe("server everything not connected");
    await mcp.reconnect("everything");
    expect(mcp.views()[0]!.status).toBe("connected");
    expect((await call(registry, "mcp__everything__echo", { message: "again" })).content).toBe("Echo: again");
    expect(mcp.explainMissing("mcp__everything__nope")).toBe("everything has no tool nope");
  });
});

describe("Streamable HTTP: a server written with the SDK", () => {
  let http: TestHttpMcpServer;
  beforeEach(async () => {
    http = await startHttpMcpServer();
  });
  afterEach(async () => {
    await http.close();
  });

  function httpConfig(): HttpServerConfig {
    return {
      transport: "http",
      name: "web",
      url: http.url,
      headers: { "x-test-header": "present" },
      configFile: path.join(home, ".PseudoClaude", "settings.json"),
      scope: "user",
    };
  }

  it("connects, registers its tools with their annotations, and renders text, images, links, structured content and errors", async () => {
    const registry = new Registry();
    const mcp = servers(registry);
    await mcp.start({ servers: [httpConfig()], withheld: [], warnings: [] });
    const [view] = mcp.views();
    expect(view).toMatchObject({ status: "connected", transport: "http", serverInfo: { name: "test-http" } });
    expect(view!.tools.find((tool) => tool.tool === "echo")?.annotations).toMatchObject({
      readOnlyHint: true,
    });
    expect(http.lastHeaders["x-test-header"]).toBe("present");

    expect(await call(registry, "mcp__web__echo", { message: "over http" })).toMatchObject({
      ok: true,
      content: "Echo: over http",
    });
    const picture = await call(registry, "mcp__web__picture", {});
    expect(picture.content).toContain("Here is a picture:\n[image: image/png");
    expect(picture.metadata?.mcp).toMatchObject({ images: [{ mimeType: "image/png", data: TINY_PNG }] });
    const links = await call(registry, "mcp__web__links", {});
    expect(links.content).toContain(
      "[resource link: report.csv <file:///data/report.csv> (text/csv) — the report]",
    );
    expect(links.content).toContain('"total": 42');
    expect(links.metadata?.mcp).toMatchObject({
      structuredContent: { total: 42 },
      resourceLinks: [{ uri: "file:///data/report.csv" }],
    });
    expect(await call(registry, "mcp__web__fail", {})).toMatchObject({
      ok: false,
      errorType: "command_failed",
      content: "it went wrong",
    });
    // The Registry validates against the server's schema before any call.
    expect(registry.prepare("mcp__web__echo", { message: 5 }).ok).toBe(false);
  });

  it("Stop sends notifications/cancelled to the server and the call ends canceled", async () => {
    const registry = new Registry();
    const mcp = servers(registry);
    await mcp.start({ servers: [httpConfig()], withheld: [], warnings: [] });
    const controller = new AbortController();
    const running = call(registry, "mcp__web__slow", {}, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort();
    expect(await running).toMatchObject({ ok: false, errorType: "canceled" });
    await waitFor(() => http.cancellations.length === 1, "the server to see the cancellation");
  });

  it("a call past its timeout ends as timeout and the server is told to cancel", async () => {
    const registry = new Registry();
    const mcp = servers(registry, { callTimeoutMs: 300 });
    await mcp.start({ servers: [httpConfig()], withheld: [], warnings: [] });
    const result = await call(registry, "mcp__web__slow", {});
    expect(result).toMatchObject({ ok: false, errorType: "timeout" });
    expect(result.content).toContain("within 0.3 s");
    await waitFor(() => http.cancellations.length === 1, "the server to see the cancellation");
  });

  it("a URL nobody answers is failed, not thrown", async () => {
    const mcp = servers();
    await mcp.start({
      servers: [{ ...httpConfig(), url: "http://127.0.0.1:9/mcp" }],
      withheld: [],
      warnings: [],
    });
    expect(mcp.views()[0]!.status).toBe("failed");
    expect(mcp.views()[0]!.error).toBeTruthy();
  });
});

describe("config", () => {
  it("bad entries are warnings naming the file and the field; the rest loads; later files replace earlier names", async () => {
    await writeFile(
      path.join(workdir, ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          good: { command: "node", args: ["server.js"], env: { A: "1" } },
          web: { type: "http", url: "http://127.0.0.1:1/mcp", headers: { Authorization: "Bearer x" } },
          noCommand: { args: [] },
          badArgs: { command: "node", args: "server.js" },
          badUrl: { url: "ftp://example.com" },
          old: { type: "sse", url: "http://127.0.0.1:1/sse" },
          "bad.name": { command: "node" },
        },
      }),
    );
    await mkdir(path.join(workdir, ".PseudoClaude"), { recursive: true });
    await writeFile(path.join(workdir, ".PseudoClaude", "settings.json"), "{ not json");
    const loaded = await loadMcpConfig({ workdir, home, trusted: true });
    expect(loaded.servers.map((server) => server.name)).toEqual(["good", "web"]);
    expect(loaded.servers[0]).toMatchObject({
      transport: "stdio",
      command: "node",
      args: ["server.js"],
      env: { A: "1" },
      network: false,
    });
    const file = path.join(workdir, ".mcp.json");
    expect(loaded.warnings).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`${path.join(workdir, ".PseudoClaude", "settings.json")}: invalid JSON`),
        `${file}: mcpServers.noCommand: "command" must be a non-empty string; this server was skipped`,
        `${file}: mcpServers.badArgs: "args" must be a list of strings; this server was skipped`,
        `${file}: mcpServers.badUrl: "url" must be http:// or https://, not ftp:; this server was skipped`,
        expect.stringContaining(`${file}: mcpServers.old: "type": "sse"`),
        expect.stringContaining(`${file}: mcpServers.bad.name: a server name is`),
      ]),
    );
  });
});
