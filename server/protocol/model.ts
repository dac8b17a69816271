// Provider-neutral conversation and tool types. These are wire types: the Runner, the providers, the
// session log and the browser all use exactly these shapes.

export type JsonSchema = Record<string, unknown>;

export type ToolSafety = "read_only" | "side_effect";
export type ToolCategory = "read" | "write" | "exec";

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  safety: ToolSafety;
  category: ToolCategory;
  /** "system" for protected built-ins, "skill" for tools.json tools, "main" for anything else. */
  origin: "system" | "skill" | "main";
  /** For skill tools: the skill that registered it. */
  skill?: string;
}

export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

export type ChatMessage =
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls: ToolCall[] }
  | { role: "tool"; toolCallId: string; toolName: string; content: string; isError: boolean };

export interface ToolResult {
  ok: boolean;
  tool: string;
  /** What the model sees (capped). */
  content: string;
  errorType?: string;
  error?: string;
  metadata?: Record<string, unknown>;
}

export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  cacheCreationInputTokens?: number;
  cacheReadInputTokens?: number;
  /**
   * Where the numbers come from: the provider's own report (absent means the same, for older logs), or
   * an estimate made here (the scripted model counts the chunks it streamed; it has no tokenizer).
   */
  source?: "provider" | "estimate";
  /** How an estimate was made, shown next to it. */
  estimate?: string;
}

export type DisclosureMode = "progressive" | "eager";
export type PermissionMode = "strict" | "default" | "acceptEdits" | "bypassPermissions";
export type StopReason =
  | "completed"
  | "max_iterations"
  | "unknown_tool_limit"
  | "canceled"
  | "provider_error"
  /** The server ended (crash, kill -9) during the run; written by the next start, which found no stop. */
  | "interrupted";
