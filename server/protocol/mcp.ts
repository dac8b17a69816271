// MCP servers as the pages, the CLI and the logs see them: where each comes from, its state, its tools.
import type { JsonSchema } from "./model.ts";

export type McpTransportKind = "stdio" | "http";

/**
 * `configured`: read, not started yet; `withheld`: a workdir's server in an untrusted folder (never
 * started); `starting`; `connected`; `failed`: could not start, or no answer to `initialize` in time;
 * `crashed`: it was connected and its process or connection ended; `closed`: ended with the session.
 */
export type McpServerStatus =
  "configured" | "withheld" | "starting" | "connected" | "failed" | "crashed" | "closed";

export interface McpToolView {
  /** The Registry name: `mcp__<server>__<tool>`. */
  name: string;
  /** The server's own name for it. */
  tool: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema;
  /** The server's annotations (hints, not guarantees): readOnlyHint, destructiveHint, … */
  annotations?: Record<string, unknown>;
  /** o200k_base tokens of the definition as the model is sent it (name, description, schema as JSON). */
  definitionTokens: number;
  /**
   * Set when the input schema cannot be compiled here (a pattern the linear-time engine cannot run, a
   * `$schema` not validated here): why. The tool is registered all the same; its arguments are checked
   * only for being an object.
   */
  inputValidationOff?: string;
}

export interface McpServerView {
  name: string;
  transport: McpTransportKind;
  /** The file it was configured in. */
  configFile: string;
  /** `user`: ~/.PseudoClaude/settings.json (always starts); `workdir`: needs a trusted folder. */
  scope: "user" | "workdir";
  /** What is started: the command line (stdio) or the URL (http). */
  target: string;
  /**
   * Why it needs the network to start (a package runner such as `npx -y`, or a URL on another machine),
   * when its own network (stdio: its `network` setting) is off.
   */
  needsNetwork?: string;
  status: McpServerStatus;
  /** Why it failed, crashed or is withheld. */
  error?: string;
  /** The server's own name and version from `initialize`. */
  serverInfo?: { name: string; version: string };
  /** stdio: whether it runs in the sandbox, and with network or not. */
  sandbox?: { enabled: boolean; network: boolean; reason?: string };
  /** The tools registered for the model (what the panel counts). */
  tools: McpToolView[];
  /** Skills it serves (SEP-2640 skills/list entries that are skills), when it declares the extension. */
  skills?: number;
  /** What the playground could not take as the server published it: tools skipped, checks off. */
  warnings?: string[];
  /** The last lines the server wrote on stderr (stdio), bounded. */
  stderrTail: string;
  /** Tokens of all its tool definitions together (o200k_base). */
  definitionTokens: number;
  /** Time from start to connected (or failed), ms. */
  startMs?: number;
}

/** What a result of an MCP tool carried besides text, for the UI (ToolResultMetadata.mcp). */
export interface McpResultDetails {
  server: string;
  tool: string;
  isError: boolean;
  images: { mimeType: string; data: string }[];
  /** Images not kept for the UI (over the size budget), described to the model all the same. */
  droppedImages?: number;
  resourceLinks: { uri: string; name?: string; mimeType?: string; description?: string }[];
  structuredContent?: unknown;
}
