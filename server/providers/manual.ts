// The teaching mode: the person in the browser is the model. Each request waits for them: the provider
// reports an "awaiting input" (the request and a reply hook, types.ts) and the stream waits until the
// reply comes with text and/or tool calls. The answer comes out as the same events any provider emits.
import { randomUUID } from "node:crypto";
import type {
  AwaitingInputListener,
  InputReply,
  InputReplyResult,
  ModelRequest,
  Provider,
  ProviderEvent,
} from "./types.ts";
import { SecretRedactor } from "./redact.ts";

export type ManualResponse = InputReply;
export type ManualRespondResult = InputReplyResult;

export interface ManualProviderOptions {
  /** The composition root's provider keys, kept out of the payload shown; absent: the environment's. */
  secrets?: SecretRedactor;
  /** Called when a request starts waiting for the person (the session notifies the browser). */
  onAwaitingInput?: AwaitingInputListener;
}

interface Waiting {
  request: ModelRequest;
  answer: (response: ManualResponse | undefined) => void;
}

function checkResponse(response: ManualResponse): string | undefined {
  if (typeof response?.text !== "string") return "text must be a string";
  if (!Array.isArray(response.toolCalls)) return "toolCalls must be a list";
  for (const [index, call] of response.toolCalls.entries()) {
    if (!call || typeof call.name !== "string" || call.name.trim() === "")
      return `tool call #${index + 1} has no name`;
  }
  return undefined;
}

export class ManualProvider implements Provider {
  readonly name = "manual";
  readonly model = "manual";
  private readonly onAwaitingInput: AwaitingInputListener | undefined;
  private waiting: Waiting | undefined;
  private turn = 0;

  private readonly secrets: SecretRedactor;

  constructor(options: ManualProviderOptions = {}) {
    this.onAwaitingInput = options.onAwaitingInput;
    this.secrets = options.secrets ?? new SecretRedactor();
  }

  /** The request waiting for the person's answer, if any. */
  pending(): ModelRequest | undefined {
    return this.waiting?.request;
  }

  /** The person's answer to the pending request. */
  respond(response: ManualResponse): ManualRespondResult {
    return this.replyTo(this.waiting?.request, response);
  }

  /** The answer to one request: refused once that request no longer waits (answered, or its run stopped). */
  private replyTo(request: ModelRequest | undefined, response: ManualResponse): ManualRespondResult {
    const waiting = this.waiting;
    if (!waiting || request === undefined || waiting.request !== request)
      return { ok: false, error: "no model turn is waiting for an answer" };
    const problem = checkResponse(response);
    if (problem) return { ok: false, error: `invalid manual response: ${problem}` };
    this.waiting = undefined;
    waiting.answer(response);
    return { ok: true };
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    // The Raw pane shows what the person was given: exactly the provider-neutral request.
    yield { type: "payload", payload: this.secrets.redactSecrets({ provider: "manual", ...request }) };
    if (signal.aborted) {
      yield { type: "done" };
      return;
    }
    if (this.waiting) {
      yield {
        type: "error",
        message: "another manual turn is already waiting for an answer; answer or cancel it first",
      };
      return;
    }
    const response = await new Promise<ManualResponse | undefined>((resolve) => {
      const onAbort = () => {
        if (this.waiting?.request === request) this.waiting = undefined;
        resolve(undefined);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting = {
        request,
        answer: (answer) => {
          signal.removeEventListener("abort", onAbort);
          resolve(answer);
        },
      };
      try {
        this.onAwaitingInput?.({ request, reply: (answer) => this.replyTo(request, answer) });
      } catch (error) {
        // A failing listener must not leave the run hanging unseen: the turn is still pending and
        // answerable through respond(); report it on stderr for the operator.
        console.error(`manual provider: awaiting-input listener failed: ${(error as Error).message}`);
      }
    });
    if (!response || signal.aborted) {
      yield { type: "done" };
      return;
    }
    this.turn++;
    if (response.text) yield { type: "text_delta", text: response.text };
    for (const [index, call] of response.toolCalls.entries()) {
      const id = `manual_${this.turn}_${index + 1}_${randomUUID().slice(0, 8)}`;
      yield { type: "tool_call", call: { id, name: call.name.trim(), input: call.input ?? {} } };
    }
    yield { type: "done" };
  }
}
