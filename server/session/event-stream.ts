// A session's ordered event stream: assigns each event its seq, keeps recent events in memory for
// reconnect replay, appends durable ones to the JSONL log, and notifies subscribers.
import type { SessionEvent } from "../protocol/wire.ts";
import type { SessionLogWriter } from "./session-log.ts";

export interface SequencedEvent {
  seq: number;
  event: SessionEvent;
}

export type EventListener = (seq: number, event: SessionEvent) => void;

/** Streamed text is re-sent whole in assistant_message, so deltas are kept in memory only. */
const MEMORY_ONLY = new Set<SessionEvent["type"]>(["text_delta"]);

/** Events kept in memory per session for replay; a client further behind reopens from the snapshot. */
export const MEMORY_EVENT_LIMIT = 20_000;

export class EventStream {
  private events: SequencedEvent[] = [];
  private readonly listeners = new Set<EventListener>();
  private seq: number;

  constructor(
    private readonly writer: SessionLogWriter,
    restored: SequencedEvent[] = [],
  ) {
    this.events = restored.slice(-MEMORY_EVENT_LIMIT);
    this.seq = restored.length > 0 ? restored[restored.length - 1].seq : 0;
  }

  get lastSeq(): number {
    return this.seq;
  }

  /** Emits one event. `durable: false` delivers it live without storing it (e.g. a log-write failure). */
  emit(event: SessionEvent, options: { durable?: boolean } = {}): number {
    this.seq += 1;
    const entry = { seq: this.seq, event };
    if (options.durable !== false) {
      this.events.push(entry);
      if (this.events.length > MEMORY_EVENT_LIMIT)
        this.events.splice(0, this.events.length - MEMORY_EVENT_LIMIT);
      if (!MEMORY_ONLY.has(event.type)) {
        this.writer.append({ kind: "event", seq: this.seq, at: new Date().toISOString(), event });
      }
    }
    for (const listener of this.listeners) listener(this.seq, event);
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
  after(afterSeq: number): SequencedEvent[] {
    const first = this.events.findIndex((entry) => entry.seq > afterSeq);
    return first === -1 ? [] : this.events.slice(first);
  }
}
