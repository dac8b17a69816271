// One request model, content-addressed: the shape of a model request on the WebSocket, in the session
// log (format 3), in the JSONL and HTML exports and in the pages, and the one resolver that reads it.
//
// DESIGN NOTE (log format 3)
//
// The Runner builds each request in full (RequestSnapshot in runner-events.ts: the system texts, the tool
// definitions, the messages, and the segments that name every part by kind, name, sha256 and tokens), and
// `cli run --json` prints that event as it is. Everywhere else a request is a RequestRef: its segments by
// hash, and each distinct text or JSON value (a system block, an environment section — the base or a
// skill's —, a tool definition, an isolated run's message, a provider payload) travels once, as a Blob
// inside the first event that refers to it, and is referred to by its hash afterwards. One resolver
// (`resolveRequest` below, pure, shared by the server and the pages) gives the full snapshot back.
//
//   Blob                 {hash, text} | {hash, json}. hash = sha256 hex of `text`, or of
//                        JSON.stringify(json). Text: the stable system, an environment section. JSON: a
//                        tool definition, a message, a frame and its prefix, a StoredPayload, a StoredList.
//   request              {type:"request", runId, snapshot: RequestRef, blobs?: Blob[]}
//     RequestRef         the snapshot's own fields as they are (runId, requestIndex, iteration, provider,
//                        model, disclosure, at, activeSkills, registeredNotVisible, eager, cache, and any
//                        field a later version adds), with its content replaced by:
//       frame            hash of a frame (JSON blob): {prefix, environment}, the environment's segments
//                        and the hash of a prefix (JSON blob): {segments, listedSkills, tokenizer?,
//                        indexLineTokens?, eagerStableLength?}, the tool and system segments in render
//                        order. Requests that repeat the prompt (most do) share one frame; frames that
//                        differ by a loaded skill share one prefix.
//       historyLength    n: the messages are the session conversation's first n (the history_appended
//                        events in seq order, whose `figures` are those messages' segments);
//       messageSegments  segments of messages the conversation does not carry: a long message's (counted
//                        when a request first sends it), or — without historyLength — every message of an
//                        isolated run, whose private history is not the session's (message JSON blobs).
//       cacheRef         the cache prediction, in place of `cache` (./stored-cache.ts): the fields a
//                        session's requests share as one JSON blob by hash, the request's own figures
//                        inline. A ref with `cache` (a format-3 log written before cacheRef) reads as it is.
//   manual_turn_requested {…, snapshot: RequestRef, blobs?}: the same ref as its request.
//   provider_payload     {type, runId, requestIndex, hash, blobs?, routing?}: hash of a StoredPayload.
//     StoredPayload      {value, lists?: {key: hash}}: the payload with each top-level array moved to a
//                        StoredList, {after?: hash, items}: `after`'s items followed by these. A
//                        conversation that grew by two messages adds a list of two, so the payloads of a
//                        long session grow the log linearly, not with its square.
//   history_appended     as before: {message, figures?: {hash, tokens}, requestIndex?}. A conversation
//                        message travels here, once; its hash is sha256 of its JSON.
//
// Rules. A blob goes out with the first logged event that refers to it and never again in that session's
// stream: the log, the memory replay and every socket carry the same JSON text, so a reader that starts
// at seq 1, or resumes after a seq it has seen, holds every blob it is referred to. Blobs are made from
// the event after it is redacted, so a hash always names the bytes stored. A log's blobs are checked
// against their hashes when it is read; one that does not match is skipped with a warning, and what
// refers to it shows as missing — never as someone else's text.
//
// Log format 3: a header {version: 3}, then every event record exactly as the wire carries it.
// Upgrade: a log of format 1 or 2 (as written or as exported) is brought to format 3 in one step when it
// is read (server/session/log-upgrade.ts): the old references are resolved in order ($historyPrefix,
// {"$sameAs": seq}, {"$previousPayload": seq}), old console events get their marker, messages get their
// figures, and each request, manual turn and payload is then written by the same RequestWriter a live
// session uses, so nothing after the reader knows the older formats.
//
// This module is pure (no Node API, no React): the pages import it as a value (DESIGN.md §2).
import type { ChatMessage, ToolDefinition } from "./model.ts";
import type {
  ConsoleMarker,
  MessageFigures,
  PromptSegment,
  RequestSnapshot,
  RunnerEvent,
} from "./runner-events.ts";
import { cacheOf, storeCache, type StoredCache } from "./stored-cache.ts";

