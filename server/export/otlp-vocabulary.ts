// What each span of a session's trace says, in the two vocabularies the OTLP tools read: the OpenTelemetry
// GenAI semantic conventions (`gen_ai.*`) and OpenInference (`openinference.span.kind`, `llm.*`, `tool.*`,
// `session.id`), plus the playground's own facts under `pseudoclaude.*`. otlp-trace.ts decides which spans
// exist and how they nest; this module only maps one logged event to its attributes, so a new key or a
// renamed convention changes here and nowhere else.
//
// Content (prompt and completion text, tool arguments and results, the user's words, the workdir) is added
// only when the caller passes `content: true` (the export's `includeContent`).
import type { ChatMessage, Usage } from "../protocol/model.ts";
import type { PermissionTrace } from "../protocol/permission.ts";
import type { ResolvedRequest } from "../protocol/request-model.ts";
import type { SessionEvent } from "../protocol/wire.ts";
import type { LogHeader } from "../session/session-log.ts";
import { STATUS_CODE, type AttributeInput } from "./otlp-json.ts";

export type Attributes = Record<string, AttributeInput>;
type EventOf<T extends SessionEvent["type"]> = Extract<SessionEvent, { type: T }>;

export const AGENT_NAME = "PseudoClaude Playground";

/** The agent span of one run. */
export function runAttributes(
  event: EventOf<"run_started">,
  sessionId: string,
  content: boolean,
): Attributes {
  return {
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
  };
}

/** The client span of one model request, as it was sent. */
export function requestAttributes(
  snapshot: ResolvedRequest,
  sessionId: string,
  content: boolean,
): Attributes {
  return {
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
  };
}

/** A retry of a model request (an event on its span). */
export function retryAttributes(event: EventOf<"provider_retry">): Attributes {
  return {
    "pseudoclaude.retry.attempt": event.attempt,
    "pseudoclaude.retry.delay_ms": event.delayMs,
    "pseudoclaude.retry.reason": event.reason,
  };
}

/** What the provider reported for a request: tokens (cache reads and writes apart) and the cost they make. */
export function usageAttributes(
  request: { provider: string; snapshot: ResolvedRequest },
  usage: Usage,
): Attributes {
  const input = totalInput(request.provider, usage);
  const cost = reportedCost(request, usage);
  return {
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
  };
}

/** The model's answer to a request: why it finished, which tools it called, and (content) what it said. */
export function responseAttributes(
  snapshot: ResolvedRequest,
  message: ChatMessage & { role: "assistant" },
  content: boolean,
): Attributes {
  const calls = message.toolCalls;
  return {
    "gen_ai.response.model": snapshot.model,
    "gen_ai.response.finish_reasons": [calls.length > 0 ? "tool_calls" : "stop"],
    "pseudoclaude.response.tool_calls": calls.map((call) => call.name),
    ...(content ? responseContent(message) : {}),
  };
}

/** The span of one tool call, as the model asked for it. */
export function toolCallAttributes(
  event: EventOf<"tool_call">,
  sessionId: string,
  content: boolean,
): Attributes {
  const { call } = event;
  return {
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
  };
}

/** A permission question or decision, as an event on the tool's span. */
export function permissionEventAttributes(trace: PermissionTrace): Attributes {
  return {
    "pseudoclaude.permission.decision": trace.decision,
    "pseudoclaude.permission.source": trace.source,
    "pseudoclaude.permission.reason": trace.reason,
  };
}

/** The decision that let a tool call run or not, on the tool's span. */
export function permissionDecisionAttributes(event: EventOf<"permission_decision">): Attributes {
  const { trace, answer } = event;
  return {
    "pseudoclaude.permission.decision": trace.decision,
    "pseudoclaude.permission.source": trace.source,
    "pseudoclaude.permission.rule": trace.rule,
    "pseudoclaude.permission.answer": answer?.kind,
    "pseudoclaude.permission.pre_approved_by": trace.preApprovedBy,
  };
}

/** How a tool call ended, and (content) what it returned. */
export function toolResultAttributes(event: EventOf<"tool_result">, content: boolean): Attributes {
  const { result } = event;
  return {
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
  };
}

/** A skill's SOP entering the conversation (a zero-length span under the call that caused it). */
export function skillActivatedAttributes(
  event: EventOf<"skill_activated">,
  sessionId: string,
  content: boolean,
): Attributes {
  return {
    "openinference.span.kind": "CHAIN",
    "session.id": sessionId,
    "pseudoclaude.skill.name": event.name,
    "pseudoclaude.skill.source": event.source,
    "pseudoclaude.skill.position": event.position,
    "pseudoclaude.skill.index_tokens": event.indexTokens,
    "pseudoclaude.skill.files": event.resources?.files.length,
    ...(content && event.arguments ? { "input.value": event.arguments } : {}),
  };
}

/** A level-3 read of one skill file (a zero-length span under the call that read it). */
export function resourceReadAttributes(event: EventOf<"skill_resource_read">, sessionId: string): Attributes {
  return {
    "openinference.span.kind": "RETRIEVER",
    "session.id": sessionId,
    "pseudoclaude.skill.name": event.skill,
    "pseudoclaude.skill.file": event.path,
    "pseudoclaude.skill.file.bytes": event.bytes,
    "pseudoclaude.skill.file.tokens": event.tokens,
  };
}

/** Why a run stopped, on the agent span, and the span status that goes with it. */
export function stopAttributes(event: EventOf<"stop">, content: boolean) {
  return {
    attributes: {
      "pseudoclaude.stop.reason": event.reason,
      "pseudoclaude.run.iterations": event.iterations,
      ...(content && event.message ? { "pseudoclaude.stop.message": event.message } : {}),
    } satisfies Attributes,
    status:
      event.reason === "provider_error"
        ? { code: STATUS_CODE.error, message: event.message ?? "provider error" }
        : { code: STATUS_CODE.ok },
  };
}

/** The resource every span of the export shares: the playground, the session, its provider and model. */
export function resourceAttributes(header: LogHeader, version: string, content: boolean): Attributes {
  return {
    "service.name": "pseudoclaude-playground",
    "service.version": version,
    "session.id": header.id,
    "pseudoclaude.session.provider": header.settings.provider,
    "pseudoclaude.session.model": header.settings.model,
    ...(content
      ? { "pseudoclaude.session.title": header.title, "pseudoclaude.workdir": header.settings.workdir }
      : {}),
  };
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
