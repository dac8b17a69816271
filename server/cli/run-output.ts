// What `cli run` prints of its session's event stream: the Runner's events only (the session's own —
// catalog snapshots, settings, trust, MCP state — are the page's business), as JSON lines (`--json`) or
// readable text. The wire form of a request snapshot refers to the conversation (`historyLength`) instead
// of carrying its messages and their segments; `run --json` has always carried them in full, so they are
// put back here from the conversation this client received (the history_appended events and their figures).
import type { ChatMessage } from "../protocol/model.ts";
import type {
  MessageFigures,
  PromptSegment,
  RequestSnapshot,
  RunnerEvent,
} from "../protocol/runner-events.ts";
import type { SessionEvent } from "../protocol/wire.ts";
import { describeEvent } from "./event-text.ts";

/** Every Runner event type (the compiler checks the list against the union both ways). */
const RUNNER_EVENT_TYPES: Record<RunnerEvent["type"], true> = {
  run_started: true,
  request: true,
  provider_payload: true,
  provider_retry: true,
  text_delta: true,
  usage: true,
  assistant_message: true,
  tool_call: true,
  permission_request: true,
  permission_decision: true,
  tool_started: true,
  tool_result: true,
  skill_activated: true,
  tools_registered: true,
  skill_resource_read: true,
  skill_resource_used: true,
  provider_notice: true,
  cache_stats: true,
  history_appended: true,
  stop: true,
};

export function isRunnerEvent(event: SessionEvent): event is RunnerEvent {
  return Object.hasOwn(RUNNER_EVENT_TYPES, event.type);
}

/** The session's conversation as received, to give referenced snapshots their messages back. */
export class ReceivedConversation {
  private readonly messages: ChatMessage[] = [];
  private readonly figures: (MessageFigures | undefined)[] = [];

  observe(event: RunnerEvent): void {
    if (event.type !== "history_appended") return;
    this.messages.push(event.message);
    this.figures.push(event.figures);
  }

  /** The snapshot as the Runner made it: its messages, and their segments after the others, in place. */
  resolve(snapshot: RequestSnapshot): RequestSnapshot {
    if (snapshot.messages || snapshot.historyLength === undefined) return snapshot;
    const messages = this.messages.slice(0, snapshot.historyLength);
    // A long message's figures come with the snapshot instead of with its history_appended.
    const sent = new Map<string, PromptSegment>();
    for (const segment of snapshot.segments ?? [])
      if (segment.kind === "message") sent.set(segment.name, segment);
    const messageSegments = messages.map(
      (_message, index): PromptSegment =>
        sent.get(String(index)) ?? { kind: "message", name: String(index), ...this.figures[index]! },
    );
    const resolved: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(snapshot)) {
      if (key === "historyLength") continue;
      resolved[key] =
        key === "segments"
          ? [
              ...(value as PromptSegment[]).filter((segment) => segment.kind !== "message"),
              ...messageSegments,
            ]
          : value;
      if (key === "stableHash") resolved.messages = messages;
    }
    return resolved as unknown as RequestSnapshot;
  }
}

/** Prints Runner events: one JSON object per line, or text with the model's words as they stream. */
export class RunPrinter {
  private readonly conversation = new ReceivedConversation();
  /** Text mode: the answer streamed so far, and the last one shown (not printed again when it arrives whole). */
  private streaming = "";
  private shown = "";

  constructor(
    private readonly json: boolean,
    private readonly write: (text: string) => void,
  ) {}

  print(received: RunnerEvent): void {
    this.conversation.observe(received);
    const event: RunnerEvent =
      received.type === "request"
        ? { ...received, snapshot: this.conversation.resolve(received.snapshot) }
        : received;
    if (this.json) return this.write(`${JSON.stringify(event)}\n`);
    if (event.type === "text_delta") {
      this.write(this.streaming === "" ? `◆ assistant: ${event.text}` : event.text);
      this.streaming += event.text;
      return;
    }
    if (this.streaming !== "") {
      this.write("\n");
      this.shown = this.streaming;
      this.streaming = "";
    }
    if (
      event.type === "assistant_message" ||
      (event.type === "history_appended" &&
        event.message.role === "assistant" &&
        event.requestIndex !== undefined)
    ) {
      const repeated = event.message.content === this.shown;
      this.shown = "";
      if (repeated) return;
    }
    const text = describeEvent(event);
    if (text !== undefined) this.write(`${text}\n`);
  }
}
