// Session → OpenTelemetry trace (OTLP/JSON ExportTraceServiceRequest), for Phoenix, Langfuse or any OTLP
// collector. One trace per run: an agent span for the run, a client span per model request, a span per
// tool call, and zero-length spans for each skill activation and each level-3 read, under the call that
// caused them. Attributes carry both vocabularies those tools read: the OpenTelemetry GenAI semantic
// conventions (`gen_ai.*`) and OpenInference (`openinference.span.kind`, `llm.*`, `tool.*`, `session.id`),
// plus the playground's own facts under `pseudoclaude.*` (permission decision, outcome, disclosure).
//
// Prompt and completion text, tool arguments and results, the user's messages and the workdir are
// content: they are written only with `includeContent` (the inspector's rule: what a person typed or a
// model produced never leaves by default). Keys and the server token are already redacted by the reader
// (exported-session.ts), which is the one reader of session logs every export uses.
import type { ChatMessage, Usage } from "../protocol/model.ts";
import { RequestReader, type ResolvedRequest } from "../protocol/request-model.ts";
import { PLAYGROUND_VERSION } from "../session/workspace.ts";
import type { ExportedSession } from "./exported-session.ts";
import {
  attributes,
  SPAN_KIND,
  stableId,
  STATUS_CODE,
  unixNano,
  type AttributeInput,
  type OtlpEvent,
  type OtlpSpan,
  type OtlpTraceRequest,
} from "./otlp-json.ts";

export interface OtlpExportOptions {
  /** Prompt and completion text, tool arguments and results (off by default). */
  includeContent?: boolean;
}

export const OTLP_SCOPE = "pseudoclaude-playground/export";
const AGENT_NAME = "PseudoClaude Playground";

interface OpenSpan {
  span: OtlpSpan;
  /** Set once something ended it (a stop, a usage report and the answer, a tool result). */
  ended: boolean;
}

interface RunState {
  traceId: string;
  run: OpenSpan;
  requests: Map<number, OpenSpan & { provider: string; snapshot: ResolvedRequest }>;
  tools: Map<string, OpenSpan>;
  /** The tool call in flight or just answered, whose effects (skill activated, file read) become its children. */
  currentTool?: OpenSpan;
}

/** Input tokens as the GenAI conventions count them: cache reads and writes included (Anthropic's are not). */
function totalInput(provider: string, usage: Usage): number | undefined {
  if (usage.inputTokens === undefined) return undefined;
  if (provider === "openai") return usage.inputTokens;
  return usage.inputTokens + (usage.cacheReadInputTokens ?? 0) + (usage.cacheCreationInputTokens ?? 0);
}

/**
 * The cost of one request from the provider's own token report and the price row the cache model used
 * for it (prices.json, named in the snapshot): undefined for an estimate or when no price is known.
 */
function reportedCost(state: { provider: string; snapshot: ResolvedRequest }, usage: Usage) {
  const price = state.snapshot.cache?.price;
  if (!price || usage.source === "estimate" || usage.inputTokens === undefined) return undefined;
  const read = usage.cacheReadInputTokens ?? 0;
  const write = usage.cacheCreationInputTokens ?? 0;
  const uncached = state.provider === "openai" ? usage.inputTokens - read : usage.inputTokens;
  const prompt = (uncached * price.input + write * price.cacheWrite5m + read * price.cacheRead) / 1e6;
  const completion = ((usage.outputTokens ?? 0) * price.output) / 1e6;
  return {
    prompt,
    completion,
    total: prompt + completion,
    source: `provider usage × prices.json row "${price.model}" (${price.source}, checked ${price.checked})`,
  };
}

/** GenAI's message shape (`gen_ai.input.messages`): role and parts. */
function genAiMessage(message: ChatMessage): unknown {
  switch (message.role) {
    case "user":
      return { role: "user", parts: [{ type: "text", content: message.content }] };
    case "assistant":
      return {
        role: "assistant",
        parts: [
          ...(message.content ? [{ type: "text", content: message.content }] : []),
          ...message.toolCalls.map((call) => ({
            type: "tool_call",
            id: call.id,
            name: call.name,
            arguments: call.input,
          })),
        ],
      };
    case "tool":
      return {
        role: "tool",
        parts: [{ type: "tool_call_response", id: message.toolCallId, response: message.content }],
      };
  }
}

