// SECURITY S18: a regular expression from a source the playground does not control cannot stall the
// server. Each case starts the real server as its own process, sends a message whose run makes the server
// try one hostile pattern (`^(a+)+$`, which backtracks for hours on 41 characters in JavaScript's RegExp)
// and pings the server over the real WebSocket until the run has its outcome: every ping must be
// answered within 1 s. The sources: a scenario's `match`, a project skill's tools.json `pattern` (no
// trust needed, checked before the permission question), an MCP tool's input schema (`pattern` and
// `patternProperties`) and its output schema (checked on the server's structured content), and a glob in
// a permission rule of the workdir's own settings (deny and ask rules apply without trust), which compiles
// to `^.*a.*a…b$`, the model's own search_code pattern and its list_files glob.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { ServerMessage } from "./protocol/wire.ts";
import { spawnServer, type SpawnedServer } from "./testing/spawned-server.ts";
import { TestClient } from "./transport/testing/harness.ts";

const HOSTILE = "^(a+)+$";
const INPUT = `${"a".repeat(40)}!`;
const SCHEMA_SERVER = fileURLToPath(new URL("./mcp/testing/schema-server.mjs", import.meta.url));
const PING_LIMIT_MS = 1_000;

let root: string | undefined;
let server: SpawnedServer | undefined;
let client: TestClient | undefined;

