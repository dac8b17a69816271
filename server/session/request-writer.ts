// The one place a request in full becomes its content-addressed form (server/protocol/request-model.ts):
// a session's event stream hands every event through a RequestWriter, which replaces a request's
// content (and a provider payload) by references and puts each blob not yet in this stream into the
// event that first needs it. It also follows the conversation (history_appended), so a request whose
// messages are the conversation's first n says `historyLength: n`. The log upgrade uses the same writer,
// so an old log reads exactly as if this version had written it.
import type { ChatMessage } from "../protocol/model.ts";
import type {
  Blob,
  ManualTurnEvent,
  PayloadEvent,
  RequestEvent,
  RequestRef,
  StoredList,
  StoredPayload,
} from "../protocol/request-model.ts";
import type { PromptSegment, RequestSnapshot, RunnerEvent } from "../protocol/runner-events.ts";
import type { SessionEvent } from "../protocol/wire.ts";
import { RequestReader, buildFrame, refFields } from "../protocol/request-model.ts";
import { sha256Hex } from "../prompt/hash.ts";
import { TokenCounter } from "../prompt/segments.ts";

/**
 * A request as a writer accepts it: the Runner's, in full, or one read from an older log, whose messages
 * may be a reference already (`historyLength`) and whose figures may be missing.
 */
export type SnapshotInput = Omit<RequestSnapshot, "messages"> & {
  messages?: ChatMessage[];
  historyLength?: number;
};

/** A manual turn in full, as the session's engines announce it. */
export interface FullManualTurnEvent {
  type: "manual_turn_requested";
  runId: string;
  requestIndex: number;
  snapshot: SnapshotInput;
}

/** What a session's stream is given: its own events, the Runner's, and the manual turn, in full. */
export type StreamInput = SessionEvent | RunnerEvent | FullManualTurnEvent;

/** An event in its wire form and what `commit` records once it is kept in the log. */
export interface Encoded {
  event: SessionEvent;
  commit(): void;
}

export interface WriterOptions {
  /**
   * Hash every content instead of trusting the segments' for blobs already carried (the log upgrade:
   * before format 3 a tool's segment hash was that of the text the model reads, not of the definition).
   */
  recomputeHashes?: boolean;
  /** The token counter of the figures a message is sent with (the session's); absent: the writer's own. */
  tokens?: TokenCounter;
}

type PayloadLists = Map<string, { hash: string; items: string[] }>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function jsonBlob(json: unknown, text = JSON.stringify(json)): Blob {
  return { hash: sha256Hex(text), json };
}

/** The commit of an event that carries no blob and no message (most events: made once, not per event). */
function carriesNothing(): void {}

/** The event types a writer changes; every other event goes out as it is. */
const ENCODED_TYPES = new Set(["request", "manual_turn_requested", "provider_payload", "history_appended"]);

export class RequestWriter {
  /** Whether `encode` may change an event of this type (the others need no call: a stream's hot path). */
  static encodes(type: string): boolean {
    return ENCODED_TYPES.has(type);
  }

  /** Hashes of the blobs this stream has carried. */
  private readonly sent = new Set<string>();
  /** The conversation: each message's hash, and whether its figures went out with it. */
  private readonly conversation: { hash: string; figures: boolean }[] = [];
  /** The last logged payload's lists, by top-level key (their items' JSON), for the next one to extend. */
  private lists: PayloadLists = new Map();

  private readonly tokens: TokenCounter;

  constructor(private readonly options: WriterOptions = {}) {
    this.tokens = options.tokens ?? new TokenCounter();
  }

  /** An event already in wire form (read back from the log): its blobs and messages are known. */
  observe(event: SessionEvent): void {
    if ("blobs" in event && event.blobs) for (const blob of event.blobs) this.sent.add(blob.hash);
    if (event.type === "history_appended")
      this.conversation.push({
        hash: event.figures?.hash ?? this.tokens.messageHash(event.message),
        figures: event.figures !== undefined,
      });
  }

