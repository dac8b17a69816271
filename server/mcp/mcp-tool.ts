// An MCP server's tool as a Registry Tool, `mcp__<server>__<tool>`: origin "main", safety side_effect and
// category exec whatever the server's annotations say (readOnlyHint is a hint from the server, shown on
// the approval card, never a reason to skip the question). A call is one `tools/call` with a timeout;
// Stop and the timeout send `notifications/cancelled` to the server (the SDK does it on abort/timeout).
import type { McpToolView } from "../protocol/mcp.ts";
import { defineTool, failResult, type Tool, type ToolExecution, type ToolTarget } from "../tools/types.ts";
import { SandboxViolation } from "./call-check.ts";
import type { CallOptions } from "./mcp-connection.ts";
import { renderCallResult, type CallResultLike } from "./mcp-result.ts";

export const DEFAULT_MCP_CALL_TIMEOUT_MS = 60_000;
/** JSON-RPC code of the SDK's McpError on a request timeout (ErrorCode.RequestTimeout), without loading the SDK. */
const REQUEST_TIMEOUT_CODE = -32001;

export type McpToolInput = Record<string, unknown>;

/** What a tool needs of its server: a name and a way to call. */
export interface McpToolCaller {
  readonly name: string;
  callTool(tool: string, args: McpToolInput, options: CallOptions): Promise<CallResultLike>;
}

export function createMcpTool(
  server: McpToolCaller,
  tool: McpToolView,
  timeoutMs: number = DEFAULT_MCP_CALL_TIMEOUT_MS,
): Tool<McpToolInput> {
  return defineTool<McpToolInput>({
    definition: {
      name: tool.name,
      description: tool.description,
      inputSchema: structuredClone(tool.inputSchema),
      safety: "side_effect",
      category: "exec",
      origin: "main",
      mcpServer: server.name,
    },
    // A schema that cannot be compiled here still reaches the model; its arguments are checked as an object.
    ...(tool.inputValidationOff !== undefined ? { inputCheck: "object" as const } : {}),

    describe(_input, context): ToolTarget {
      return {
        cwd: context.workdir,
        mcp: {
          server: server.name,
          tool: tool.tool,
          ...(tool.annotations ? { annotations: structuredClone(tool.annotations) } : {}),
        },
      };
    },

    async execute(input, context): Promise<ToolExecution> {
      const started = performance.now();
      const metadata = () => ({
        mcp: { server: server.name, tool: tool.tool },
        durationMs: Math.round(performance.now() - started),
        timeoutMs,
      });
      // The SDK adds an abort listener to the signal it is given and never removes it: it gets a signal of
      // this call only, tied to the run's by a listener removed when the call ends (no leak per call).
      const call = new AbortController();
      const abort = () => call.abort(context.signal.reason);
      if (context.signal.aborted) abort();
      else context.signal.addEventListener("abort", abort, { once: true });
      try {
        const result = await server.callTool(tool.tool, input ?? {}, { signal: call.signal, timeoutMs });
        const execution = renderCallResult(tool.name, { server: server.name, tool: tool.tool }, result);
        const extra = metadata();
        execution.result.metadata = { ...execution.result.metadata, durationMs: extra.durationMs, timeoutMs };
        return execution;
      } catch (error) {
        const text = error instanceof Error ? error.message : String(error);
        // The call's writes broke the rule and were undone (call-check.ts): its answer is not passed on.
        if (error instanceof SandboxViolation)
          return {
            result: failResult(
              tool.name,
              "sandbox_violation",
              `[${text}]\n[the answer of the MCP server ${server.name} is not passed on: what it did was undone]`,
              metadata(),
            ),
          };
        if (context.signal.aborted) {
          return {
            result: failResult(
              tool.name,
              "canceled",
              `canceled by the user; the MCP server ${server.name} was sent notifications/cancelled`,
              { ...metadata(), canceled: true },
            ),
          };
        }
        if ((error as { code?: unknown }).code === REQUEST_TIMEOUT_CODE) {
          return {
            result: failResult(
              tool.name,
              "timeout",
              `no answer from the MCP server ${server.name} within ${timeoutMs / 1000} s; it was sent notifications/cancelled`,
              { ...metadata(), timedOut: true },
            ),
          };
        }
        return {
          result: failResult(tool.name, "mcp_error", `MCP server ${server.name}: ${text}`, metadata()),
        };
      } finally {
        context.signal.removeEventListener("abort", abort);
      }
    },
  });
}