/** OpenInference's flattened messages: `llm.input_messages.<i>.message.role` / `.content`. */
function flattenedMessages(prefix: string, messages: readonly ChatMessage[]): Record<string, AttributeInput> {
  const out: Record<string, AttributeInput> = {};
  messages.forEach((message, index) => {
    out[`${prefix}.${index}.message.role`] = message.role;
    out[`${prefix}.${index}.message.content`] = message.content;
    if (message.role === "assistant")
      message.toolCalls.forEach((call, callIndex) => {
        const base = `${prefix}.${index}.message.tool_calls.${callIndex}.tool_call`;
        out[`${base}.id`] = call.id;
        out[`${base}.function.name`] = call.name;
        out[`${base}.function.arguments`] = JSON.stringify(call.input);
      });
  });
  return out;
}

function newSpan(
  traceId: string,
  idParts: string[],
  parent: OtlpSpan | undefined,
  name: string,
  kind: number,
  at: string,
  values: Record<string, AttributeInput>,
): OtlpSpan {
  return {
    traceId,
    spanId: stableId(8, ...idParts),
    ...(parent ? { parentSpanId: parent.spanId } : {}),
    name,
    kind,
    startTimeUnixNano: unixNano(at),
    endTimeUnixNano: unixNano(at),
    attributes: attributes(values),
    events: [],
    status: { code: STATUS_CODE.unset },
  };
}

function addAttributes(span: OtlpSpan, values: Record<string, AttributeInput>): void {
  const fresh = attributes(values);
  const keys = new Set(fresh.map((entry) => entry.key));
  span.attributes = [...span.attributes.filter((entry) => !keys.has(entry.key)), ...fresh];
}

function addEvent(span: OtlpSpan, at: string, name: string, values: Record<string, AttributeInput>): void {
  const event: OtlpEvent = { timeUnixNano: unixNano(at), name, attributes: attributes(values) };
  span.events.push(event);
}

function end(open: OpenSpan, at: string): void {
  open.span.endTimeUnixNano = unixNano(at);
  open.ended = true;
}