// The pages read a request's cache prediction without resolving it (their cost figures): from here, the
// one protocol module they import as a value.
export { cacheOf };

/** A text or a JSON value, named by the sha256 hex of its text (of a JSON value: its JSON.stringify). */
export type Blob = { hash: string; text: string } | { hash: string; json: unknown };

/** A segment of a frame; `tokens` is absent only in requests logged before figures existed. */
export type FrameSegment = Omit<PromptSegment, "tokens"> & { tokens?: number };

/** The prompt of a request apart from its messages, as a reader sees it (`frameOf`). */
export interface PromptFrame {
  /** Tool definitions (JSON blobs), the stable system and the environment's sections (text), in render order. */
  segments: FrameSegment[];
  /** Skill names as listed in the stable system's index. */
  listedSkills: string[];
  tokenizer?: string;
  indexLineTokens?: Record<string, number>;
  eagerStableLength?: number;
}

/**
 * The part of a prompt that changes least: tools and stable system (with the index they list). A JSON
 * blob, shared by every frame built on it.
 */
export type PromptPrefix = PromptFrame;

/**
 * A frame as stored (a JSON blob, shared by the requests that repeat it): its prefix by hash, and the
 * environment's sections, which change when a skill loads.
 */
export interface StoredFrame {
  prefix: string;
  environment: FrameSegment[];
}

/** What a request's content is, in the full snapshot; a ref carries `frame` and the messages' references instead. */
const CONTENT_FIELDS = [
  "system",
  "stableHash",
  "messages",
  "tools",
  "segments",
  "listedSkills",
  "tokenizer",
  "indexLineTokens",
  "eagerStableLength",
  "historyLength",
] as const;
type ContentField =
  | "system"
  | "stableHash"
  | "messages"
  | "tools"
  | "segments"
  | "listedSkills"
  | "tokenizer"
  | "indexLineTokens"
  | "eagerStableLength";

/** A request on the WebSocket and in the log: the snapshot's own fields, its content by reference. */
export type RequestRef = Omit<RequestSnapshot, ContentField> & {
  /** Hash of the request's PromptFrame. */
  frame: string;
  /** The messages are the session conversation's first n. */
  historyLength?: number;
  /** Segments of messages the conversation does not carry (see the design note). */
  messageSegments?: FrameSegment[];
  /** The cache prediction by reference (./stored-cache.ts); `cache` when the ref carries it as it is. */
  cacheRef?: StoredCache;
};

/** A provider payload as stored: its top-level arrays in `lists` (key → StoredList hash), the rest in `value`. */
export interface StoredPayload {
  value: unknown;
  lists?: Record<string, string>;
}

/** A list: the items of the list `after` names (if any), then `items`. */
export interface StoredList {
  after?: string;
  items: unknown[];
}

/** A request event on the wire and in the log; `blobs`: the content it is the first to refer to. */
export type RequestEvent = {
  type: "request";
  runId: string;
  snapshot: RequestRef;
  blobs?: Blob[];
} & ConsoleMarker;

/**
 * A provider payload on the wire and in the log: the hash of its StoredPayload in place of the payload;
 * the event's other fields (the router's decision, any a later version adds) travel as they are.
 */
export type PayloadEvent = Omit<Extract<RunnerEvent, { type: "provider_payload" }>, "payload"> & {
  hash: string;
  blobs?: Blob[];
} & ConsoleMarker;

/** The manual provider waits for the person: the request it waits on, by the same reference. */
export interface ManualTurnEvent {
  type: "manual_turn_requested";
  runId: string;
  requestIndex: number;
  snapshot: RequestRef;
  blobs?: Blob[];
}

/** A Runner event as the wire and the log carry it: requests and payloads by reference. */
export type WireRunnerEvent =
  Exclude<RunnerEvent, { type: "request" | "provider_payload" }> | RequestEvent | PayloadEvent;

/** A request in full, as the Runner built it: what the panes, the exports and the compare view show. */
export type ResolvedRequest = RequestSnapshot & { messages: ChatMessage[] };

