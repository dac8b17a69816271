// A request as the inspector shows it: the reference the server sent (RequestView.snapshot), resolved
// against the session's store (./request-store.ts: blobs and conversation) only when a pane needs its
// content, and the token figures read from the segments the server computed. Nothing is re-tokenized or
// parsed back out of rendered text here.
import type { RequestSnapshot, ResolvedRequest, SnapshotCache } from "../../server/protocol/index.ts";
import { cacheOf, environmentSections, frameOf } from "../../server/protocol/request-model.ts";
import type { RequestView } from "./types.ts";

/** A request with its messages, tools and system texts in full. */
export type ResolvedSnapshot = ResolvedRequest;

/** The selected request in full (resolved once per reference). */
export function requestSnapshot(request: RequestView): ResolvedSnapshot {
  return request.store.resolve(request.snapshot);
}

/** The provider payload of a request, as sent; undefined when the provider reported none. */
export function requestPayload(request: RequestView): unknown {
  return request.payload === undefined ? undefined : request.store.payload(request.payload);
}

/** The sha256 of a request's stable system, without resolving the request (its frame names it). */
export function stableHashOf(request: RequestView): string {
  return frameOf(request.snapshot, request.store.blobs).segments.find((s) => s.kind === "system")?.hash ?? "";
}

/**
 * A request's cache prediction, without resolving the request: the ref carries it, or names its fixed part
 * (server/protocol/stored-cache.ts). What the cost figures of every request read.
 */
export function requestCache(request: RequestView): SnapshotCache | undefined {
  return cacheOf(request.snapshot, request.store.blobs);
}

/** The names of the tools a request showed the model, without resolving the request. */
export function toolNamesOf(request: RequestView): string[] {
  return frameOf(request.snapshot, request.store.blobs)
    .segments.filter((segment) => segment.kind === "tool")
    .map((segment) => segment.name);
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
  /** The blank line a later skill's section opens with (before its heading). */
  lead?: string;
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
  const split = (section: string) => {
    // A later skill's section opens with the blank line that separates it from the one before.
    const lead = section.startsWith("\n") ? "\n" : "";
    const text = section.slice(lead.length);
    const newline = text.indexOf("\n");
    return {
      ...(lead ? { lead } : {}),
      ...(newline < 0
        ? { heading: text, text: "" }
        : { heading: text.slice(0, newline), text: text.slice(newline + 1) }),
    };
  };
  const sections = environmentSections(snapshot.system.environment, snapshot.segments ?? []);
  if (!sections) return [{ name: "environment", ...split(snapshot.system.environment) }];
  return sections.map(({ segment, text }) => ({
    name: segment.name,
    ...split(text),
    hash: segment.hash,
    tokens: segment.tokens,
  }));
}
