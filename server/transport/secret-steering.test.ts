// Issue #20 class 7, SECURITY S21, over the real socket: a trusted workdir's `.mcp.json` names ordinary
// text as a credential (`API_TOKEN: "node payload.js"`). Before the fix that text became a process-wide
// secret: the approval card read `ls && [redacted]` for `ls && node payload.js`, and every session's log
// lost the text. Now a configured value is a secret only when it looks like one, only in that workdir's
// session, and an approval card never hides part of a command: a real secret in it is named and warned of.
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";

const STEERED = "node payload.js";
/** Random-looking, as a real token is. */
const TOKEN = "tok-8fK2q9Zr4Lm7Xw3Bv6Np1Hs5";

const scenario = (name: string, command: string) =>
  `name: ${name}\nmatch: "${name}"\nturns:\n  - tool_calls:\n      - { name: run_command, input: { command: "${command}" } }\n  - text: "done"\n`;

let server: TestServer;
let otherWorkdir: string;
beforeEach(async () => {
  server = await startTestServer(
    {
      "steer.yaml": scenario("steer", `ls && ${STEERED}`),
      "token.yaml": scenario("token", `curl -H 'X-Token: ${TOKEN}' http://127.0.0.1:9/ && ls`),
      "echo.yaml": `name: echo\nmatch: "echo"\nturns:\n  - text: "I ran ${STEERED} with ${TOKEN}"\n`,
    },
    { watch: false },
  );
  await writeFile(
    path.join(server.workdir, ".mcp.json"),
    JSON.stringify({
      mcpServers: {
        helper: {
          command: "node",
          args: ["-e", "process.exit(0)"],
          env: { API_TOKEN: STEERED, SERVICE_TOKEN: TOKEN },
        },
      },
    }),
  );
  otherWorkdir = path.join(server.root, "other");
  await mkdir(otherWorkdir);
});
afterEach(async () => {
  await server.dispose();
});

/** A session on the server's workdir, trusted, with its MCP configuration read (the helper tried). */
async function trustedSession(client: TestClient): Promise<string> {
  const sessionId = await client.createSession();
  const from = client.messages.length;
  client.send({ type: "trust_folder", sessionId, remember: false });
  await client.waitForEvent("mcp_state", {
    sessionId,
    from,
    where: (event) => event.servers.some((entry) => entry.name === "helper" && entry.status !== "withheld"),
  });
  return sessionId;
}

/** The session's log once its last run's stop record is on disk (the log is written asynchronously). */
async function logOf(sessionId: string): Promise<string> {
  const folder = path.join(server.home, ".PseudoClaude", "playground", "sessions");
  return vi.waitFor(
    async () => {
      const file = (await readdir(folder)).find((name) => name.startsWith(sessionId));
      const text = await readFile(path.join(folder, file!), "utf8");
      expect(text).toContain('"type":"stop"');
      return text;
    },
    { timeout: 10_000, interval: 50 },
  );
}

describe("S21: a trusted config cannot steer redaction", () => {
  it("ordinary text named like a credential is not a secret: the card shows the whole command", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await trustedSession(client);
    const from = client.messages.length;
    client.send({ type: "send_message", sessionId, text: "steer" });
    const asked = await client.answerNextApproval(sessionId, { kind: "deny" }, { from });
    expect(asked.event.request.command).toBe(`ls && ${STEERED}`);
    expect(asked.event.request.secrets).toBeUndefined();
    await client.waitForEvent("stop", { sessionId, from });
    expect((await logOf(sessionId)).includes(STEERED), "the log keeps the command").toBe(true);
    client.close();
  });

  it("a real secret in a command is named on the card, with the rest of the command visible", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await trustedSession(client);
    const from = client.messages.length;
    client.send({ type: "send_message", sessionId, text: "token" });
    const asked = await client.answerNextApproval(sessionId, { kind: "deny" }, { from });
    const { request } = asked.event;
    expect(request.command).toBe("curl -H 'X-Token: [secret: SERVICE_TOKEN]' http://127.0.0.1:9/ && ls");
    expect(request.secrets).toEqual([
      {
        name: "SERVICE_TOKEN",
        source: `env of MCP server "helper" in ${path.join(server.workdir, ".mcp.json")}`,
      },
    ]);
    await client.waitForEvent("stop", { sessionId, from });
    // The session's own log keeps its secret out, as it keeps provider keys out.
    expect((await logOf(sessionId)).includes(TOKEN), "the log keeps the token out").toBe(false);
    client.close();
  });

  it("another workdir's session keeps the text: a workdir's secrets are its session's only", async () => {
    const client = await TestClient.connect(server);
    await trustedSession(client);
    const other = await client.createSession({ workdir: otherWorkdir });
    const stop = await client.sendMessage(other, "echo");
    expect(stop).toMatchObject({ reason: "completed" });
    const log = await logOf(other);
    expect(log.includes(`I ran ${STEERED} with ${TOKEN}`), "the other session's log keeps the text").toBe(
      true,
    );
    expect(log.includes("[redacted]"), "nothing in the other session's log is redacted").toBe(false);
    client.close();
  });
});