/** Builds the ExportTraceServiceRequest of one saved session. */
export function sessionToOtlp(session: ExportedSession, options: OtlpExportOptions = {}): OtlpTraceRequest {
  const content = options.includeContent === true;
  const sessionId = session.header.id;
  // Requests are read in full from their references (server/protocol/request-model.ts), in log order.
  const requests = new RequestReader();
  const runs = new Map<string, RunState>();
  const spans: OtlpSpan[] = [];
  const keep = <T extends OpenSpan>(open: T): T => {
    spans.push(open.span);
    return open;
  };
  let lastAt = session.header.createdAt;

  for (const record of session.events) {
    lastAt = record.at;
    const { event, at } = record;
    requests.observe(event);
    // Calls made by hand from the tool console belong to no run and no model request.
    if ("console" in event && event.console) continue;
    if (event.type === "run_started") {
      const traceId = stableId(16, sessionId, event.runId);
      const run = keep({
        ended: false,
        span: newSpan(
          traceId,
          [sessionId, event.runId],
          undefined,
          `invoke_agent ${AGENT_NAME}`,
          SPAN_KIND.internal,
          at,
          {
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": AGENT_NAME,
            "gen_ai.conversation.id": sessionId,
            "openinference.span.kind": "AGENT",
            "session.id": sessionId,
            "pseudoclaude.run.id": event.runId,
            "pseudoclaude.run.skill": event.skill,
            "pseudoclaude.sandbox": event.sandbox
              ? `${event.sandbox.enabled ? "on" : "off"}, network ${event.sandbox.network ? "on" : "off"}`
              : undefined,
            ...(content ? { "input.value": event.userMessage, "input.mime_type": "text/plain" } : {}),
          },
        ),
      });
      runs.set(event.runId, { traceId, run, requests: new Map(), tools: new Map() });
      continue;
    }
    const runId = "runId" in event ? event.runId : undefined;
    const run = runId !== undefined ? runs.get(runId) : undefined;
    if (!run) continue;
    switch (event.type) {
      case "request": {
        const snapshot = requests.resolve(event.snapshot);
        const request = keep({
          ended: false,
          provider: snapshot.provider,
          snapshot,
          span: newSpan(
            run.traceId,
            [sessionId, event.runId, "request", String(snapshot.requestIndex)],
            run.run.span,
            `chat ${snapshot.model}`,
            SPAN_KIND.client,
            at,
            {
              "gen_ai.operation.name": "chat",
              "gen_ai.provider.name": snapshot.provider,
              "gen_ai.system": snapshot.provider,
              "gen_ai.request.model": snapshot.model,
              "gen_ai.conversation.id": sessionId,
              "openinference.span.kind": "LLM",
              "llm.system": snapshot.provider,
              "llm.provider": snapshot.provider,
              "llm.model_name": snapshot.model,
              "session.id": sessionId,
              "pseudoclaude.request.index": snapshot.requestIndex,
              "pseudoclaude.request.iteration": snapshot.iteration,
              "pseudoclaude.disclosure": snapshot.disclosure,
              "pseudoclaude.stable_system.sha256": snapshot.stableHash,
              "pseudoclaude.skills.listed": snapshot.listedSkills.length,
              "pseudoclaude.skills.active": snapshot.activeSkills,
              "pseudoclaude.tools.visible": snapshot.tools.map((tool) => tool.name),
              "pseudoclaude.cost.predicted_input_usd": snapshot.cache?.costUsd ?? undefined,
              ...(content ? requestContent(snapshot) : {}),
            },
          ),
        });
        run.requests.set(snapshot.requestIndex, request);
        break;
      }
      case "provider_retry": {
        const request = run.requests.get(event.requestIndex);
        if (request)
          addEvent(request.span, at, "provider_retry", {
            "pseudoclaude.retry.attempt": event.attempt,
            "pseudoclaude.retry.delay_ms": event.delayMs,
            "pseudoclaude.retry.reason": event.reason,
          });
        break;
      }
      case "usage": {
        const request = run.requests.get(event.requestIndex);
        if (!request) break;
        const { usage } = event;
        const input = totalInput(request.provider, usage);
        const cost = reportedCost(request, usage);
        addAttributes(request.span, {
          "gen_ai.usage.input_tokens": input,
          "gen_ai.usage.output_tokens": usage.outputTokens,
          "gen_ai.usage.cache_read.input_tokens": usage.cacheReadInputTokens,
          "gen_ai.usage.cache_creation.input_tokens": usage.cacheCreationInputTokens,
          "llm.token_count.prompt": input,
          "llm.token_count.completion": usage.outputTokens,
          "llm.token_count.total":
            input !== undefined || usage.outputTokens !== undefined
              ? (input ?? 0) + (usage.outputTokens ?? 0)
              : undefined,
          "llm.token_count.prompt_details.cache_read": usage.cacheReadInputTokens,
          "llm.token_count.prompt_details.cache_write": usage.cacheCreationInputTokens,
          "pseudoclaude.usage.source":
            usage.source === "estimate" ? `estimate: ${usage.estimate ?? ""}` : "provider",
          ...(cost
            ? {
                "gen_ai.usage.cost": cost.total,
                "llm.cost.total": cost.total,
                "llm.cost.prompt": cost.prompt,
                "llm.cost.completion": cost.completion,
                "pseudoclaude.cost.source": cost.source,
              }
            : {}),
        });
        end(request, at);
        break;
      }
      case "history_appended": {
        if (event.message.role !== "assistant" || event.requestIndex === undefined) break;
        const request = run.requests.get(event.requestIndex);
        if (!request) break;
        const calls = event.message.toolCalls;
        addAttributes(request.span, {
          "gen_ai.response.model": request.snapshot.model,
          "gen_ai.response.finish_reasons": [calls.length > 0 ? "tool_calls" : "stop"],
          "pseudoclaude.response.tool_calls": calls.map((call) => call.name),
          ...(content ? responseContent(event.message) : {}),
        });
        end(request, at);
        break;
      }
      case "tool_call": {
        const { call } = event;
        const tool = keep({
          ended: false,
          span: newSpan(
            run.traceId,
            [sessionId, event.runId, "tool", call.id],
            run.run.span,
            `execute_tool ${call.name}`,
            SPAN_KIND.internal,
            at,
            {
              "gen_ai.operation.name": "execute_tool",
              "gen_ai.tool.name": call.name,
              "gen_ai.tool.call.id": call.id,
              "gen_ai.tool.type": call.name.startsWith("mcp__") ? "extension" : "function",
              "openinference.span.kind": "TOOL",
              "tool.name": call.name,
              "session.id": sessionId,
              "pseudoclaude.request.index": event.requestIndex,
              "pseudoclaude.tool.known": event.known,
              "pseudoclaude.tool.visible": event.visible,
              ...(content
                ? {
                    "gen_ai.tool.call.arguments": JSON.stringify(call.input),
                    "tool.parameters": JSON.stringify(call.input),
                    "input.value": JSON.stringify(call.input),
                    "input.mime_type": "application/json",
                  }
                : {}),
            },
          ),
        });
        run.tools.set(call.id, tool);
        run.currentTool = tool;
        break;
      }
      case "permission_request": {
        const tool = run.tools.get(event.request.callId);
        if (tool)
          addEvent(tool.span, at, "permission_request", {
            "pseudoclaude.permission.decision": event.request.trace.decision,
            "pseudoclaude.permission.source": event.request.trace.source,
            "pseudoclaude.permission.reason": event.request.trace.reason,
          });
        break;
      }
      case "permission_decision": {
        const tool = run.tools.get(event.callId);
        if (!tool) break;
        const { trace, answer } = event;
        addAttributes(tool.span, {
          "pseudoclaude.permission.decision": trace.decision,
          "pseudoclaude.permission.source": trace.source,
          "pseudoclaude.permission.rule": trace.rule,
          "pseudoclaude.permission.answer": answer?.kind,
          "pseudoclaude.permission.pre_approved_by": trace.preApprovedBy,
        });
        addEvent(tool.span, at, "permission_decision", {
          "pseudoclaude.permission.decision": trace.decision,
          "pseudoclaude.permission.source": trace.source,
          "pseudoclaude.permission.reason": trace.reason,
        });
        break;
      }
      case "tool_result": {
        const tool = run.tools.get(event.callId);
        if (!tool) break;
        const { result } = event;
        addAttributes(tool.span, {
          "pseudoclaude.tool.outcome": result.ok ? "ok" : result.errorType,
          "pseudoclaude.tool.duration_ms": event.durationMs,
          "error.type": result.ok ? undefined : result.errorType,
          ...(content
            ? {
                "gen_ai.tool.call.result": result.content,
                "output.value": result.content,
                "output.mime_type": "text/plain",
              }
            : {}),
        });
        if (!result.ok) tool.span.status = { code: STATUS_CODE.error, message: result.error };
        end(tool, at);
        // Its effects (skill activated, file read) are logged right after its result.
        run.currentTool = tool;
        break;
      }
      case "skill_activated": {
        const parent = run.currentTool ?? run.run;
        keep({
          ended: true,
          span: newSpan(
            run.traceId,
            [sessionId, event.runId, "skill", event.name, String(record.seq)],
            parent.span,
            `skill_activated ${event.name}`,
            SPAN_KIND.internal,
            at,
            {
              "openinference.span.kind": "CHAIN",
              "session.id": sessionId,
              "pseudoclaude.skill.name": event.name,
              "pseudoclaude.skill.source": event.source,
              "pseudoclaude.skill.position": event.position,
              "pseudoclaude.skill.index_tokens": event.indexTokens,
              "pseudoclaude.skill.files": event.resources?.files.length,
              ...(content && event.arguments ? { "input.value": event.arguments } : {}),
            },
          ),
        });
        break;
      }
      case "skill_resource_read": {
        const parent = run.currentTool ?? run.run;
        keep({
          ended: true,
          span: newSpan(
            run.traceId,
            [sessionId, event.runId, "read", event.skill, event.path, String(record.seq)],
            parent.span,
            `skill_resource_read ${event.skill}/${event.path}`,
            SPAN_KIND.internal,
            at,
            {
              "openinference.span.kind": "RETRIEVER",
              "session.id": sessionId,
              "pseudoclaude.skill.name": event.skill,
              "pseudoclaude.skill.file": event.path,
              "pseudoclaude.skill.file.bytes": event.bytes,
              "pseudoclaude.skill.file.tokens": event.tokens,
            },
          ),
        });
        break;
      }
      case "stop": {
        addAttributes(run.run.span, {
          "pseudoclaude.stop.reason": event.reason,
          "pseudoclaude.run.iterations": event.iterations,
          ...(content && event.message ? { "pseudoclaude.stop.message": event.message } : {}),
        });
        run.run.span.status =
          event.reason === "provider_error"
            ? { code: STATUS_CODE.error, message: event.message ?? "provider error" }
            : { code: STATUS_CODE.ok };
        closeRun(run, at, false);
        break;
      }
      default:
        break;
    }
  }
  // A run the log never saw stop (the server was killed) ends at the last record, marked as such.
  for (const run of runs.values()) if (!run.run.ended) closeRun(run, lastAt, true);

  return {
    resourceSpans: [
      {
        resource: {
          attributes: attributes({
            "service.name": "pseudoclaude-playground",
            "service.version": PLAYGROUND_VERSION,
            "session.id": sessionId,
            "pseudoclaude.session.provider": session.header.settings.provider,
            "pseudoclaude.session.model": session.header.settings.model,
            ...(content
              ? {
                  "pseudoclaude.session.title": session.header.title,
                  "pseudoclaude.workdir": session.header.settings.workdir,
                }
              : {}),
          }),
        },
        scopeSpans: [{ scope: { name: OTLP_SCOPE, version: PLAYGROUND_VERSION }, spans }],
      },
    ],
  };
}

