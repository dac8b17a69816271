// A stdio MCP server written with the SDK's low-level Server, publishing tool schemas exactly as given
// (no zod conversion in between), for tests of what servers publish: JSON Schema dialects (draft-07,
// 2019-09, 2020-12, declared or not), schemas no engine here can honour, hostile regular expressions in
// input and output schemas, and structured content that repeats the text. Plain JavaScript so that it
// runs as `node schema-server.mjs` inside the sandbox. Every tool answers with its arguments as JSON,
// except those described otherwise below.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
const DRAFT_2019 = "https://json-schema.org/draft/2019-09/schema";
const DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema";

/** 40 characters that make `^(a+)+$` backtrack for hours in a backtracking engine. */
const HOSTILE_INPUT = `${"a".repeat(40)}!`;
const HOSTILE_PATTERN = "^(a+)+$";

const tools = [
  {
    name: "order",
    description: "2020-12: $defs and $ref, prefixItems, unevaluatedProperties, dependentRequired",
    inputSchema: {
      $schema: DRAFT_2020,
      type: "object",
      $defs: { sku: { type: "string", pattern: "^[A-Z]{3}-\\d{4}$" } },
      properties: {
        item: { $ref: "#/$defs/sku" },
        line: { type: "array", prefixItems: [{ type: "integer" }, { type: "string" }], items: false },
        card: { type: "string" },
        expiry: { type: "string" },
      },
      dependentRequired: { card: ["expiry"] },
      required: ["item"],
      unevaluatedProperties: false,
    },
  },
  {
    name: "recent",
    description: "2019-09: dependentRequired and unevaluatedProperties through allOf",
    inputSchema: {
      $schema: DRAFT_2019,
      type: "object",
      allOf: [{ properties: { a: { type: "string" } } }],
      properties: { b: { type: "integer" } },
      dependentRequired: { a: ["b"] },
      unevaluatedProperties: false,
    },
  },
  {
    name: "legacy",
    description: "draft-07: tuple items, additionalItems, dependencies",
    inputSchema: {
      $schema: DRAFT_07,
      type: "object",
      properties: {
        pair: { type: "array", items: [{ type: "string" }, { type: "number" }], additionalItems: false },
        card: { type: "string" },
      },
      dependencies: { card: ["expiry"] },
    },
  },
  {
    name: "undeclared",
    description: "no $schema, 2020-12 keywords (the MCP default dialect)",
    inputSchema: {
      type: "object",
      properties: {
        point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false },
      },
      required: ["point"],
    },
  },
  {
    name: "contact",
    description: "formats: email and date",
    inputSchema: {
      $schema: DRAFT_2020,
      type: "object",
      properties: { email: { type: "string", format: "email" }, day: { type: "string", format: "date" } },
    },
  },
  {
    name: "lookahead",
    description: "a pattern with lookahead, which a linear-time engine cannot honour",
    inputSchema: {
      $schema: DRAFT_2020,
      type: "object",
      properties: { code: { type: "string", pattern: "^(?=.*\\d)[a-z0-9]+$" } },
    },
  },
  {
    name: "ancient",
    description: "draft-04, a dialect the playground does not validate",
    inputSchema: { $schema: "http://json-schema.org/draft-04/schema#", type: "object" },
  },
  {
    name: "check",
    description: "a hostile pattern on an argument",
    inputSchema: { type: "object", properties: { text: { type: "string", pattern: HOSTILE_PATTERN } } },
  },
  {
    name: "keys",
    description: "a hostile pattern on argument names",
    inputSchema: { type: "object", patternProperties: { [HOSTILE_PATTERN]: { type: "string" } } },
  },
  {
    name: "report",
    description: "a hostile pattern in the output schema; answers structured content that trips it",
    inputSchema: { type: "object" },
    outputSchema: {
      $schema: DRAFT_2020,
      type: "object",
      properties: { text: { type: "string", pattern: HOSTILE_PATTERN } },
    },
  },
  {
    name: "read",
    description: "answers `size` characters of text, and the same text again as structured content",
    inputSchema: { type: "object", properties: { size: { type: "integer", minimum: 0 } } },
    outputSchema: { type: "object", properties: { content: { type: "string" } }, required: ["content"] },
  },
];

const server = new Server({ name: "schema-server", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments ?? {};
  if (request.params.name === "report") {
    return { content: [{ type: "text", text: "report" }], structuredContent: { text: HOSTILE_INPUT } };
  }
  if (request.params.name === "read") {
    const size = typeof args.size === "number" ? args.size : 0;
    const lines = Array.from(
      { length: Math.ceil(size / 70) + 1 },
      (_, index) => `line ${index}: ${"x".repeat(60)}`,
    );
    const content = lines.join("\n").slice(0, size);
    return { content: [{ type: "text", text: content }], structuredContent: { content } };
  }
  return { content: [{ type: "text", text: JSON.stringify(args) }] };
});
await server.connect(new StdioServerTransport());