/**
 * The conversation as a reader folded it: messages in order, and each one's segment (made once, from the
 * figures its history_appended carried; undefined when it came without).
 */
export interface ConversationView {
  history: readonly ChatMessage[];
  segments: readonly (PromptSegment | undefined)[];
}

/** The segment of conversation message `index`, from the figures its history_appended carried. */
export function conversationSegment(
  index: number,
  figures: MessageFigures | undefined,
): PromptSegment | undefined {
  return figures && { kind: "message", name: String(index), hash: figures.hash, tokens: figures.tokens };
}

/** Blobs by hash. Content-addressed, so it only grows and an entry never changes meaning. */
export class BlobStore {
  private readonly texts = new Map<string, string>();
  private readonly values = new Map<string, unknown>();

  add(blobs: readonly Blob[] | undefined): void {
    if (!blobs) return;
    for (const blob of blobs) {
      if ("text" in blob) this.texts.set(blob.hash, blob.text);
      else this.values.set(blob.hash, blob.json);
    }
  }

  has(hash: string): boolean {
    return this.texts.has(hash) || this.values.has(hash);
  }

  /** The text a hash names (a JSON blob as its JSON text); undefined when no blob has it. */
  text(hash: string): string | undefined {
    const text = this.texts.get(hash);
    if (text !== undefined) return text;
    return this.values.has(hash) ? JSON.stringify(this.values.get(hash)) : undefined;
  }

  /** The JSON value a hash names (a text blob parsed); undefined when no blob has it or it is not JSON. */
  json(hash: string): unknown {
    if (this.values.has(hash)) return this.values.get(hash);
    const text = this.texts.get(hash);
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }

  get size(): number {
    return this.texts.size + this.values.size;
  }
}

/**
 * The environment text cut into its sections by the segments' lengths (`chars`), each with its segment;
 * undefined when they do not add up to the text (a log from before sections, or one edited by hand).
 */
