// The session's conversation as its event stream records it (its history_appended events), and the wire form
// of request snapshots: a snapshot whose messages are the conversation's first n messages says
// `historyLength: n` instead of carrying them (and their segments), on the WebSocket and in the log.
// An isolated slash run's private history is not a prefix of it, so its snapshots keep their messages.
import type { MessageFigures, RequestSnapshot } from "../protocol/runner-events.ts";
import type { SessionEvent } from "../protocol/wire.ts";
import { messageFigures } from "../prompt/segments.ts";

export class ConversationReferences {
  /** Content hash of each message of the conversation, in order. */
  private readonly hashes: string[] = [];

  /** An event read back from the log (already in wire form): only the conversation is tracked. */
  observe(event: SessionEvent): void {
    if (event.type === "history_appended")
      this.hashes.push((event.figures ?? messageFigures(event.message)).hash);
  }

  /** The event as the session streams it: history_appended with figures, snapshots by reference. */
  toWire(event: SessionEvent): SessionEvent {
    if (event.type === "history_appended") {
      const figures: MessageFigures = event.figures ?? messageFigures(event.message);
      this.hashes.push(figures.hash);
      return event.figures ? event : { ...event, figures };
    }
    if (event.type === "request" || event.type === "manual_turn_requested") {
      const snapshot = this.referenced(event.snapshot);
      return snapshot === event.snapshot ? event : { ...event, snapshot };
    }
    return event;
  }

  /** The snapshot with its messages replaced by `historyLength` when they are a prefix of the conversation. */
  referenced(snapshot: RequestSnapshot): RequestSnapshot {
    const messages = snapshot.messages;
    if (!messages || messages.length > this.hashes.length) return snapshot;
    for (let index = 0; index < messages.length; index++) {
      if (messageFigures(messages[index]).hash !== this.hashes[index]) return snapshot;
    }
    const { messages: _left, ...rest } = snapshot;
    return {
      ...rest,
      historyLength: messages.length,
      ...(snapshot.segments
        ? { segments: snapshot.segments.filter((segment) => segment.kind !== "message") }
        : {}),
    };
  }
}
