// A request snapshot as the inspector shows it: messages that the server sent by reference
// (`historyLength`) taken from the session's conversation, its segments completed with those messages'
// figures, and the token figures read from the segments the server computed. Nothing is re-tokenized
// or parsed back out of rendered text here. Pure functions.
import type {
  ChatMessage,
  MessageFigures,
  PromptSegment,
  RequestSnapshot,
} from "../../server/protocol/index.ts";

/** A snapshot with its messages in full, and its segments in full when the server sent any. */
export type ResolvedSnapshot = RequestSnapshot & { messages: ChatMessage[] };

/** The conversation as the view knows it: messages in order, and the server's figures for each. */
export interface ConversationView {
  history: ChatMessage[];
  figures: (MessageFigures | undefined)[];
}

export function resolveSnapshot(snapshot: RequestSnapshot, conversation: ConversationView): ResolvedSnapshot {
  if (snapshot.messages) return snapshot as ResolvedSnapshot;
  const count = snapshot.historyLength ?? 0;
  const messages = conversation.history.slice(0, count);
  if (!snapshot.segments) return { ...snapshot, messages };
  // A long message's figures come with the snapshot instead of its history_appended.
  const sent = new Map(
    snapshot.segments.flatMap((segment) => (segment.kind === "message" ? [[segment.name, segment]] : [])),
  );
  const messageSegments: PromptSegment[] = [];
  for (let index = 0; index < messages.length; index++) {
    const figures = conversation.figures[index] ?? sent.get(String(index));
    // A message without figures (an older server's) leaves the figures incomplete: shown as unknown.
    if (!figures) return { ...snapshot, messages, segments: undefined };
    messageSegments.push({ kind: "message", name: String(index), ...figures });
  }
  const others = snapshot.segments.filter((segment) => segment.kind !== "message");
  return { ...snapshot, messages, segments: [...others, ...messageSegments] };
}

export interface TokenFigures {
  tools: number;
  stable: number;
  environment: number;
  messages: number;
  total: number;
  tokenizer: string;
}

/** The server's token figures for a request, or undefined for a snapshot logged before there were any. */
export function tokenFigures(snapshot: RequestSnapshot): TokenFigures | undefined {
  if (!snapshot.segments) return undefined;
  const figures: TokenFigures = {
    tools: 0,
    stable: 0,
    environment: 0,
    messages: 0,
    total: 0,
    tokenizer: snapshot.tokenizer ?? "the server's tokenizer",
  };
  for (const segment of snapshot.segments) {
    const part =
      segment.kind === "tool"
        ? "tools"
        : segment.kind === "system"
          ? "stable"
          : segment.kind === "environment"
            ? "environment"
            : "messages";
    figures[part] += segment.tokens;
    figures.total += segment.tokens;
  }
  return figures;
}

export interface EnvironmentPart {
  /** "base" or the active skill's name; "environment" for a snapshot without segments. */
  name: string;
  /** The section's first line ("# Environment", "### review"). */
  heading: string;
  /** The rest of the section. */
  text: string;
  /** The server's hash of the section (absent without segments: the text itself is compared then). */
  hash?: string;
  tokens?: number;
}

/**
 * The environment's sections as the server built them: its segments give each section's length, and
 * the sections concatenate to the environment text. A snapshot from an older log has no segments: its
 * environment is one part.
 */
export function environmentParts(snapshot: RequestSnapshot): EnvironmentPart[] {
  const environment = snapshot.system.environment;
  const segments = snapshot.segments?.filter((segment) => segment.kind === "environment") ?? [];
  const total = segments.reduce((sum, segment) => sum + (segment.chars ?? 0), 0);
  const split = (text: string) => {
    const newline = text.indexOf("\n");
    return newline < 0
      ? { heading: text, text: "" }
      : { heading: text.slice(0, newline), text: text.slice(newline + 1) };
  };
  if (segments.length === 0 || total !== environment.length) {
    return [{ name: "environment", ...split(environment) }];
  }
  const parts: EnvironmentPart[] = [];
  let offset = 0;
  for (const segment of segments) {
    const text = environment.slice(offset, offset + (segment.chars ?? 0));
    offset += segment.chars ?? 0;
    parts.push({ name: segment.name, ...split(text), hash: segment.hash, tokens: segment.tokens });
  }
  return parts;
}