export function environmentSections<S extends Pick<FrameSegment, "kind" | "chars">>(
  environment: string,
  segments: readonly S[],
): { segment: S; text: string }[] | undefined {
  const sections = segments.filter((segment) => segment.kind === "environment");
  const total = sections.reduce((sum, segment) => sum + (segment.chars ?? -1), 0);
  if (sections.length === 0 || total !== environment.length) return undefined;
  let offset = 0;
  return sections.map((segment) => {
    const text = environment.slice(offset, offset + (segment.chars ?? 0));
    offset += segment.chars ?? 0;
    return { segment, text };
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A snapshot's own fields: everything but its content (which a ref names by hash), including any field a
 * later version (or another part of the playground) adds — they travel as they are.
 */
export function ownFields<S extends object>(snapshot: S): Omit<S, ContentField | "historyLength"> {
  const own = { ...snapshot } as Record<string, unknown>;
  for (const field of CONTENT_FIELDS) delete own[field];
  return own as Omit<S, ContentField | "historyLength">;
}

/**
 * A snapshot's own fields as a ref carries them: its cache prediction, if any, becomes `cacheRef` in the
 * same place, and `blobs` is what that names (the prediction's fixed part).
 */
export function refFields<S extends Pick<RequestSnapshot, "cache">>(
  snapshot: S,
  name: BlobNamer,
): { own: Omit<S, ContentField | "historyLength" | "cache"> & { cacheRef?: StoredCache }; blobs: Blob[] } {
  const own = ownFields(snapshot) as Record<string, unknown>;
  if (snapshot.cache === undefined) return { own: own as never, blobs: [] };
  const { stored, blob } = storeCache(snapshot.cache, name);
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(own))
    if (key === "cache") fields.cacheRef = stored;
    else fields[key] = value;
  return { own: fields as never, blobs: [blob] };
}

/** The content of a request, apart from its messages, as the Runner built it. */
export type FrameInput = Pick<
  RequestSnapshot,
  | "system"
  | "stableHash"
  | "tools"
  | "segments"
  | "listedSkills"
  | "tokenizer"
  | "indexLineTokens"
  | "eagerStableLength"
>;

/** Names a part's content as a blob: `known` is its segment's hash, when the request had figures. */
export interface BlobNamer {
  text(known: string | undefined, text: string): Blob;
  json(known: string | undefined, value: unknown): Blob;
}

/**
 * The frame of a request (its tools, stable system and environment sections, in render order, with the
 * figures its segments carry) as a blob, and the blobs it names (its prefix last). The one place a
 * request's parts become references: the server's writer names blobs by sha256, a test may name them
 * otherwise.
 */
export function buildFrame(input: FrameInput, name: BlobNamer): { frame: Blob; blobs: Blob[] } {
  const { system, segments = [] } = input;
  const blobs: Blob[] = [];
  const frameSegments: FrameSegment[] = [];
  const figures = new Map(segments.map((segment) => [`${segment.kind}:${segment.name}`, segment]));
  const add = (kind: FrameSegment["kind"], part: string, blob: Blob, chars?: number, tokens?: number) => {
    const counted = tokens ?? figures.get(`${kind}:${part}`)?.tokens;
    frameSegments.push({
      kind,
      name: part,
      hash: blob.hash,
      ...(counted !== undefined ? { tokens: counted } : {}),
      ...(chars !== undefined ? { chars } : {}),
    });
    blobs.push(blob);
  };
  for (const tool of input.tools)
    add("tool", tool.name, name.json(figures.get(`tool:${tool.name}`)?.hash, tool));
  add("system", "stable", name.text(input.stableHash || undefined, system.stable), system.stable.length);
  const sections = environmentSections(system.environment, segments);
  if (sections)
    for (const { segment, text } of sections)
      add("environment", segment.name, name.text(segment.hash, text), text.length);
  else {
    // Sections that do not add up to the text (an old log edited by hand, a crafted one): one part, with
    // their tokens summed when every section has its figure.
    const counts = segments
      .filter((segment) => segment.kind === "environment")
      .map((segment) => segment.tokens);
    const total =
      counts.length > 0 && counts.every((count) => count !== undefined)
        ? counts.reduce((sum, count) => sum + count, 0)
        : undefined;
    add(
      "environment",
      "environment",
      name.text(undefined, system.environment),
      system.environment.length,
      total,
    );
  }
  const prefix: PromptPrefix = {
    segments: frameSegments.filter((segment) => segment.kind !== "environment"),
    listedSkills: input.listedSkills,
    ...(input.tokenizer ? { tokenizer: input.tokenizer } : {}),
    ...(input.indexLineTokens ? { indexLineTokens: input.indexLineTokens } : {}),
    ...(input.eagerStableLength !== undefined ? { eagerStableLength: input.eagerStableLength } : {}),
  };
  const prefixBlob = name.json(undefined, prefix);
  const stored: StoredFrame = {
    prefix: prefixBlob.hash,
    environment: frameSegments.filter((segment) => segment.kind === "environment"),
  };
  blobs.push(prefixBlob);
  return { frame: name.json(undefined, stored), blobs };
}

const EMPTY_FRAME: PromptFrame = { segments: [], listedSkills: [] };

/** A message as its readers use it (messageText, the token counter, the pages): the fields they read. */
function isChatMessage(value: unknown): value is ChatMessage {
  if (!isObject(value) || typeof value.content !== "string") return false;
  const named = (item: unknown): boolean => isObject(item) && typeof item.name === "string";
  switch (value.role) {
    case "user":
      return (
        value.addedTools === undefined || (Array.isArray(value.addedTools) && value.addedTools.every(named))
      );
    case "assistant":
      return (
        Array.isArray(value.toolCalls) &&
        value.toolCalls.every((call) => named(call) && isObject(call) && typeof call.id === "string")
      );
    case "tool":
      return typeof value.toolCallId === "string" && typeof value.toolName === "string";
    default:
      return false;
  }
}

/** A frame's part as its readers use it: a tool, the stable system or an environment section, by hash. */
function isFrameSegment(value: unknown): value is FrameSegment {
  return (
    isObject(value) &&
    (value.kind === "tool" || value.kind === "system" || value.kind === "environment") &&
    typeof value.name === "string" &&
    typeof value.hash === "string" &&
    (value.tokens === undefined || (typeof value.tokens === "number" && Number.isFinite(value.tokens))) &&
    (value.chars === undefined || typeof value.chars === "number")
  );
}

/** Frames as readers see them, by stored frame (each is merged with its prefix once). */
const mergedFrames = new WeakMap<object, PromptFrame>();

/**
 * The frame a ref names, with its prefix; an empty one when a blob is missing (a damaged log: nothing is
 * invented).
 */
export function frameOf(ref: Pick<RequestRef, "frame">, blobs: BlobStore): PromptFrame {
  const stored = blobs.json(ref.frame);
  if (!isObject(stored) || typeof stored.prefix !== "string" || !Array.isArray(stored.environment))
    return EMPTY_FRAME;
  const known = mergedFrames.get(stored);
  if (known) return known;
  const prefix = blobs.json(stored.prefix);
  // A blob is data of any shape: a log is a user file, and its blobs are checked against their sha256
  // only, which whoever crafted the log computed. So the frame is read as a frame only when every part
  // is one (each reader — the log's upgrade, the server's folds, the pages — reads its parts by field);
  // else it is a damaged frame, shown as empty like a missing one.
  if (
    !isObject(prefix) ||
    !Array.isArray(prefix.segments) ||
    !Array.isArray(prefix.listedSkills) ||
    !prefix.segments.every(isFrameSegment) ||
    !stored.environment.every(isFrameSegment) ||
    !prefix.listedSkills.every((name) => typeof name === "string")
  )
    return EMPTY_FRAME;
  const frame: PromptFrame = {
    ...(prefix as unknown as PromptPrefix),
    segments: [...(prefix.segments as FrameSegment[]), ...(stored.environment as FrameSegment[])],
  };
  mergedFrames.set(stored, frame);
  return frame;
}

/** Hashes of the blobs a ref needs: its parts, the isolated run's messages, the prefix and the frame. */
export function blobsOf(ref: RequestRef, blobs: BlobStore): string[] {
  const stored = blobs.json(ref.frame);
  if (!isObject(stored) || typeof stored.prefix !== "string") return [ref.frame];
  const hashes = frameOf(ref, blobs).segments.map((segment) => segment.hash);
  if (ref.historyLength === undefined)
    for (const segment of ref.messageSegments ?? []) hashes.push(segment.hash);
  hashes.push(stored.prefix, ref.frame);
  if (ref.cache === undefined && ref.cacheRef) hashes.push(ref.cacheRef.fixed);
  return hashes;
}

/**
 * The request in full. Messages come from the conversation (`historyLength`) or from their blobs (an
 * isolated run); the segments are the frame's plus one per message, and absent when any message's figures
 * are unknown (a log from before figures existed) — the inspector then says so instead of guessing.
 */
export function resolveRequest(
  ref: RequestRef,
  blobs: BlobStore,
  conversation: ConversationView,
): ResolvedRequest {
  const { frame: frameHash, historyLength, messageSegments, ...rest } = ref;
  // The prediction goes back in the place its reference had (`cache` as it is when the ref carries it).
  let own: Record<string, unknown> = rest;
  if (rest.cacheRef !== undefined) {
    own = {};
    const cache = cacheOf(ref, blobs);
    for (const [key, value] of Object.entries(rest))
      if (key === "cacheRef") {
        if (cache !== undefined) own.cache = cache;
      } else if (key !== "cache") own[key] = value;
  }
  const frame = frameOf(ref, blobs);
  let stable = "";
  let stableHash = "";
  let environment = "";
  const tools: ToolDefinition[] = [];
  for (const segment of frame.segments) {
    if (segment.kind === "tool") {
      const tool = blobs.json(segment.hash);
      if (isObject(tool)) tools.push(tool as unknown as ToolDefinition);
    } else if (segment.kind === "system") {
      stable = blobs.text(segment.hash) ?? "";
      stableHash = segment.hash;
    } else if (segment.kind === "environment") environment += blobs.text(segment.hash) ?? "";
  }
  let messages: ChatMessage[];
  let figures: (FrameSegment | undefined)[];
  if (historyLength !== undefined) {
    const count = Math.min(historyLength, conversation.history.length);
    messages = conversation.history.slice(0, count);
    figures = conversation.segments.slice(0, count);
    // A long message's figures came with the request that first sent it.
    for (const segment of messageSegments ?? []) {
      const index = Number(segment.name);
      if (index < count && figures[index] === undefined) figures[index] = segment;
    }
  } else {
    messages = [];
    figures = [];
    for (const segment of messageSegments ?? []) {
      const message = blobs.json(segment.hash);
      // A blob is data of any shape (frameOf says why): only a message is read as one.
      if (!isChatMessage(message)) continue;
      messages.push(message as unknown as ChatMessage);
      figures.push({ ...segment, name: String(messages.length - 1) });
    }
  }
  const frameSegments = frame.segments;
  const complete =
    frameSegments.length > 0 &&
    frameSegments.every((segment) => segment.tokens !== undefined) &&
    figures.length === messages.length &&
    figures.every((segment) => segment !== undefined && segment.tokens !== undefined);
  return {
    ...own,
    system: { stable, environment },
    stableHash,
    messages,
    tools,
    listedSkills: frame.listedSkills,
    ...(frame.indexLineTokens ? { indexLineTokens: frame.indexLineTokens } : {}),
    ...(frame.eagerStableLength !== undefined ? { eagerStableLength: frame.eagerStableLength } : {}),
    ...(frame.tokenizer ? { tokenizer: frame.tokenizer } : {}),
    ...(complete
      ? { segments: [...(frameSegments as PromptSegment[]), ...(figures as PromptSegment[])] }
      : {}),
  } as ResolvedRequest;
}

/** The items of a stored list, following its `after` chain (a missing link ends it: `complete` false). */
export function resolveList(hash: string, blobs: BlobStore): { items: unknown[]; complete: boolean } {
  const chain: unknown[][] = [];
  let complete = true;
  const seen = new Set<string>();
  for (let next: string | undefined = hash; next !== undefined;) {
    if (seen.has(next)) {
      complete = false;
      break;
    }
    seen.add(next);
    const list = blobs.json(next);
    if (!isObject(list) || !Array.isArray(list.items)) {
      complete = false;
      break;
    }
    chain.push(list.items);
    next = typeof list.after === "string" ? list.after : undefined;
  }
  return { items: chain.reverse().flat(), complete };
}

/** A provider payload as it was sent; undefined when its blob is missing. */
export function resolvePayload(hash: string, blobs: BlobStore): unknown {
  const stored = blobs.json(hash);
  if (!isObject(stored) || !("value" in stored)) return undefined;
  const { value, lists } = stored as unknown as StoredPayload;
  if (!lists || !isObject(value)) return value;
  const payload: Record<string, unknown> = { ...value };
  for (const [key, list] of Object.entries(lists)) payload[key] = resolveList(list, blobs).items;
  return payload;
}

/**
 * Reads requests back from events in wire form, in order: the blobs and the conversation seen so far.
 * The server's folds (reopen, digests, exports, branches) and the protocol client use it; the pages keep
 * the same two things in their state and call `resolveRequest` themselves.
 */
export class RequestReader {
  readonly blobs = new BlobStore();
  private readonly history: ChatMessage[] = [];
  private readonly segments: (PromptSegment | undefined)[] = [];

  observe(event: { type: string }): void {
    if ("blobs" in event) this.blobs.add((event as { blobs?: Blob[] }).blobs);
    if (event.type !== "history_appended") return;
    const appended = event as unknown as { message: ChatMessage; figures?: MessageFigures };
    this.segments.push(conversationSegment(this.history.length, appended.figures));
    this.history.push(appended.message);
  }

  get conversation(): ConversationView {
    return { history: this.history, segments: this.segments };
  }

  resolve(ref: RequestRef): ResolvedRequest {
    return resolveRequest(ref, this.blobs, this.conversation);
  }

  payload(hash: string): unknown {
    return resolvePayload(hash, this.blobs);
  }

  /**
   * A Runner event in wire form (observed already) as the Runner emitted it: a request or a provider
   * payload in full, without the blobs it carried; any other event as it is. What `cli run --json` prints.
   */
  runnerEvent(event: WireRunnerEvent): RunnerEvent {
    if (event.type === "request") {
      const { blobs: _blobs, snapshot, ...rest } = event;
      return { ...rest, snapshot: this.resolve(snapshot) };
    }
    if (event.type === "provider_payload") {
      const { blobs: _blobs, hash, ...rest } = event;
      return { ...rest, payload: this.payload(hash) };
    }
    return event;
  }
}
