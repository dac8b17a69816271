// S19: no input crashes the server. A real server process (tsx server/index.ts) is driven through the
// protocol client while a trusted workdir starts hostile MCP servers under real bubblewrap (written with
// the official SDK: server/mcp/testing/hostile-mcp-server.mjs) and carries hostile skills; another
// workdir's skills folder holds 100,000 entries. After each input: the server still answers a ping
// within 1 s, another session still runs a message, and the input became one clear failure or warning
// naming the server or file and the limit. The server's peak memory (VmHWM) and the time taken are
// printed for the report.
import { mkdirSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processesWithArgument } from "./mcp/testing/processes.ts";
import type { McpServerView } from "./protocol/mcp.ts";
import { spawnServer, type SpawnedServer } from "./testing/spawned-server.ts";
import { TestClient } from "./transport/testing/harness.ts";

const HOSTILE_SERVER = path.join(import.meta.dirname, "mcp", "testing", "hostile-mcp-server.mjs");
const MARKER = `hostile-${process.pid}-${Date.now()}`;
/** Server name → the hostile server's mode. */
const MCP_MODES: Record<string, string> = {
  list_over: "list-over-limit",
  list_many: "list-many",
  result_over: "result-over-limit",
  result_near: "result-near-limit",
  garbage: "garbage",
  exit_mid: "exit-mid-call",
  flood: "stderr-flood",
  no_newline: "no-newline",
  deep: "deep",
};
const CROWDED_ENTRIES = 100_000;

let root: string;
let hostile: string;
let crowded: string;
let server: SpawnedServer;
let client: TestClient;
let calm: string;
let hostileSession: string;
const started = performance.now();

