// A hostile MCP server for the S19 tests, written with the official SDK (McpServer + StdioServerTransport)
// and raw writes to stdout/stderr where the attack is the framing itself. One mode per process:
//   node hostile-mcp-server.mjs <mode> [marker]
// - list-over-limit: its tools/list answer is one line over 10 MiB (a description of 11 MiB);
// - list-many: a tools/list answer under 10 MiB with 20,000 tools, some with 200 KiB descriptions;
// - result-over-limit: tool `big` answers with one line over 10 MiB;
// - result-near-limit: tool `near` answers with 9 MiB of one character (a line under the limit);
// - garbage: before every answer, lines that are not JSON-RPC (text, binary, half JSON, a response to an
//   unknown id, a 1 MiB line of nothing); tool `echo` still answers;
// - deep: its tools/list answer holds an input schema nested a million deep (valid JSON, 2 MB);
// - exit-mid-call: tool `die` exits the process while its call is pending;
// - stderr-flood: writes to stderr without end from the start; tool `echo` still answers;
// - no-newline: after initialize, stdout without a line break, without end;
// - endless-pages: every tools/list answer is an empty page with a next cursor, without end.
// The marker argument is only there so a test can find the process in /proc.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const mode = process.argv[2];
const MIB = 1024 * 1024;

const server = new McpServer({ name: `hostile-${mode}`, version: "1.0.0" });
const text = (value) => ({ content: [{ type: "text", text: value }] });

server.registerTool(
  "echo",
  { description: "Echoes", inputSchema: { message: z.string() } },
  async ({ message }) => text(`echo: ${message}`),
);

if (mode === "list-over-limit") {
  server.registerTool("huge", { description: "x".repeat(11 * MIB), inputSchema: {} }, async () =>
    text("huge"),
  );
}

if (mode === "list-many") {
  for (let index = 0; index < 20_000; index++) {
    const description = index < 20 ? "d".repeat(200 * 1024) : `tool number ${index}`;
    server.registerTool(`t${index}`, { description, inputSchema: {} }, async () => text(`t${index}`));
  }
}

if (mode === "result-over-limit") {
  server.registerTool("big", { description: "An answer over 10 MiB", inputSchema: {} }, async () =>
    text("y".repeat(11 * MIB)),
  );
}

if (mode === "result-near-limit") {
  server.registerTool("near", { description: "9 MiB of one character", inputSchema: {} }, async () =>
    text("y".repeat(9 * MIB)),
  );
}

if (mode === "exit-mid-call") {
  server.registerTool(
    "die",
    { description: "Exits while the call is pending", inputSchema: {} },
    async () => {
      setTimeout(() => process.exit(3), 50);
      return new Promise(() => undefined);
    },
  );
}

const transport = new StdioServerTransport();
const deep = `${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`;

if (mode === "deep") {
  // The SDK cannot serialize a schema that deep, so it is spliced into the JSON text.
  transport.send = async (message) => {
    const tools = message.result?.tools;
    if (Array.isArray(tools)) tools[0].inputSchema = "__DEEP__";
    const line = JSON.stringify(message).replace('"__DEEP__"', `{"type":"object","default":${deep}}`);
    process.stdout.write(`${line}\n`);
  };
}

if (mode === "endless-pages") {
  // Every page empty, every page pointing at another: a client that stops only on a tool count never stops.
  const send = transport.send.bind(transport);
  let page = 0;
  transport.send = async (message) => {
    if (Array.isArray(message.result?.tools)) message.result = { tools: [], nextCursor: `page-${++page}` };
    return send(message);
  };
}

if (mode === "garbage") {
  // Every message the SDK sends is preceded by garbage lines.
  const send = transport.send.bind(transport);
  transport.send = async (message) => {
    process.stdout.write("this is not JSON\n");
    process.stdout.write(Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x0a]));
    process.stdout.write('{"jsonrpc":"2.0","id":\n');
    process.stdout.write('{"jsonrpc":"2.0","id":987654,"result":{}}\n');
    process.stdout.write('{"jsonrpc":"1.0","method":42}\n');
    process.stdout.write(`${"]".repeat(100_000)}\n`);
    process.stdout.write(`${" ".repeat(MIB)}\n`);
    return send(message);
  };
}

if (mode === "no-newline") {
  const send = transport.send.bind(transport);
  transport.send = async (message) => {
    await send(message);
    if ("result" in message && message.result && "serverInfo" in message.result) {
      const chunk = "z".repeat(MIB);
      const more = () => {
        if (process.stdout.write(chunk)) setImmediate(more);
        else process.stdout.once("drain", more);
      };
      more();
    }
  };
}

if (mode === "stderr-flood") {
  // One chunk per turn of the event loop (or per drain), so the server still reads its stdin and answers.
  const chunk = "flood ".repeat(10_000) + "\n";
  const more = () => {
    if (process.stderr.write(chunk)) setImmediate(more);
    else process.stderr.once("drain", more);
  };
  more();
}

await server.connect(transport);
