// Test helpers: drain a provider stream and check the one rule every stream obeys (exactly one terminal
// event, and it is the last one).
import { LOAD_SKILL_TOOL_NAME, type ChatMessage, type ToolDefinition } from "../../protocol/model.ts";
import type { ModelRequest, Provider, ProviderEvent } from "../types.ts";

export async function collectEvents(
  provider: Provider,
  request: ModelRequest,
  signal = new AbortController().signal,
): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of provider.stream(request, signal)) events.push(event);
  const terminals = events.filter((event) => event.type === "done" || event.type === "error");
  if (terminals.length !== 1 || events[events.length - 1] !== terminals[0]) {
    throw new Error(
      `expected exactly one terminal event at the end, got: ${events.map((event) => event.type).join(", ")}`,
    );
  }
  return events;
}

/**
 * Streams like a user who cancels: aborts the signal at the first event of type `abortOn`, then drains
 * what the provider still yields. `elapsedMs` shows whether it ended at once.
 */
export async function collectAbortingOn(
  provider: Provider,
  request: ModelRequest,
  abortOn: ProviderEvent["type"],
): Promise<{ events: ProviderEvent[]; elapsedMs: number }> {
  const controller = new AbortController();
  const started = Date.now();
  const events: ProviderEvent[] = [];
  for await (const event of provider.stream(request, controller.signal)) {
    events.push(event);
    if (event.type === abortOn) controller.abort();
  }
  return { events, elapsedMs: Date.now() - started };
}

export function eventsOfType<T extends ProviderEvent["type"]>(
  events: ProviderEvent[],
  type: T,
): Extract<ProviderEvent, { type: T }>[] {
  return events.filter((event): event is Extract<ProviderEvent, { type: T }> => event.type === type);
}

export function terminalEvent(events: ProviderEvent[]): ProviderEvent {
  return events[events.length - 1];
}

export function textOf(events: ProviderEvent[]): string {
  return eventsOfType(events, "text_delta")
    .map((event) => event.text)
    .join("");
}

export const READ_FILE_TOOL: ToolDefinition = {
  name: "read_file",
  description: "Read a file of the working directory.",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  safety: "read_only",
  category: "read",
  origin: "system",
};

export const LOAD_SKILL_TOOL: ToolDefinition = {
  name: LOAD_SKILL_TOOL_NAME,
  description: "Load a skill's instructions by name.",
  inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  safety: "read_only",
  category: "read",
  origin: "system",
};

export function sampleRequest(
  messages: ChatMessage[] = [{ role: "user", content: "hello" }],
  tools: ToolDefinition[] = [],
): ModelRequest {
  return {
    system: { stable: "STABLE SYSTEM: you are a test agent.", environment: "ENVIRONMENT: cwd=/tmp/x" },
    messages,
    tools,
  };
}
