// The session's conversation as its event stream records it (its history_appended events), and the wire form
// of request snapshots: a snapshot whose messages are the conversation's first n messages says
// `historyLength: n` instead of carrying them (and their segments), on the WebSocket and in the log.
// An isolated slash run's private history is not a prefix of it, so its snapshots keep their messages.
// A message's segment is left out too when its figures went out with its history_appended.
import type { MessageFigures, RequestSnapshot } from "../protocol/runner-events.ts";
import type { SessionEvent } from "../protocol/wire.ts";
import { figuresOnAppend, messageHash } from "../prompt/segments.ts";

export class ConversationReferences {
  /** Content hash of each message of the conversation, in order. */
  private readonly hashes: string[] = [];
  /** Whether each message's figures went out with its history_appended (a long one's did not). */
  private readonly figuresSent: boolean[] = [];

  /** An event read back from the log (already in wire form): only the conversation is tracked. */
  observe(event: SessionEvent): void {
    if (event.type !== "history_appended") return;
    this.hashes.push(event.figures?.hash ?? messageHash(event.message));
    this.figuresSent.push(event.figures !== undefined);
  }

  /**
   * The event as the session streams it: history_appended with figures (added when a short message
   * came without: a slash run's), snapshots by reference.
   */
  toWire(event: SessionEvent): SessionEvent {
    if (event.type === "history_appended") {
      const figures: MessageFigures | undefined = event.figures ?? figuresOnAppend(event.message);
      this.hashes.push(figures?.hash ?? messageHash(event.message));
      this.figuresSent.push(figures !== undefined);
      return event.figures || !figures ? event : { ...event, figures };
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
      if (messageHash(messages[index]) !== this.hashes[index]) return snapshot;
    }
    const { messages: _left, ...rest } = snapshot;
    return {
      ...rest,
      historyLength: messages.length,
      // A message's segment stays only when its figures did not go out with it (a long message).
      ...(snapshot.segments
        ? {
            segments: snapshot.segments.filter(
              (segment) => segment.kind !== "message" || !this.figuresSent[Number(segment.name)],
            ),
          }
        : {}),
    };
  }
}
