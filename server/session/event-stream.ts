// A session's ordered event stream: assigns each event its seq, keeps recent events in memory for
// reconnect replay, appends durable ones to the JSONL log, and notifies subscribers. Each event is
// serialized once: the same JSON text goes to the log, to the replay buffer and to every socket, and the
// buffer is bounded in bytes so a long conversation does not grow the server without limit. Request
// snapshots refer to the conversation instead of carrying its messages, everywhere
// (conversation-references.ts); the log also stores repeated prompt parts by reference (log-compaction.ts).
// No configured key ever leaves through here: an event whose JSON may hold one is redacted before it is
// logged, buffered or sent (one regex scan of the JSON text made anyway; no copy of a clean event).
import type { SessionEvent } from "../protocol/wire.ts";
import { mayContainSecret, redactKnownSecrets, type SecretScope } from "../providers/redact.ts";
import { ConversationReferences } from "./conversation-references.ts";
import { SnapshotCompactor } from "./log-compaction.ts";
import { readSessionLog, type SessionLogWriter } from "./session-log.ts";

export interface SequencedEvent {
  seq: number;
  event: SessionEvent;
}

/** An event as stored for replay: its seq and its JSON text. */
export interface SerializedEvent {
  seq: number;
  json: string;
}

export type EventListener = (seq: number, event: SessionEvent, json: string) => void;

/**
 * The event and its JSON text, both free of configured keys and key-shaped strings: the provider keys,
 * and the session's own credentials when it has a SecretScope.
 */
function serializeRedacted(
  event: SessionEvent,
  secrets?: SecretScope,
): { event: SessionEvent; json: string } {
  const json = JSON.stringify(event);
  if (!(secrets ? secrets.mayContain(json) : mayContainSecret(json))) return { event, json };
  const redacted = secrets ? secrets.redact(event) : redactKnownSecrets(event);
  return redacted === event ? { event, json } : { event: redacted, json: JSON.stringify(redacted) };
}

/** Streamed text is re-sent whole in the assistant's history_appended, so deltas are kept in memory only. */
const MEMORY_ONLY = new Set<SessionEvent["type"]>(["text_delta"]);

/** JSON characters of recent events kept in memory per session (1–2 MB); older ones are replayed from the log. */
export const MEMORY_REPLAY_CHARS = 1024 * 1024;

export class EventStream {
  private events: SerializedEvent[] = [];
  private bufferedChars = 0;
  private readonly listeners = new Set<EventListener>();
  private seq: number;
  private readonly compactor = new SnapshotCompactor();
  private readonly conversation = new ConversationReferences();

  /** `restored`: the events read back from the log when a session is reopened (all of them were logged). */
  constructor(
    private readonly writer: SessionLogWriter,
    restored: SequencedEvent[] = [],
    /** The session's secrets (absent: the provider keys only). */
    private readonly secrets?: SecretScope,
  ) {
    for (const { event } of restored) {
      this.compactor.observe(event);
      this.conversation.observe(event);
    }
    this.rememberNewest(restored);
    this.seq = restored.length > 0 ? restored[restored.length - 1].seq : 0;
  }

  /**
   * Buffers the newest restored events that fit, as `remember` one by one would, without serializing
   * the older ones only to evict them again (a long log holds thousands of big snapshots).
   */
  private rememberNewest(restored: SequencedEvent[]): void {
    const newest: SerializedEvent[] = [];
    let chars = 0;
    for (let index = restored.length - 1; index >= 0; index--) {
      const json = serializeRedacted(restored[index].event, this.secrets).json;
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

  private remember(entry: SerializedEvent): void {
    this.events.push(entry);
    this.bufferedChars += entry.json.length;
    let evict = 0;
    while (this.bufferedChars > MEMORY_REPLAY_CHARS && evict < this.events.length - 1) {
      this.bufferedChars -= this.events[evict].json.length;
      evict++;
    }
    if (evict > 0) this.events.splice(0, evict);
  }

  /**
   * Emits one event. `keep`: "log" (default) stores it for replay and in the log; "memory" only for
   * replay in this server process (e.g. problems found while reopening); "none" delivers it live only
   * (e.g. a log-write failure).
   */
  emit(original: SessionEvent, options: { keep?: "log" | "memory" | "none" } = {}): number {
    this.seq += 1;
    const { event, json } = serializeRedacted(this.conversation.toWire(original), this.secrets);
    const keep = options.keep ?? "log";
    if (keep !== "none") {
      this.remember({ seq: this.seq, json });
      if (keep === "log" && !MEMORY_ONLY.has(event.type)) {
        const at = new Date().toISOString();
        const logged = this.compactor.compactJson(event, this.seq) ?? json;
        this.compactor.observe(event);
        this.writer.appendSerialized(`{"kind":"event","seq":${this.seq},"at":"${at}","event":${logged}}`);
      }
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
   * no longer holds (text deltas were never logged, so they are missing there).
   */
  async replay(afterSeq: number): Promise<SerializedEvent[]> {
    const firstBuffered = this.firstBufferedSeq;
    if (afterSeq + 1 >= firstBuffered) return this.after(afterSeq);
    await this.writer.flush({ sync: false });
    const logged = await readSessionLog(this.writer.path);
    const archived = logged.events
      .filter((record) => record.seq > afterSeq && record.seq < firstBuffered)
      .map((record) => ({ seq: record.seq, json: serializeRedacted(record.event, this.secrets).json }));
    return [...archived, ...this.after(afterSeq)];
  }
}
