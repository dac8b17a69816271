// A session's ordered event stream: assigns each event its seq, keeps recent events in memory for
// reconnect replay, appends durable ones to the JSONL log, and notifies subscribers. Each event is
// serialized once: the same JSON text goes to the log, to the replay buffer and to every socket, and the
// buffer is bounded in bytes so a long conversation does not grow the server without limit. Requests and
// provider payloads go out by reference, each blob once (request-writer.ts, log format 3); a streamed
// answer's text deltas leave the replay buffer once its message is appended (that message holds the text).
// No configured key ever leaves through here: an event whose JSON may hold one is redacted before it is
// logged, buffered or sent (one regex scan of the JSON text made anyway; no copy of a clean event), and
// before its blobs are hashed, so a hash always names the bytes stored.
import type { SessionEvent } from "../protocol/wire.ts";
import { SecretRedactor, SecretScope } from "../providers/redact.ts";
import type { TokenCounter } from "../prompt/segments.ts";
import { RequestWriter, type Encoded, type StreamInput } from "./request-writer.ts";
import { readSessionLog, type SessionLogWriter } from "./session-log.ts";

export interface SequencedEvent {
  seq: number;
  event: SessionEvent;
  /**
   * `JSON.stringify(event)`, when whoever read the event made it already (a reopen tests each logged
   * event's text for keys): the stream reuses it instead of serializing the event again.
   */
  json?: string;
}

/** An event as stored for replay: its seq and its JSON text. */
export interface SerializedEvent {
  seq: number;
  json: string;
}

export type EventListener = (seq: number, event: SessionEvent, json: string) => void;

/** Whether `json` may hold a key: the provider keys and the session's own credentials. */
function mayHoldSecret(json: string, secrets: SecretScope): boolean {
  return secrets.mayContain(json);
}

function redact<T>(value: T, secrets: SecretScope): T {
  return secrets.redact(value);
}

/** The event and its JSON text, both free of configured keys and key-shaped strings. */
function serializeRedacted(
  event: SessionEvent,
  secrets: SecretScope,
  serialized?: string,
): { event: SessionEvent; json: string; commit?: undefined } {
  const json = serialized ?? JSON.stringify(event);
  if (!mayHoldSecret(json, secrets)) return { event, json };
  const redacted = redact(event, secrets);
  return redacted === event ? { event, json } : { event: redacted, json: JSON.stringify(redacted) };
}

/**
 * A buffered event; a text delta names its request, so the appended answer can replace it, and an event
 * kept in memory only (not in the log) says so, so it outlives the buffer.
 */
interface BufferedEvent extends SerializedEvent {
  answer?: string;
  memoryOnly?: true;
}

/** JSON characters of memory-only events kept once they left the buffer (problems found on reopen, …). */
const KEPT_MEMORY_ONLY_CHARS = 64 * 1024;

/** Streamed text is re-sent whole in the assistant's history_appended, so deltas are kept in memory only. */
const MEMORY_ONLY = new Set<SessionEvent["type"]>(["text_delta"]);

/** JSON characters of recent events kept in memory per session (1–2 MB); older ones are replayed from the log. */
export const MEMORY_REPLAY_CHARS = 1024 * 1024;

export class EventStream {
  private events: BufferedEvent[] = [];
  private bufferedChars = 0;
  /** Memory-only events older than the buffer (the log does not have them), oldest first, bounded. */
  private kept: BufferedEvent[] = [];
  private keptChars = 0;
  /** Text deltas in the buffer, by the request whose answer they stream. */
  private readonly bufferedDeltas = new Map<string, number>();
  private readonly listeners = new Set<EventListener>();
  private seq: number;
  private readonly requests: RequestWriter;

  /** `restored`: the events read back from the log when a session is reopened (all of them were logged). */
  constructor(
    private readonly writer: SessionLogWriter,
    restored: SequencedEvent[] = [],
    /** The session's secrets (absent: a scope of the stream's own, the environment's key variables). */
    private readonly secrets: SecretScope = new SecretScope(new SecretRedactor()),
    /** The session's token counter (a message's figures); absent: the stream's own. */
    tokens?: TokenCounter,
  ) {
    this.requests = new RequestWriter(tokens ? { tokens } : {});
    this.unobserved = restored;
    this.rememberNewest(restored);
    if (restored.length > 0 && restored[0].seq < this.firstBufferedSeqAfter(restored))
      this.restored = restored;
    this.seq = restored.length > 0 ? restored[restored.length - 1].seq : 0;
  }

