// A session's request content as the page keeps it: the blobs the server sent (each once, by its sha256)
// and the conversation (history_appended messages with their figures). Requests stay references
// (RequestView.snapshot, a RequestRef) and are resolved by the selectors in ./snapshot-view.ts with the
// server's own resolver (server/protocol/request-model.ts), only when a pane shows them.
//
// Both parts only grow, and never change what they already hold (a hash names one content; message n is
// message n), so one store is shared by every state of a session's view: the reducer adds to it and stays
// pure in what it returns. Adding is idempotent (a message by its seq), so a reducer run twice for the same
// event (React's strict mode) adds nothing twice.
import type {
  Blob,
  ChatMessage,
  ConversationView,
  MessageFigures,
  PromptSegment,
  RequestRef,
  ResolvedRequest,
} from "../../server/protocol/index.ts";
import {
  BlobStore,
  conversationSegment,
  resolvePayload,
  resolveRequest,
} from "../../server/protocol/request-model.ts";

export class RequestStore {
  readonly blobs = new BlobStore();
  private readonly history: ChatMessage[] = [];
  private readonly segments: (PromptSegment | undefined)[] = [];
  /** The seq of the last message added (0: none yet). */
  private seq = 0;
  private readonly resolved = new WeakMap<RequestRef, ResolvedRequest>();
  private readonly payloads = new Map<string, unknown>();

  addBlobs(blobs: readonly Blob[] | undefined): void {
    this.blobs.add(blobs);
  }

  /** Adds a message appended at `seq`; false when the store has it already (a replay of what it knows). */
  append(seq: number, message: ChatMessage, figures?: MessageFigures): boolean {
    if (seq <= this.seq) return false;
    this.seq = seq;
    this.segments.push(conversationSegment(this.history.length, figures));
    this.history.push(message);
    return true;
  }

  /** The conversation of a session_opened snapshot: every message up to its seq. */
  appendAll(
    seq: number,
    history: readonly ChatMessage[],
    figures: readonly (MessageFigures | undefined)[] = [],
  ) {
    if (seq <= this.seq) return;
    for (const [index, message] of history.entries()) {
      this.segments.push(conversationSegment(this.history.length, figures[index]));
      this.history.push(message);
    }
    this.seq = seq;
  }

  get conversation(): ConversationView {
    return { history: this.history, segments: this.segments };
  }

  /** A request in full (made once per reference: a new "cache as" prediction is a new reference). */
  resolve(ref: RequestRef): ResolvedRequest {
    let known = this.resolved.get(ref);
    if (!known) {
      known = resolveRequest(ref, this.blobs, this.conversation);
      this.resolved.set(ref, known);
    }
    return known;
  }

  payload(hash: string): unknown {
    if (!this.payloads.has(hash)) this.payloads.set(hash, resolvePayload(hash, this.blobs));
    return this.payloads.get(hash);
  }
}