const call = (server: string, tool: string, input: Record<string, unknown> = {}) =>
  `  - tool_calls:\n      - { name: mcp__${server}__${tool}, input: ${JSON.stringify(input)} }\n  - text: "done"\n`;

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), "hostile-inputs-")));
  const home = path.join(root, "home");
  const scenarios = path.join(root, "scenarios");
  const calmWorkdir = path.join(root, "calm");
  hostile = path.join(root, "hostile");
  crowded = path.join(root, "crowded");
  for (const folder of [home, scenarios, calmWorkdir, hostile, crowded])
    await mkdir(folder, { recursive: true });
  await writeFile(
    path.join(scenarios, "hello.yaml"),
    `name: hello\nmatch: "^hello"\nturns:\n  - text: "Hi."\n`,
  );
  await writeFile(
    path.join(scenarios, "big.yaml"),
    `name: big\nmatch: "^big result"\nturns:\n${call("result_over", "big")}`,
  );
  await writeFile(
    path.join(scenarios, "near.yaml"),
    `name: near\nmatch: "^near result"\nturns:\n${call("result_near", "near")}`,
  );
  await writeFile(
    path.join(scenarios, "garbage.yaml"),
    `name: garbage\nmatch: "^garbage echo"\nturns:\n${call("garbage", "echo", { message: "through" })}`,
  );
  await writeFile(
    path.join(scenarios, "die.yaml"),
    `name: die\nmatch: "^die"\nturns:\n${call("exit_mid", "die")}`,
  );
  await writeFile(
    path.join(scenarios, "flood.yaml"),
    `name: flood\nmatch: "^flood echo"\nturns:\n${call("flood", "echo", { message: "through" })}`,
  );

  // The hostile workdir: every kind of hostile MCP server, a 50 MB SKILL.md and a YAML alias bomb.
  const mcpServers = Object.fromEntries(
    Object.entries(MCP_MODES).map(([name, mode]) => [
      name,
      { command: process.execPath, args: [HOSTILE_SERVER, mode, MARKER] },
    ]),
  );
  await writeFile(path.join(hostile, ".mcp.json"), JSON.stringify({ mcpServers }));
  const skills = path.join(hostile, ".PseudoClaude", "skills");
  await mkdir(path.join(skills, "huge"), { recursive: true });
  await writeFile(
    path.join(skills, "huge", "SKILL.md"),
    `---\nname: huge\ndescription: fifty megabytes\n---\n${"z".repeat(50 * 1024 * 1024)}\n`,
  );
  await mkdir(path.join(skills, "bomb"), { recursive: true });
  const levels = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
  for (let level = 1; level < 10; level++)
    levels.push(
      `a${level}: &a${level} [${Array(9)
        .fill(`*a${level - 1}`)
        .join(", ")}]`,
    );
  await writeFile(
    path.join(skills, "bomb", "SKILL.md"),
    `---\nname: bomb\ndescription: billion laughs\n${levels.join("\n")}\n---\nBody.\n`,
  );
  // Nested deep: a frontmatter 200,000 levels (the YAML parser was busy for 3 s before it overflowed the
  // stack) and a tools.json input schema 50,000 (its compiler overflowed, and the scan of every skill
  // failed with it).
  const deep = 200_000;
  await mkdir(path.join(skills, "deep-yaml"), { recursive: true });
  await writeFile(
    path.join(skills, "deep-yaml", "SKILL.md"),
    `---\nname: deep-yaml\ndescription: d\nx: ${"[".repeat(deep)}${"]".repeat(deep)}\n---\nBody.\n`,
  );
  await mkdir(path.join(skills, "deep-tools"), { recursive: true });
  await writeFile(
    path.join(skills, "deep-tools", "SKILL.md"),
    "---\nname: deep-tools\ndescription: d\n---\nBody.\n",
  );
  await writeFile(
    path.join(skills, "deep-tools", "tools.json"),
    `{"tools":[{"name":"t","description":"d","command":["node","t.js"],"input_schema":{"type":"object","properties":{"a":${'{"items":'.repeat(deep / 4)}{}${"}".repeat(deep / 4)}}}}]}`,
  );
  await mkdir(path.join(skills, "fine"), { recursive: true });
  await writeFile(
    path.join(skills, "fine", "SKILL.md"),
    "---\nname: fine\ndescription: a fine skill\n---\nDo it.\n",
  );

  // The crowded workdir: 100,000 entries in its skills folder (each a loose *.md that would be a skill).
  const crowdedSkills = path.join(crowded, ".PseudoClaude", "skills");
  mkdirSync(crowdedSkills, { recursive: true });
  for (let index = 0; index < CROWDED_ENTRIES; index++)
    writeFileSync(path.join(crowdedSkills, `s${index}.md`), `---\nname: s${index}\ndescription: d\n---\nx\n`);

  server = await spawnServer({ home, workdir: calmWorkdir, scenarios });
  client = await TestClient.connect(server.target);
  calm = await client.createSession();
  await client.sendMessage(calm, "hello");
}, 120_000);

