// What a provider's cache diagnostics should report for a request, predicted from the segments of the
// request and of the one it is compared with: Anthropic's comparison names the first point where the new
// request's prefix (tools → system → messages) stops matching the old one; a request that only appends
// to the old one has no divergence. Pure.
//
// The one place a request's divergence is found: the cache model words its reasons from it (the cache
// strip's cause, ./miss-reason.ts) and its prediction carries it as `diagnostics` (the Diagnostics row),
// so the two views of one request cannot explain it differently.
import type { CacheDivergenceType, PredictedCacheDiagnostics } from "../protocol/cache-report.ts";
import type { PromptSegment } from "../protocol/runner-events.ts";
import { causeOfDivergence } from "./miss-causes.ts";

/** What the ledger keeps of one request to compare the next one with. */
export interface ComparedRequest {
  requestIndex: number;
  atMs: number;
  /** The model whose rules apply (caches are per model). */
  model: string;
  segments: readonly PromptSegment[];
}

const toolNames = (segments: readonly PromptSegment[]) =>
  segments.filter((segment) => segment.kind === "tool").map((segment) => segment.name);

/** Characters of the system parts: the stable system and the environment's sections. */
export function systemChars(segments: readonly PromptSegment[]): number {
  return segments
    .filter((segment) => segment.kind === "system" || segment.kind === "environment")
    .reduce((sum, segment) => sum + (segment.chars ?? 0), 0);
}

/** Where a kind of segment sits in the prefix order tools → system → environment → messages. */
const prefixOrder: Record<PromptSegment["kind"], number> = { tool: 0, system: 1, environment: 2, message: 3 };

/**
 * What diverged where two requests differ at one index: the earlier of the two segments' kinds in the
 * prefix order. A tool that is no longer sent makes the system slide into its place, and that is a tools
 * change, not a system one.
 */
export function divergedKind(
  before: PromptSegment | undefined,
  now: PromptSegment | undefined,
): PromptSegment["kind"] {
  const kinds = [before?.kind, now?.kind].filter((kind) => kind !== undefined);
  return kinds.reduce(
    (first, kind) => (prefixOrder[kind] < prefixOrder[first] ? kind : first),
    kinds[0] ?? "message",
  );
}

function typeOf(kind: PromptSegment["kind"]): CacheDivergenceType {
  switch (kind) {
    case "tool":
      return "tools_changed";
    case "system":
    case "environment":
      return "system_changed";
    case "message":
      return "messages_changed";
  }
}

/** The first index where `now` stops extending `before` (undefined: it extends it). */
function divergenceIndex(
  before: readonly PromptSegment[],
  now: readonly PromptSegment[],
): number | undefined {
  for (let index = 0; index < before.length; index++) {
    if (index >= now.length || now[index].hash !== before[index].hash) return index;
  }
  return undefined;
}

const listNames = (names: readonly string[]) => names.join(", ");

/**
 * Whether the playground announced the change before the request: a skill's SOP entering the environment
 * (load_skill said so), or only tools becoming visible that an earlier request had registered and not
 * shown ("registered, not visible").
 */
function announcement(
  type: CacheDivergenceType,
  before: readonly PromptSegment[],
  now: readonly PromptSegment[],
  added: readonly string[],
  removed: readonly string[],
  registeredEarlier: ReadonlySet<string>,
): string | undefined {
  if (type === "tools_changed") {
    if (added.length === 0 || removed.length > 0 || !added.every((name) => registeredEarlier.has(name)))
      return undefined;
    return `${listNames(added)} registered by an earlier request and visible from this run`;
  }
  if (type !== "system_changed") return undefined;
  const stable = (segments: readonly PromptSegment[]) =>
    segments.find((segment) => segment.kind === "system");
  if (stable(before)?.hash !== stable(now)?.hash) return undefined;
  const sections = (segments: readonly PromptSegment[]) =>
    new Set(segments.filter((s) => s.kind === "environment" && s.name !== "base").map((s) => s.name));
  const was = sections(before);
  const loaded = [...sections(now)].filter((name) => !was.has(name));
  return loaded.length > 0 ? `${listNames(loaded)} SOP loaded into the environment` : undefined;
}

/** A request's divergence: the diagnostics, and the index of the segment where it stops extending the baseline. */
export interface Divergence {
  diagnostics: PredictedCacheDiagnostics;
  /** The first segment of `current` not in the baseline's prefix (its length when it extends it; 0 for a new model). */
  index: number;
}

export function predictDiagnostics(
  baseline: ComparedRequest | undefined,
  current: ComparedRequest,
  registeredEarlier: ReadonlySet<string> = new Set(),
): PredictedCacheDiagnostics {
  return findDivergence(baseline, current, registeredEarlier).diagnostics;
}

export function findDivergence(
  baseline: ComparedRequest | undefined,
  current: ComparedRequest,
  registeredEarlier: ReadonlySet<string> = new Set(),
): Divergence {
  const tokensFrom = (index: number) =>
    current.segments.slice(index).reduce((sum, segment) => sum + segment.tokens, 0);
  if (!baseline) {
    return {
      index: 0,
      diagnostics: {
        comparedWith: null,
        type: null,
        missedInputTokens: 0,
        toolsAdded: [],
        toolsRemoved: [],
        systemCharDelta: 0,
      },
    };
  }
  const was = new Set(toolNames(baseline.segments));
  const is = new Set(toolNames(current.segments));
  const toolsAdded = [...is].filter((name) => !was.has(name));
  const toolsRemoved = [...was].filter((name) => !is.has(name));
  const common = {
    comparedWith: baseline.requestIndex,
    toolsAdded,
    toolsRemoved,
    systemCharDelta: systemChars(current.segments) - systemChars(baseline.segments),
    gapSeconds: Math.max(0, Math.round((current.atMs - baseline.atMs) / 1000)),
  };
  if (baseline.model !== current.model) {
    return {
      index: 0,
      diagnostics: {
        ...common,
        type: "model_changed",
        missedInputTokens: tokensFrom(0),
        cause: "model_changed",
      },
    };
  }
  const index = divergenceIndex(baseline.segments, current.segments);
  if (index === undefined)
    return { index: baseline.segments.length, diagnostics: { ...common, type: null, missedInputTokens: 0 } };
  const kind = divergedKind(baseline.segments[index], current.segments[index]);
  const type = typeOf(kind);
  const announced = announcement(
    type,
    baseline.segments,
    current.segments,
    toolsAdded,
    toolsRemoved,
    registeredEarlier,
  );
  return {
    index,
    diagnostics: {
      ...common,
      type,
      missedInputTokens: tokensFrom(index),
      cause: causeOfDivergence(type),
      ...(announced ? { announced } : {}),
    },
  };
}