  /**
   * The events read back from the log when the session was reopened, held for the first replay only
   * (the reopen that read them is nearly always followed by a replay of all of them to the tab that asked):
   * that replay is served from here instead of reading, checking and upgrading the whole log a second
   * time. Dropped by that replay and by releaseMemory, so a session keeps them only while it is opened.
   */
  private restored: SequencedEvent[] | undefined;

  /** The oldest restored seq the buffer holds after rememberNewest (lastSeq + 1 when none). */
  private firstBufferedSeqAfter(restored: SequencedEvent[]): number {
    return this.events[0]?.seq ?? restored[restored.length - 1].seq + 1;
  }

  /**
   * Buffers the newest restored events that fit, as `remember` one by one would, without serializing
   * the older ones only to evict them again (a long log holds thousands of big snapshots).
   */
  private rememberNewest(restored: SequencedEvent[]): void {
    const newest: SerializedEvent[] = [];
    let chars = 0;
    for (let index = restored.length - 1; index >= 0; index--) {
      const { event, json: serialized } = restored[index];
      const json = serializeRedacted(event, this.secrets, serialized).json;
      if (newest.length > 0 && chars + json.length > MEMORY_REPLAY_CHARS) break;
      newest.push({ seq: restored[index].seq, json });
      chars += json.length;
    }
    for (const entry of newest.reverse()) this.remember(entry);
  }

  get lastSeq(): number {
    return this.seq;
  }

  /** The oldest seq still in memory (lastSeq + 1 when the buffer is empty). */
  get firstBufferedSeq(): number {
    return this.events[0]?.seq ?? this.seq + 1;
  }

  private remember(entry: BufferedEvent): void {
    this.events.push(entry);
    this.bufferedChars += entry.json.length;
    if (entry.answer) this.bufferedDeltas.set(entry.answer, (this.bufferedDeltas.get(entry.answer) ?? 0) + 1);
    let evict = 0;
    while (this.bufferedChars > MEMORY_REPLAY_CHARS && evict < this.events.length - 1) {
      this.forget(this.events[evict]);
      evict++;
    }
    if (evict > 0) this.events.splice(0, evict);
  }

  /** A memory-only event leaves the buffer but not the replay (while the bound allows). */
  private keep(entry: BufferedEvent): void {
    this.kept.push(entry);
    this.keptChars += entry.json.length;
    while (this.keptChars > KEPT_MEMORY_ONLY_CHARS && this.kept.length > 1)
      this.keptChars -= this.kept.shift()!.json.length;
  }

  /**
   * Lets go of the replay buffer (a session nobody watches and nothing runs in): a later replay reads
   * the log, and the events only memory had are kept.
   */
  releaseMemory(): void {
    for (const entry of this.events) if (entry.memoryOnly) this.keep(entry);
    this.events = [];
    this.bufferedChars = 0;
    this.bufferedDeltas.clear();
    this.restored = undefined;
  }

  private forget(entry: BufferedEvent): void {
    this.bufferedChars -= entry.json.length;
    if (entry.memoryOnly) this.keep(entry);
    if (!entry.answer) return;
    const left = (this.bufferedDeltas.get(entry.answer) ?? 1) - 1;
    if (left > 0) this.bufferedDeltas.set(entry.answer, left);
    else this.bufferedDeltas.delete(entry.answer);
  }

  /** The key of the answer a delta streams (the last one kept: a stream's deltas share it). */
  private lastAnswer: { runId: string; requestIndex: number; key: string } | undefined;

  private answerKey(runId: string, requestIndex: number): string {
    const last = this.lastAnswer;
    if (last?.runId === runId && last.requestIndex === requestIndex) return last.key;
    this.lastAnswer = { runId, requestIndex, key: `${runId}#${requestIndex}` };
    return this.lastAnswer.key;
  }

  /** An answer's message was appended: its deltas are no longer needed by a replay (nor in the log). */
  private dropDeltas(answer: string): void {
    if (!this.bufferedDeltas.has(answer)) return;
    this.events = this.events.filter((entry) => {
      if (entry.answer !== answer) return true;
      this.forget(entry);
      return false;
    });
  }

