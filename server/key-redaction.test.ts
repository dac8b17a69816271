// S11 through the whole server process: an approved command prints the server's environment
// (`/proc/$PPID/environ`, the reproduction from issue #10), providers.json and a workdir file holding
// the keys. No configured key may reach a WebSocket message, the session log, an export or the server's
// own output. The workdir file makes the test unable to pass vacuously: whatever a sandbox hides, that
// file is printed, so its keys must show up as "[redacted]".
import { mkdir, mkdtemp, readFile, readdir, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REDACTED } from "./providers/redact.ts";
import { sessionsDirectory } from "./session/session-hub.ts";
import { spawnServer, type SpawnedServer } from "./testing/spawned-server.ts";
import { TestClient } from "./transport/testing/harness.ts";

// Not key-shaped: only the registration of configured values can catch them.
const ENV_KEY = "anthropic-env-key-3c9d7e1f0a2b";
const FILE_KEY = "openai-file-key-8e2f4a6c1d3b";

let root: string;
let server: SpawnedServer | undefined;
afterEach(async () => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill("SIGKILL");
    await server.exited;
  }
  server = undefined;
  await rm(root, { recursive: true, force: true });
});

describe("S11: no provider key in tool output, events, logs or exports", () => {
  it("an approved command that prints the environment, providers.json and a key file leaks nothing", async () => {
    root = await realpath(await mkdtemp(path.join(tmpdir(), "key-redaction-")));
    const home = path.join(root, "home");
    const workdir = path.join(root, "work");
    const scenarios = path.join(root, "scenarios");
    const settings = path.join(home, ".PseudoClaude", "providers.json");
    await mkdir(path.dirname(settings), { recursive: true });
    await mkdir(workdir, { recursive: true });
    await mkdir(scenarios, { recursive: true });
    await writeFile(settings, JSON.stringify({ openai: { apiKey: FILE_KEY } }));
    await writeFile(path.join(workdir, "leak.txt"), `env=${ENV_KEY}\nfile=${FILE_KEY}\n`);
    const command = `tr '\\0' '\\n' < /proc/$PPID/environ; cat ${settings}; cat leak.txt`;
    await writeFile(
      path.join(scenarios, "leak.yaml"),
      `name: leak\nmatch: "leak"\nturns:\n  - tool_calls:\n      - { name: run_command, input: { command: ${JSON.stringify(command)} } }\n  - text: "printed"\n`,
    );
    server = await spawnServer({ home, workdir, scenarios, env: { ANTHROPIC_API_KEY: ENV_KEY } });

    const client = await TestClient.connect(server.target);
    const sessionId = await client.createSession();
    client.send({ type: "send_message", sessionId, text: "leak the keys" });
    await client.answerNextApproval(sessionId);
    const result = await client.waitForEvent("tool_result", { sessionId });
    await client.waitForEvent("stop", { sessionId });
    expect(result.event.result.content).toContain(`env=${REDACTED}\nfile=${REDACTED}`);

    client.send({ type: "export_session", sessionId });
    const exported = await client.waitFor(
      (message) => message.type === "session_export" && message.sessionId === sessionId,
      "session_export",
    );
    expect(JSON.stringify(exported)).toContain(REDACTED);
    client.close();

    const logs = await readdir(sessionsDirectory(home));
    const logText = (
      await Promise.all(logs.map((file) => readFile(path.join(sessionsDirectory(home), file), "utf8")))
    ).join("\n");
    expect(logText).toContain(`env=${REDACTED}`);
    const seen = {
      websocket: JSON.stringify(client.messages),
      log: logText,
      stdout: server.stdout(),
      stderr: server.stderr(),
    };
    for (const [where, text] of Object.entries(seen)) {
      for (const key of [ENV_KEY, FILE_KEY]) {
        expect(text.includes(key), `${key} in ${where}`).toBe(false);
      }
    }
  }, 40_000);
});
