// An MCP server's credentials from the user's settings (`env` values such as a token, `headers` such as
// an API key) are secrets like provider keys: a server that prints them (its stderr tail is shown and
// logged) or echoes them must not put them into the events, the session log or an export.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";

const TOKEN = "svc-tok-4f1d2c9a7b3e5f60";
const HEADER_KEY = "hdr-key-9e8d7c6b5a4f3e2d";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({}, { watch: false });
  // The server script lives in the workdir (visible in the sandbox): it prints its token and exits.
  const script = path.join(server.workdir, "leaky-server.cjs");
  await writeFile(
    script,
    `process.stderr.write("starting with SERVICE_TOKEN=" + process.env.SERVICE_TOKEN + "\\n"); process.exit(3);\n`,
  );
  await mkdir(path.join(server.home, ".PseudoClaude"), { recursive: true });
  await writeFile(
    path.join(server.home, ".PseudoClaude", "settings.json"),
    JSON.stringify({
      mcpServers: {
        leaky: { command: "node", args: [script], env: { SERVICE_TOKEN: TOKEN } },
        // Nothing listens on port 9: the failure message names the server; its header must stay out.
        remote: { url: "http://127.0.0.1:9/mcp", headers: { "X-Api-Key": HEADER_KEY } },
      },
    }),
  );
});
afterEach(async () => {
  await server.dispose();
});

describe("MCP credentials from the settings", () => {
  it("are redacted from the stderr tail in events, the session log and the exports", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    await client.waitFor(
      (message) =>
        message.type === "event" &&
        message.event.type === "mcp_state" &&
        message.event.servers.some(
          (entry) => entry.name === "leaky" && entry.stderrTail.includes("starting"),
        ),
      "the leaky server's stderr",
    );
    const from = client.messages.length;
    client.send({ type: "export_session", sessionId, format: "html" });
    const html = await client.waitFor((message) => message.type === "session_file", "html export", { from });
    client.send({ type: "export_session", sessionId });
    const jsonl = await client.waitFor((message) => message.type === "session_export", "jsonl export", {
      from,
    });
    const everything = [JSON.stringify(client.messages), JSON.stringify(html), JSON.stringify(jsonl)];
    const logs = path.join(server.home, ".PseudoClaude", "playground", "sessions");
    for (const file of await readdir(logs)) everything.push(await readFile(path.join(logs, file), "utf8"));
    const all = everything.join("\n");
    expect(all).toContain("SERVICE_TOKEN=");
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain(HEADER_KEY);
    client.close();
  });
});