/** Ends whatever the run left open at `at` (a request cut by a stop, a tool the run never finished). */
function closeRun(run: RunState, at: string, interrupted: boolean): void {
  for (const open of [...run.requests.values(), ...run.tools.values()]) if (!open.ended) end(open, at);
  if (interrupted) addAttributes(run.run.span, { "pseudoclaude.run.interrupted": true });
  end(run.run, at);
}

function requestContent(snapshot: ResolvedRequest): Record<string, AttributeInput> {
  const { messages } = snapshot;
  return {
    "gen_ai.system_instructions": JSON.stringify([
      { type: "text", content: snapshot.system.stable },
      { type: "text", content: snapshot.system.environment },
    ]),
    "gen_ai.input.messages": JSON.stringify(messages.map(genAiMessage)),
    "input.value": JSON.stringify({ system: snapshot.system, messages }),
    "input.mime_type": "application/json",
    "llm.input_messages.0.message.role": "system",
    "llm.input_messages.0.message.content": `${snapshot.system.stable}\n\n${snapshot.system.environment}`,
    ...shiftedMessages(messages),
  };
}

/** The conversation after the system message: indexes from 1 (0 is the system prompt). */
function shiftedMessages(messages: readonly ChatMessage[]): Record<string, AttributeInput> {
  const flat = flattenedMessages("llm.input_messages", messages);
  const out: Record<string, AttributeInput> = {};
  for (const [key, value] of Object.entries(flat)) {
    out[
      key.replace(
        /^llm\.input_messages\.(\d+)\./,
        (_match, index: string) => `llm.input_messages.${Number(index) + 1}.`,
      )
    ] = value;
  }
  return out;
}

function responseContent(message: ChatMessage & { role: "assistant" }): Record<string, AttributeInput> {
  return {
    "gen_ai.output.messages": JSON.stringify([genAiMessage(message)]),
    "output.value": message.content,
    "output.mime_type": "text/plain",
    ...flattenedMessages("llm.output_messages", [message]),
  };
}