  /**
   * The restored events the writer has not been shown yet: only an event it encodes needs them (the blobs
   * and messages already carried), so a reopen's replay does not wait for them.
   */
  private unobserved: readonly SequencedEvent[];

  /**
   * Shows the writer the restored events it has not seen: before the first event it encodes, or when the
   * session restores the rest in the background (so a session that never encodes one lets them go).
   */
  observeRestored(): void {
    if (this.unobserved.length === 0) return;
    for (const { event } of this.unobserved) this.requests.observe(event);
    this.unobserved = [];
  }

  /** The event in wire form and its JSON text, redacted (before its blobs are made, when it must be). */
  private encode(input: StreamInput): Encoded & { json: string } {
    this.observeRestored();
    const encoded = this.requests.encode(input);
    const json = JSON.stringify(encoded.event);
    if (!mayHoldSecret(json, this.secrets)) return { ...encoded, json };
    const redacted = redact(input, this.secrets);
    if (redacted === input) return { ...encoded, json };
    const again = this.requests.encode(redacted);
    return { ...again, json: JSON.stringify(again.event) };
  }

  /**
   * Emits one event (a Runner event in full is sent by reference). `keep`: "log" (default) stores it for
   * replay and in the log; "memory" only for replay in this server process (e.g. problems found while
   * reopening); "none" delivers it live only (e.g. a log-write failure).
   */
  emit(input: StreamInput, options: { keep?: "log" | "memory" | "none" } = {}): number {
    this.seq += 1;
    // Most events (every text delta) are not the writer's: serialized and redacted as they are.
    const { event, json, commit } = RequestWriter.encodes(input.type)
      ? this.encode(input)
      : serializeRedacted(input as SessionEvent, this.secrets);
    const keep = options.keep ?? "log";
    const logged = keep === "log" && !MEMORY_ONLY.has(event.type);
    // Only a logged event's blobs count as carried: a reader of the log must find them.
    if (logged) commit?.();
    if (keep !== "none") {
      const answer =
        event.type === "text_delta" ? this.answerKey(event.runId, event.requestIndex) : undefined;
      this.remember(
        answer
          ? { seq: this.seq, json, answer }
          : keep === "memory"
            ? { seq: this.seq, json, memoryOnly: true }
            : { seq: this.seq, json },
      );
      if (logged) {
        const at = new Date().toISOString();
        this.writer.appendSerialized(`{"kind":"event","seq":${this.seq},"at":"${at}","event":${json}}`);
      }
      if (event.type === "history_appended" && event.requestIndex !== undefined)
        this.dropDeltas(this.answerKey(event.runId, event.requestIndex));
    }
    for (const listener of this.listeners) listener(this.seq, event, json);
    return this.seq;
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  /** Events with seq > afterSeq that are still in memory. */
  after(afterSeq: number): SerializedEvent[] {
    const first = this.events.findIndex((entry) => entry.seq > afterSeq);
    return first === -1 ? [] : this.events.slice(first);
  }

  /**
   * Stored events with seq > afterSeq: from memory, and from the log for older ones the bounded buffer
   * no longer holds (text deltas were never logged, so they are missing there; memory-only events that
   * left the buffer come from where they were kept).
   */
  private async readLogged(): Promise<SequencedEvent[]> {
    await this.writer.flush({ sync: false });
    return (await readSessionLog(this.writer.path)).events;
  }

  async replay(afterSeq: number): Promise<SerializedEvent[]> {
    const restored = this.restored;
    this.restored = undefined;
    const firstBuffered = this.firstBufferedSeq;
    if (afterSeq + 1 >= firstBuffered) return this.after(afterSeq);
    // The restored events serve when they reach the buffer (no event left it since the reopen unread).
    const newestRestored = restored?.[restored.length - 1].seq ?? -1;
    const older = restored && newestRestored + 1 >= firstBuffered ? restored : await this.readLogged();
    const archived: SerializedEvent[] = older
      .filter((record) => record.seq > afterSeq && record.seq < firstBuffered)
      .map((record) => ({
        seq: record.seq,
        json: serializeRedacted(record.event, this.secrets, record.json).json,
      }));
    const kept = this.kept
      .filter((entry) => entry.seq > afterSeq && entry.seq < firstBuffered)
      .map(({ seq, json }) => ({ seq, json }));
    const merged = [...archived, ...kept].sort((left, right) => left.seq - right.seq);
    return [...merged, ...this.after(afterSeq)];
  }
}
