#!/usr/bin/env node
// Acme's issue tracker as a tiny MCP server (stdio): newline-delimited JSON-RPC 2.0 on stdin/stdout, plain
// Node, no dependencies and no network, so it runs in the playground's sandbox from any copy of this
// folder. It answers initialize, ping, tools/list and tools/call for two read-only tools over the
// tickets in tickets.json next to it. Listed in ../../.mcp.json; the playground starts it once the folder
// is trusted (the demo copy `npm start` makes is). Logs go to stderr, never stdout (stdout is the protocol).
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const SERVER = { name: "acme-tickets", version: "1.0.0" };
/** Versions this server speaks, newest first; a client asking for another gets the newest. */
const VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
const tickets = JSON.parse(readFileSync(new URL("./tickets.json", import.meta.url), "utf8")).tickets;

const TOOLS = [
  {
    name: "search_tickets",
    title: "Search tickets",
    description:
      "Search Acme's issue tracker: tickets whose id, title, labels or text contain every word of the query (case-insensitive). Returns one line per ticket: id, status, title, labels.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, description: 'Words to look for, e.g. "rounding cents"' },
        status: { type: "string", enum: ["open", "closed", "any"], description: "Default: any" },
      },
      required: ["query"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "get_ticket",
    title: "Get a ticket",
    description:
      "One ticket of Acme's issue tracker in full: status, labels, where in the code, and its text.",
    inputSchema: {
      type: "object",
      properties: { id: { type: "string", description: "Ticket id, e.g. ACME-101" } },
      required: ["id"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
];

const line = (ticket) => `${ticket.id} [${ticket.status}] ${ticket.title} (${ticket.labels.join(", ")})`;

function searchTickets({ query, status = "any" }) {
  const words = String(query).toLowerCase().split(/\s+/).filter(Boolean);
  const found = tickets.filter((ticket) => {
    if (status !== "any" && ticket.status !== status) return false;
    const text = [ticket.id, ticket.title, ticket.labels.join(" "), ticket.body].join(" ").toLowerCase();
    return words.every((word) => text.includes(word));
  });
  if (found.length === 0) return { text: `No ticket matches "${query}" (status: ${status}).` };
  return { text: `${found.length} ticket(s) match "${query}":\n${found.map(line).join("\n")}` };
}

function getTicket({ id }) {
  const ticket = tickets.find((candidate) => candidate.id.toLowerCase() === String(id).toLowerCase());
  if (!ticket) return { text: `No ticket ${id}. Ids look like ACME-101.`, isError: true };
  return {
    text: [line(ticket), `opened ${ticket.opened}; code: ${ticket.code ?? "—"}`, "", ticket.body].join("\n"),
  };
}

function callTool(params) {
  const args = params?.arguments ?? {};
  const result =
    params?.name === "search_tickets"
      ? typeof args.query === "string" && args.query.trim() !== ""
        ? searchTickets(args)
        : { text: '"query" must be a non-empty string', isError: true }
      : params?.name === "get_ticket"
        ? getTicket(args)
        : { text: `unknown tool ${params?.name}`, isError: true };
  return { content: [{ type: "text", text: result.text }], ...(result.isError ? { isError: true } : {}) };
}

function answer(request) {
  switch (request.method) {
    case "initialize": {
      const asked = request.params?.protocolVersion;
      return {
        protocolVersion: VERSIONS.includes(asked) ? asked : VERSIONS[0],
        capabilities: { tools: { listChanged: false } },
        serverInfo: SERVER,
        instructions: "Acme's issue tracker (read-only): search tickets, then read one in full.",
      };
    }
    case "ping":
      return {};
    case "tools/list":
      return { tools: TOOLS };
    case "tools/call":
      return callTool(request.params);
    default:
      return { error: { code: -32601, message: `method not found: ${request.method}` } };
  }
}

function send(message) {
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
}

createInterface({ input: process.stdin }).on("line", (text) => {
  if (text.trim() === "") return;
  let request;
  try {
    request = JSON.parse(text);
  } catch {
    send({
      id: null,
      error: { code: -32700, message: "parse error: each line must be one JSON-RPC message" },
    });
    return;
  }
  // Notifications (no id), e.g. notifications/initialized or notifications/cancelled, get no answer.
  if (request === null || typeof request !== "object" || request.id === undefined) return;
  if (typeof request.method !== "string") {
    send({ id: request.id, error: { code: -32600, message: "invalid request: no method" } });
    return;
  }
  const result = answer(request);
  if (result.error) send({ id: request.id, error: result.error });
  else send({ id: request.id, result });
});
process.stderr.write(`${SERVER.name} ${SERVER.version}: ${tickets.length} tickets, waiting on stdin\n`);