  /** The event in wire form; `commit` marks its blobs as carried (call it when the event is logged). */
  encode(input: StreamInput): Encoded {
    switch (input.type) {
      case "request":
      case "manual_turn_requested":
        if ("frame" in input.snapshot) return this.passThrough(input as SessionEvent);
        return this.encodeRequest(input as (RunnerEvent & { type: "request" }) | FullManualTurnEvent);
      case "provider_payload":
        if ("hash" in input) return this.passThrough(input);
        return this.encodePayload(input);
      case "history_appended":
        return this.encodeMessage(input);
      default:
        return { event: input as SessionEvent, commit: carriesNothing };
    }
  }

  private passThrough(event: SessionEvent): Encoded {
    return { event, commit: () => this.observe(event) };
  }

  private encodeMessage(event: Extract<StreamInput, { type: "history_appended" }>): Encoded {
    // A short message's figures go with it (a slash run's came without); a long one's with its first
    // request. The hash names the message as it is stored: a redacted copy is not the message counted.
    const hash = this.hashOf(event.message);
    const figures = event.figures ?? this.tokens.figuresOnAppend(event.message);
    const wire =
      figures && (figures !== event.figures || figures.hash !== hash)
        ? { ...event, figures: { ...figures, hash } }
        : event;
    return { event: wire, commit: () => this.observe(wire) };
  }

  /** The blobs of `candidates` this stream has not carried, once each. */
  private fresh(candidates: Blob[]): Blob[] {
    const seen = new Set<string>();
    return candidates.filter((blob) => {
      if (this.sent.has(blob.hash) || seen.has(blob.hash)) return false;
      seen.add(blob.hash);
      return true;
    });
  }

  private commitBlobs(blobs: readonly Blob[]): void {
    for (const blob of blobs) this.sent.add(blob.hash);
  }

  /**
   * A blob of `text`. The segment's hash names it when this stream has carried that blob (the common
   * case: no hashing); a blob not carried yet is hashed, so a hash always names its content.
   */
  private textBlob(hash: string | undefined, text: string): Blob {
    if (hash !== undefined && !this.options.recomputeHashes && this.sent.has(hash)) return { hash, text };
    return { hash: sha256Hex(text), text };
  }

  private contentBlob(hash: string | undefined, json: unknown): Blob {
    if (hash !== undefined && !this.options.recomputeHashes && this.sent.has(hash)) return { hash, json };
    return jsonBlob(json);
  }

  private encodeRequest(input: (RunnerEvent & { type: "request" }) | FullManualTurnEvent): Encoded {
    const snapshot: SnapshotInput = input.snapshot;
    const namer = {
      text: (known: string | undefined, text: string) => this.textBlob(known, text),
      json: (known: string | undefined, json: unknown) => this.contentBlob(known, json),
    };
    const { frame: frameBlob, blobs: candidates } = buildFrame(snapshot, namer);
    const { messages, historyLength, segments } = snapshot;
    const messagePart = this.messagePart(messages, historyLength, segments, candidates);
    candidates.push(frameBlob);
    const { own, blobs: cacheBlobs } = refFields(snapshot, namer);
    candidates.push(...cacheBlobs);
    const ref: RequestRef = { ...own, frame: frameBlob.hash, ...messagePart };
    const blobs = this.fresh(candidates);
    const event = {
      ...input,
      snapshot: ref,
      ...(blobs.length > 0 ? { blobs } : {}),
    } as RequestEvent | ManualTurnEvent;
    return { event, commit: () => this.commitBlobs(blobs) };
  }

