// What `cli run` prints of its session's event stream: the Runner's events only (the session's own —
// catalog snapshots, settings, trust, MCP state — are the page's business), as JSON lines (`--json`) or
// readable text. The wire carries a request and a provider payload by reference to content-addressed
// blobs (server/protocol/request-model.ts); `run --json` has always carried them in full, so they are
// resolved here from the blobs and the conversation this client received, as the Runner emitted them.
import { RequestReader, type WireRunnerEvent } from "../protocol/request-model.ts";
import type { RunnerEvent } from "../protocol/runner-events.ts";
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

export function isRunnerEvent(event: SessionEvent): event is WireRunnerEvent {
  return Object.hasOwn(RUNNER_EVENT_TYPES, event.type);
}

/** Prints Runner events: one JSON object per line, or text with the model's words as they stream. */
export class RunPrinter {
  /** The blobs and the conversation received so far, which requests and payloads refer to. */
  private readonly requests = new RequestReader();
  /** Text mode: the answer streamed so far, and the last one shown (not printed again when it arrives whole). */
  private streaming = "";
  private shown = "";

  constructor(
    private readonly json: boolean,
    private readonly write: (text: string) => void,
  ) {}

  print(received: WireRunnerEvent): void {
    this.requests.observe(received);
    const event: RunnerEvent = this.requests.runnerEvent(received);
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