afterEach(async () => {
  // The server first: a server stuck in a pattern never answers the client's close handshake.
  if (server && server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill("SIGKILL");
    await server.exited;
  }
  server = undefined;
  await client?.close();
  client = undefined;
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

interface Setup {
  scenarios: Record<string, string>;
  /** Files under the workdir. */
  workdir?: Record<string, string>;
  /** ~/.PseudoClaude/settings.json */
  settings?: object;
}

async function start(setup: Setup): Promise<string> {
  root = await realpath(await mkdtemp(path.join(tmpdir(), "hostile-patterns-")));
  const home = path.join(root, "home");
  const workdir = path.join(root, "work");
  const scenarios = path.join(root, "scenarios");
  for (const folder of [home, workdir, scenarios]) await mkdir(folder, { recursive: true });
  for (const [name, text] of Object.entries(setup.scenarios))
    await writeFile(path.join(scenarios, name), text);
  for (const [name, text] of Object.entries(setup.workdir ?? {})) {
    await mkdir(path.dirname(path.join(workdir, name)), { recursive: true });
    await writeFile(path.join(workdir, name), text);
  }
  if (setup.settings) {
    await mkdir(path.join(home, ".PseudoClaude"), { recursive: true });
    await writeFile(path.join(home, ".PseudoClaude", "settings.json"), JSON.stringify(setup.settings));
  }
  server = await spawnServer({ home, workdir, scenarios });
  client = await TestClient.connect(server.target);
  return client.createSession();
}

/** One `list_sessions` round trip; rejects when the answer takes longer than the limit. */
async function ping(connected: TestClient): Promise<number> {
  const started = performance.now();
  const answered = connected.next((message) => message.type === "session_list", {
    timeoutMs: PING_LIMIT_MS,
  });
  connected.send({ type: "list_sessions" });
  await answered;
  return performance.now() - started;
}

/**
 * Pings until a kept message matches `outcome` (the run got past the hostile pattern); every ping is
 * answered within the limit. Returns the message and the slowest ping.
 */
async function answersUntil(
  connected: TestClient,
  outcome: (message: ServerMessage) => boolean,
  what: string,
): Promise<{ message: ServerMessage; slowestMs: number }> {
  let slowestMs = 0;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = connected.messages.find(outcome);
    if (found) return { message: found, slowestMs };
    if (Date.now() > deadline) throw new Error(`no ${what} within 30 s`);
    slowestMs = Math.max(slowestMs, await ping(connected));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A scenario that answers a message matching `match` with one call, then "done". */
function oneCall(match: string, tool: string, input: object): Record<string, string> {
  const turns = `turns:\n  - tool_calls:\n      - { name: ${tool}, input: ${JSON.stringify(input)} }\n  - text: "done"\n`;
  return { [`${match}.yaml`]: `name: ${match}\nmatch: "${match}"\n${turns}` };
}

/** The call was checked and went on to the permission question (or ended). */
function verdict(message: ServerMessage): boolean {
  return (
    message.type === "event" &&
    (message.event.type === "permission_request" || message.event.type === "tool_result")
  );
}

function resultIn(message: ServerMessage) {
  return message.type === "event" && message.event.type === "tool_result" ? message.event.result : undefined;
}

function toolResultOf(name: string) {
  return (message: ServerMessage) =>
    message.type === "event" && message.event.type === "tool_result" && message.event.result.tool === name;
}

const FALLBACK = `name: fallback\nturns:\n  - text: "No scenario matched."\n`;

describe("S18: the server answers a ping within 1 s while a hostile pattern is tried", () => {
  it("a scenario's match", async () => {
    const sessionId = await start({
      scenarios: {
        "a-hostile.yaml": `name: hostile\nmatch: ${JSON.stringify(HOSTILE)}\nturns:\n  - text: "matched"\n`,
        "b-fallback.yaml": FALLBACK,
      },
    });
    client!.send({ type: "send_message", sessionId, text: INPUT });
    const { message } = await answersUntil(
      client!,
      (candidate) =>
        candidate.type === "event" && candidate.sessionId === sessionId && candidate.event.type === "stop",
      "end of the run",
    );
    expect(message.type === "event" && message.event.type === "stop").toBe(true);
    const texts = client!
      .events(sessionId)
      .flatMap((event) => (event.event.type === "text_delta" ? [event.event.text] : []))
      .join("");
    expect(texts).toContain("No scenario matched.");
  }, 60_000);

  it("a project skill's tools.json pattern (no trust, before any permission question)", async () => {
    const skill = ".PseudoClaude/skills/hostile";
    const sessionId = await start({
      scenarios: {
        "hostile.yaml": [
          "name: skill",
          'match: "check"',
          "turns:",
          "  - tool_calls:",
          "      - { name: load_skill, input: { name: hostile } }",
          "  - tool_calls:",
          `      - { name: check_text, input: { text: ${JSON.stringify(INPUT)} } }`,
          '  - text: "done"',
          "",
        ].join("\n"),
      },
      workdir: {
        [`${skill}/SKILL.md`]: "---\nname: hostile\ndescription: Checks text.\n---\nCall check_text.\n",
        [`${skill}/check.mjs`]: 'console.log("checked");\n',
        [`${skill}/tools.json`]: JSON.stringify({
          tools: [
            {
              name: "check_text",
              description: "Checks text",
              input_schema: {
                type: "object",
                properties: { text: { type: "string", pattern: HOSTILE } },
                required: ["text"],
              },
              command: ["node", "check.mjs"],
            },
          ],
        }),
      },
    });
    client!.send({ type: "send_message", sessionId, text: "check this" });
    const { message } = await answersUntil(client!, toolResultOf("check_text"), "check_text's result");
    expect(resultIn(message)).toMatchObject({ ok: false, errorType: "invalid_arguments" });
  }, 60_000);

  const mcpSettings = {
    mcpServers: { schemas: { command: process.execPath, args: [SCHEMA_SERVER] } },
  };

  async function startWithMcp(call: string, input: object): Promise<string> {
    const sessionId = await start({ scenarios: oneCall("call", call, input), settings: mcpSettings });
    await client!.waitFor(
      (message) =>
        message.type === "event" &&
        message.event.type === "mcp_state" &&
        message.event.servers.some((entry) => entry.name === "schemas" && entry.status === "connected"),
      "the schema server connected",
      { timeoutMs: 20_000 },
    );
    return sessionId;
  }

  it("an MCP tool's input schema: pattern", async () => {
    const sessionId = await startWithMcp("mcp__schemas__check", { text: INPUT });
    client!.send({ type: "send_message", sessionId, text: "call it" });
    const { message } = await answersUntil(client!, toolResultOf("mcp__schemas__check"), "the call's result");
    expect(resultIn(message)).toMatchObject({ ok: false, errorType: "invalid_arguments" });
  }, 60_000);

  it("an MCP tool's input schema: patternProperties", async () => {
    const sessionId = await startWithMcp("mcp__schemas__keys", { [INPUT]: 1 });
    client!.send({ type: "send_message", sessionId, text: "call it" });
    const { message } = await answersUntil(client!, verdict, "the call's verdict");
    // The name does not match the pattern, so no rule applies to it: the arguments pass, the call asks.
    expect(message.type === "event" && message.event.type).toBe("permission_request");
  }, 60_000);

  it("an MCP tool's output schema, checked on its structured content", async () => {
    const sessionId = await startWithMcp("mcp__schemas__report", {});
    const from = client!.messages.length;
    client!.send({ type: "send_message", sessionId, text: "call it" });
    await client!.answerNextApproval(sessionId, { kind: "allow_once" }, { from });
    const { message } = await answersUntil(
      client!,
      toolResultOf("mcp__schemas__report"),
      "the call's result",
    );
    const result = resultIn(message);
    expect(result).toMatchObject({ ok: false });
    expect(result?.content).toMatch(/output schema/);
  }, 60_000);

  it("a glob in a deny rule of the (untrusted) workdir's settings", async () => {
    const stars = `${"*a".repeat(12)}*b`;
    const sessionId = await start({
      scenarios: oneCall("run", "run_command", { command: `echo ${"a".repeat(200)}` }),
      workdir: {
        ".PseudoClaude/settings.json": JSON.stringify({ permissions: { deny: [`run_command(${stars})`] } }),
      },
    });
    client!.send({ type: "send_message", sessionId, text: "run it" });
    const { message } = await answersUntil(client!, verdict, "the rule's verdict");
    // The rule does not match (no `b`), so the call is not denied by it: the default mode asks.
    expect(message.type === "event" && message.event.type).toBe("permission_request");
  }, 60_000);

  it("the model's list_files glob (a path glob: `[^/]*?a` twelve times in a backtracking engine)", async () => {
    const glob = `**/${"*a".repeat(12)}*b`;
    const sessionId = await start({
      scenarios: oneCall("list", "list_files", { pattern: glob }),
      workdir: { [`deep/${"a".repeat(200)}`]: "x\n" },
    });
    client!.send({ type: "send_message", sessionId, text: "list them" });
    const { message } = await answersUntil(client!, toolResultOf("list_files"), "list_files's result");
    expect(resultIn(message)).toMatchObject({ ok: true });
    expect(resultIn(message)?.content).not.toContain("a".repeat(200));
  }, 60_000);

  it("the model's search_code pattern (it used to hold the loop for its 5 s budget)", async () => {
    const sessionId = await start({
      scenarios: oneCall("search", "search_code", { pattern: HOSTILE }),
      workdir: { "evil.txt": `${INPUT}\n` },
    });
    client!.send({ type: "send_message", sessionId, text: "search it" });
    const { message } = await answersUntil(client!, toolResultOf("search_code"), "search_code's result");
    expect(resultIn(message)).toMatchObject({ ok: true, content: expect.stringMatching(/^no matches/) });
  }, 60_000);
});