  /** `historyLength` when the messages are the conversation's first n; else each message by its blob. */
  private messagePart(
    messages: readonly ChatMessage[] | undefined,
    historyLength: number | undefined,
    segments: readonly PromptSegment[] | undefined,
    candidates: Blob[],
  ): Pick<RequestRef, "historyLength" | "messageSegments"> {
    const messageFigures = (segments ?? []).filter((segment) => segment.kind === "message");
    const byIndex = new Map(messageFigures.map((segment) => [segment.name, segment]));
    const count = messages ? messages.length : historyLength;
    const isPrefix =
      count !== undefined &&
      count <= this.conversation.length &&
      (!messages ||
        messages.every((message, index) => this.hashOf(message) === this.conversation[index].hash));
    if (isPrefix) {
      // Only the figures the conversation does not carry (a long message's) stay with the request.
      const missing = messageFigures.filter((segment) => {
        const index = Number(segment.name);
        return index < count && !this.conversation[index]?.figures;
      });
      return { historyLength: count, ...(missing.length > 0 ? { messageSegments: missing } : {}) };
    }
    const own = (messages ?? []).map((message, index) => {
      const blob = this.contentBlob(byIndex.get(String(index))?.hash, message);
      candidates.push(blob);
      const known = byIndex.get(String(index));
      return known
        ? { ...known, hash: blob.hash }
        : { kind: "message" as const, name: String(index), hash: blob.hash };
    });
    return { messageSegments: own };
  }

  private hashOf(message: ChatMessage): string {
    return this.options.recomputeHashes
      ? sha256Hex(JSON.stringify(message))
      : this.tokens.messageHash(message);
  }

  /**
   * A payload as a StoredPayload: each top-level array becomes a list that extends the previous payload's
   * list of the same key when it starts with it (a conversation grows at its end).
   */
  private encodePayload(input: Extract<RunnerEvent, { type: "provider_payload" }>): Encoded {
    const { payload, ...rest } = input;
    const candidates: Blob[] = [];
    const nextLists: PayloadLists = new Map();
    let stored: StoredPayload = { value: payload };
    if (isObject(payload)) {
      const value: Record<string, unknown> = {};
      const lists: Record<string, string> = {};
      for (const [key, item] of Object.entries(payload)) {
        if (!Array.isArray(item)) {
          value[key] = item;
          continue;
        }
        value[key] = null;
        const items = item.map((element) => JSON.stringify(element) ?? "null");
        const previous = this.lists.get(key);
        const extends_ =
          previous !== undefined &&
          previous.items.length <= items.length &&
          previous.items.every((text, index) => text === items[index]);
        let hash: string;
        if (extends_ && previous.items.length === items.length) hash = previous.hash;
        else {
          const list: StoredList = extends_
            ? { after: previous.hash, items: item.slice(previous.items.length) }
            : { items: item };
          const blob = jsonBlob(list);
          candidates.push(blob);
          hash = blob.hash;
        }
        lists[key] = hash;
        nextLists.set(key, { hash, items });
      }
      stored = Object.keys(lists).length > 0 ? { value, lists } : { value };
    }
    const payloadBlob = jsonBlob(stored);
    candidates.push(payloadBlob);
    const blobs = this.fresh(candidates);
    const event: PayloadEvent = { ...rest, hash: payloadBlob.hash, ...(blobs.length > 0 ? { blobs } : {}) };
    return {
      event,
      commit: () => {
        this.commitBlobs(blobs);
        this.lists = nextLists;
      },
    };
  }
}

/**
 * The events written again after `change` edited their content (an export's redaction): each request and
 * payload is resolved in full, changed, and written by a fresh writer, so every hash names the bytes
 * stored after the change. `change` returns its input when it changes nothing.
 */
export function rewriteEvents<R extends { event: SessionEvent }>(
  records: readonly R[],
  change: (event: StreamInput) => StreamInput,
): R[] {
  const reader = new RequestReader();
  const writer = new RequestWriter({ recomputeHashes: true });
  return records.map((record) => {
    const event = record.event;
    reader.observe(event);
    let full: StreamInput = event;
    if (event.type === "manual_turn_requested") {
      const { blobs: _blobs, ...rest } = event;
      full = { ...rest, snapshot: reader.resolve(event.snapshot) };
    } else if (event.type === "request" || event.type === "provider_payload")
      full = reader.runnerEvent(event);
    // A changed message is named by its new content (encode does it), so requests still find it.
    const encoded = writer.encode(change(full));
    encoded.commit();
    return { ...record, event: encoded.event };
  });
}