afterAll(async () => {
  const peak = server
    ? /VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${server.child.pid}/status`, "utf8").catch(() => ""))
    : null;
  console.log(
    `hostile inputs: ${((performance.now() - started) / 1000).toFixed(1)} s; server peak RSS ${peak ? `${Math.round(Number(peak[1]) / 1024)} MiB` : "unknown"}`,
  );
  if (server && server.child.exitCode !== null)
    console.log(`the server exited (${server.child.exitCode}):\n${server.stderr().slice(-3000)}`);
  await client?.close();
  if (server && server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill("SIGTERM");
    await server.exited;
  }
  await rm(root, { recursive: true, force: true });
});

/** One round trip (list_providers → providers); its time in ms. */
async function ping(): Promise<number> {
  const before = performance.now();
  const answer = client.next((message) => message.type === "providers", { timeoutMs: 5_000 });
  client.send({ type: "list_providers" });
  await answer;
  return performance.now() - before;
}

/** The server is up, answers within 1 s, and another session still runs a message. */
async function stillServing(): Promise<void> {
  expect(server.child.exitCode, server.stderr().slice(-2000)).toBeNull();
  expect(await ping()).toBeLessThan(1000);
  const stop = await client.sendMessage(calm, "hello again", 20_000);
  expect(stop.reason).toBe("completed");
}

function serverView(servers: McpServerView[], name: string): McpServerView {
  const view = servers.find((candidate) => candidate.name === name);
  if (!view) throw new Error(`no MCP server ${name} in ${servers.map((server) => server.name).join(", ")}`);
  return view;
}

/** Runs one scripted message in the hostile session, approving its call; returns the tool result. */
async function runCall(text: string) {
  const from = client.messages.length;
  client.send({ type: "send_message", sessionId: hostileSession, text });
  await client.answerNextApproval(hostileSession, { kind: "allow_once" }, { from, timeoutMs: 20_000 });
  const result = await client.waitForEvent("tool_result", {
    sessionId: hostileSession,
    from,
    timeoutMs: 30_000,
  });
  await client.waitForEvent("stop", { sessionId: hostileSession, from, timeoutMs: 30_000 });
  return result.event.result;
}

describe("S19: hostile MCP servers and skills never crash the server", () => {
  it("hostile MCP servers at connect: each oversize or silent one fails with its reason, the rest connect", async () => {
    hostileSession = await client.createSession({ workdir: hostile });
    const from = client.messages.length;
    client.send({ type: "trust_folder", sessionId: hostileSession, remember: false });
    const settled = await client.waitForEvent("mcp_state", {
      sessionId: hostileSession,
      from,
      timeoutMs: 60_000,
      where: (event) =>
        Object.keys(MCP_MODES).every((name) =>
          ["connected", "failed", "crashed"].includes(
            event.servers.find((server) => server.name === name)?.status ?? "",
          ),
        ),
    });
    await stillServing();
    const servers = settled.event.servers;
    expect(serverView(servers, "list_over")).toMatchObject({ status: "failed" });
    expect(serverView(servers, "list_over").error).toMatch(/message over 10 MiB.*limit/);
    expect(serverView(servers, "no_newline")).toMatchObject({ status: "failed" });
    expect(serverView(servers, "no_newline").error).toMatch(/message over 10 MiB.*limit/);
    expect(serverView(servers, "deep")).toMatchObject({ status: "failed" });
    expect(serverView(servers, "deep").error).toMatch(/nested deeper than 256 .*the limit is 256/);
    for (const name of ["result_over", "result_near", "garbage", "exit_mid", "flood"])
      expect(serverView(servers, name).status, `${name}: ${serverView(servers, name).error}`).toBe(
        "connected",
      );
    // 20,000 tools: at most 500 kept, oversize definitions left out, each cut said once.
    const many = serverView(servers, "list_many");
    expect(many.status).toBe("connected");
    expect(many.tools.length).toBeLessThanOrEqual(500);
    expect(many.tools.every((tool) => tool.description.length < 200 * 1024)).toBe(true);
    expect(settled.event.warnings.join("\n")).toMatch(
      /list_many: the server lists \d+ tools; the first 500 were read \(the limit is 500\)/,
    );
    expect(settled.event.warnings.join("\n")).toMatch(
      /list_many: tool "t0" skipped: its definition is \d+ bytes; the limit is/,
    );
    expect(serverView(servers, "flood").stderrTail.length).toBeLessThanOrEqual(4096);
  }, 90_000);

  it("hostile skills: a 50 MB SKILL.md and an alias bomb are one warning each, naming the file and the limit", async () => {
    const opened = await client.waitForEvent("catalog_snapshot", {
      sessionId: hostileSession,
      timeoutMs: 20_000,
    });
    const { warnings, skills } = opened.event.catalog;
    expect(skills.map((skill) => skill.name)).toContain("fine");
    const huge = warnings.filter((warning) => warning.path.endsWith(path.join("huge", "SKILL.md")));
    expect(huge).toHaveLength(1);
    expect(huge[0]!.reason).toMatch(/\d+ bytes; the limit is \d+/);
    const bomb = warnings.filter((warning) => warning.path.endsWith(path.join("bomb", "SKILL.md")));
    expect(bomb).toHaveLength(1);
    expect(bomb[0]!.reason).toMatch(/alias/i);
    const deepYaml = warnings.filter((warning) => warning.path.endsWith(path.join("deep-yaml", "SKILL.md")));
    expect(deepYaml.map((warning) => warning.reason)).toEqual([
      expect.stringMatching(/frontmatter is \d+ bytes; the limit is 16384/),
    ]);
    const deepTools = warnings.filter((warning) =>
      warning.path.endsWith(path.join("deep-tools", "tools.json")),
    );
    expect(deepTools.map((warning) => warning.reason)).toEqual([
      expect.stringMatching(/tools.json nests .* deeper than 64 levels; the limit is 64/),
    ]);
    await stillServing();
  }, 30_000);

  it("a tool result over 10 MiB fails that call and that server with the limit; the server goes on", async () => {
    const result = await runCall("big result");
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/message over 10 MiB.*limit/);
    await stillServing();
  }, 60_000);

  it("a tool result just under 10 MiB, one character repeated, is read, capped and counted without a stall", async () => {
    const result = await runCall("near result");
    expect(result.ok).toBe(true);
    expect(result.content.length).toBeLessThanOrEqual(30_000);
    await stillServing();
  }, 60_000);

  it("a message of 200,000 characters without a space is counted without a stall", async () => {
    const pinging = (async () => {
      const times: number[] = [];
      for (let index = 0; index < 5; index++) times.push(await ping());
      return times;
    })();
    const stop = await client.sendMessage(calm, `hello ${"a".repeat(200_000 - 6)}`, 60_000);
    expect(stop.reason).toBe("completed");
    expect(Math.max(...(await pinging))).toBeLessThan(1000);
    await stillServing();
  }, 90_000);

  it("garbage frames on stdout are skipped: the call through that server still answers", async () => {
    const result = await runCall("garbage echo");
    expect(result).toMatchObject({ ok: true });
    expect(result.content).toContain("echo: through");
    await stillServing();
  }, 60_000);

  it("a server that exits mid-call fails that call and is marked crashed", async () => {
    const result = await runCall("die");
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/exit_mid/);
    await stillServing();
  }, 60_000);

  it("a server flooding stderr still answers; only a bounded tail is kept", async () => {
    const result = await runCall("flood echo");
    expect(result).toMatchObject({ ok: true });
    expect(result.content).toContain("echo: through");
    await stillServing();
  }, 60_000);

  it("a skills folder with 100,000 entries is one warning naming the folder and the limit", async () => {
    const from = client.messages.length;
    const creating = client.createSession({ workdir: crowded });
    // Pings on a second connection while the session opens: its scan and its folder watch must not stall.
    const other = await TestClient.connect(server.target);
    const pings: number[] = [];
    let created = false;
    void creating.then(() => (created = true));
    while (!created) {
      const before = performance.now();
      const answer = other.next((message) => message.type === "providers", { timeoutMs: 30_000 });
      other.send({ type: "list_providers" });
      await answer;
      pings.push(performance.now() - before);
    }
    await other.close();
    const crowdedSession = await creating;
    const snapshot = await client.waitForEvent("catalog_snapshot", {
      sessionId: crowdedSession,
      from,
      timeoutMs: 60_000,
    });
    expect(Math.max(...pings)).toBeLessThan(1000);
    const warnings = snapshot.event.catalog.warnings;
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.path).toBe(path.join(crowded, ".PseudoClaude", "skills"));
    expect(warnings[0]!.reason).toMatch(/more than \d+ entries.*the limit is \d+/);
    expect(snapshot.event.catalog.skills.filter((skill) => skill.source === "project")).toEqual([]);
    await stillServing();
  }, 90_000);

  it("no hostile server process is left once the sessions end", async () => {
    client.send({ type: "delete_session", sessionId: hostileSession });
    await client.waitFor((message) => message.type === "session_deleted", "session_deleted", {
      timeoutMs: 20_000,
    });
    expect(processesWithArgument(MARKER)).toEqual([]);
    await stillServing();
  }, 30_000);
});
