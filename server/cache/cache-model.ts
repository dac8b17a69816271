// The cache model: given the ordered segments of each request of a session (server/prompt/segments.ts), the
// model and the breakpoint placement, it predicts per request the tokens read from the provider's prompt
// cache, written to it and processed uncached, with a reason for every segment not read. Rules and
// prices are data (cache-rules.json, prices.json). Pure apart from the state it keeps between requests
// (the cache entries it believes the provider holds), which is what a provider's cache is.
//
// Anthropic: the prefix is tools → system → messages; an entry is written at each cache_control breakpoint
// whose prefix reaches the model's minimum; a breakpoint reads the longest live entry at most
// `lookbackBlocks` blocks before it; a read refreshes the entry's TTL. OpenAI: every prompt of 1,024+
// tokens is cached automatically; a later prompt reads its longest common prefix with a live one, in
// 128-token steps past the first 1,024; no write is billed.
import type {
  CacheBreakpoints,
  CacheSegment,
  CacheStatus,
  PromptSegment,
  SnapshotCache,
} from "../protocol/runner-events.ts";
import { sha256Hex } from "../prompt/hash.ts";
import { costUsd } from "../shared/prices.ts";
import { formatCount } from "../shared/figures.ts";
import { missReason, type ToolOrigin } from "./miss-reason.ts";
import { findDivergence, type ComparedRequest } from "./predicted-diagnostics.ts";
import {
  minCacheableTokens,
  priceFor,
  ruleFamily,
  type CacheRules,
  type PriceTable,
  type RuleFamily,
} from "./rules.ts";

export interface CacheRequest {
  requestIndex: number;
  runId: string;
  /** ISO time the request was made. */
  at: string;
  segments: readonly PromptSegment[];
  /** The model whose rules apply. */
  model: string;
  breakpoints: CacheBreakpoints;
  /** Tools registered but not visible in this request (explains a later "tools changed"). */
  registeredNotVisible?: readonly string[];
}

/** Anything that predicts a request's cache figures (the Runner takes one; the session owns its state). */
export interface CachePredictor {
  predict(request: CacheRequest): SnapshotCache;
}

interface Entry {
  /** Request that wrote it. */
  writtenBy: number;
  lastUsedMs: number;
  ttlMs: number;
}

interface Seen {
  requestIndex: number;
  segments: readonly PromptSegment[];
  keys: string[];
  atMs: number;
}

type Part = CacheSegment["part"];

/** From which segment on a request re-sends what the one before it had, and why (./miss-reason.ts). */
interface Miss {
  index: number;
  reason: string;
}

function partOf(segment: PromptSegment): Part {
  switch (segment.kind) {
    case "tool":
      return "tools";
    case "system":
      return "stable";
    case "environment":
      return "environment";
    case "message":
      return "messages";
  }
}

const number = formatCount;

/** Prefix keys (a hash chain over segment hashes, seeded by the model), reusing the previous request's. */
function prefixKeys(model: string, segments: readonly PromptSegment[], previous?: Seen): string[] {
  const keys: string[] = [];
  let key = sha256Hex(`model:${model}`);
  for (let index = 0; index < segments.length; index++) {
    const reuse =
      previous && previous.segments[index]?.hash === segments[index].hash && keys.length === index;
    if (reuse && previous.keys[index] !== undefined && (index === 0 || previous.keys[index - 1] === key)) {
      key = previous.keys[index];
    } else {
      key = sha256Hex(`${key}:${segments[index].kind}:${segments[index].hash}`);
    }
    keys.push(key);
  }
  return keys;
}

/** Block number of each segment: the environment's sections are one system block; others one each. */
function blockNumbers(segments: readonly PromptSegment[]): number[] {
  const blocks: number[] = [];
  let block = -1;
  segments.forEach((segment, index) => {
    const continuesEnvironment =
      segment.kind === "environment" && segments[index - 1]?.kind === "environment";
    if (!continuesEnvironment) block += 1;
    blocks.push(block);
  });
  return blocks;
}

/** Whether a segment ends a content block (an entry can only sit at a block's end). */
function endsBlock(segments: readonly PromptSegment[], index: number): boolean {
  return !(segments[index].kind === "environment" && segments[index + 1]?.kind === "environment");
}

export class CacheModel implements CachePredictor {
  private readonly entries = new Map<string, Entry>();
  private readonly lastByModel = new Map<string, Seen>();
  /** OpenAI: prompts seen, newest last (their prefix keys). */
  private readonly prompts: Seen[] = [];
  private readonly registeredIn = new Map<string, ToolOrigin>();
  private readonly runs: string[] = [];
  /** The last request predicted, whatever its model: what the next one is compared with. */
  private previous: ComparedRequest | undefined;

  constructor(
    private readonly rules: CacheRules,
    private readonly prices: PriceTable,
    private readonly source = "server/cache/cache-rules.json",
  ) {}

  predict(request: CacheRequest): SnapshotCache {
    if (!this.runs.includes(request.runId)) this.runs.push(request.runId);
    const family = ruleFamily(this.rules, request.model);
    // The request's one divergence from the request before it (whatever its model): the reasons of the
    // segments it re-sends and the prediction's diagnostics both come from it.
    const current: ComparedRequest = {
      requestIndex: request.requestIndex,
      atMs: Date.parse(request.at),
      model: request.model,
      segments: request.segments,
    };
    const divergence = findDivergence(this.previous, current, new Set(this.registeredIn.keys()));
    const miss: Miss = {
      index: divergence.index,
      reason: missReason(
        divergence,
        this.previous,
        current,
        this.registeredIn,
        this.lastByModel.has(request.model),
      ),
    };
    const prediction =
      family === "anthropic"
        ? this.anthropic(request, miss)
        : family === "openai"
          ? this.openai(request, miss)
          : this.none(request);
    for (const name of request.registeredNotVisible ?? []) {
      if (!this.registeredIn.has(name)) {
        this.registeredIn.set(name, {
          requestIndex: request.requestIndex,
          run: this.runs.indexOf(request.runId) + 1,
        });
      }
    }
    this.previous = current;
    return { ...prediction, diagnostics: divergence.diagnostics };
  }

  private result(
    request: CacheRequest,
    family: RuleFamily,
    statuses: { status: CacheStatus; reason: string; tokens?: number }[][],
  ): SnapshotCache {
    const segments: CacheSegment[] = [];
    let read = 0;
    let written = 0;
    let uncached = 0;
    request.segments.forEach((segment, index) => {
      const part = partOf(segment);
      for (const piece of statuses[index]) {
        const tokens = piece.tokens ?? segment.tokens;
        if (piece.status === "read") read += tokens;
        else if (piece.status === "written") written += tokens;
        else uncached += tokens;
        const last = segments[segments.length - 1];
        const name = segment.name;
        if (last && last.part === part && last.status === piece.status && last.reason === piece.reason) {
          last.tokens += tokens;
          (last as CacheSegment & { names: string[] }).names.push(name);
        } else {
          segments.push({
            part,
            label: "",
            tokens,
            status: piece.status,
            reason: piece.reason,
            names: [name],
          } as CacheSegment & {
            names: string[];
          });
        }
      }
    });
    const labelled = segments.map((segment) => {
      const { names, ...rest } = segment as CacheSegment & { names: string[] };
      const unique = [...new Set(names)];
      const label =
        rest.part === "messages"
          ? unique.length === 1
            ? `message ${unique[0]}`
            : `messages ${unique[0]}–${unique[unique.length - 1]}`
          : unique.length <= 2
            ? unique.join(", ")
            : `${unique[0]} … ${unique[unique.length - 1]} (${unique.length})`;
      return { ...rest, label };
    });
    const predicted = {
      inputTokens: uncached,
      cacheCreationInputTokens: written,
      cacheReadInputTokens: read,
    };
    const price = priceFor(this.prices, request.model);
    return {
      model: request.model,
      rules: family,
      ...(family === "anthropic" ? { breakpoints: request.breakpoints } : {}),
      predicted,
      segments: labelled,
      costUsd: price ? costUsd(price, predicted) : null,
      ...(price ? { price } : {}),
      source: `prediction: o200k_base token counts under ${this.source} (${family} rules for ${request.model})`,
    };
  }

  private none(request: CacheRequest): SnapshotCache {
    const reason = `no caching rules for "${request.model}": set "cache as" (or --cache-model) to a Claude or GPT model`;
    return this.result(
      request,
      "none",
      request.segments.map(() => [{ status: "uncached" as const, reason }]),
    );
  }

  private anthropic(request: CacheRequest, miss: Miss): SnapshotCache {
    const rules = this.rules.anthropic;
    const { segments } = request;
    const atMs = Date.parse(request.at);
    const previous = this.lastByModel.get(request.model);
    const keys = prefixKeys(request.model, segments, previous);
    const blocks = blockNumbers(segments);
    const cumulative: number[] = [];
    segments.reduce((sum, segment, index) => (cumulative[index] = sum + segment.tokens), 0);
    const tokensTo = (index: number) => (index < 0 ? 0 : cumulative[index]);
    const ttlMs = rules.ttlSeconds.value["5m"] * 1000;
    const lookback = rules.lookbackBlocks.value;
    const minimum = minCacheableTokens(this.rules, request.model);

    const stableIndex = segments.findIndex((segment) => segment.kind === "system");
    const points = new Set<number>();
    if (stableIndex >= 0) points.add(stableIndex);
    if (request.breakpoints === "rolling" && segments.length > 0) points.add(segments.length - 1);
    const breakpoints = [...points].sort((a, b) => a - b).slice(0, rules.maxBreakpoints.value);

    let readEnd = -1;
    let readFrom: Entry | undefined;
    let expired: Entry | undefined;
    let outOfReach: Entry | undefined;
    const hits: string[] = [];
    for (const point of breakpoints) {
      for (let index = point; index >= 0; index--) {
        if (!endsBlock(segments, index)) continue;
        const entry = this.entries.get(keys[index]);
        if (!entry) continue;
        if (atMs - entry.lastUsedMs > entry.ttlMs) {
          expired ??= entry;
          continue;
        }
        if (blocks[point] - blocks[index] > lookback) {
          outOfReach ??= entry;
          break;
        }
        hits.push(keys[index]);
        if (index > readEnd) {
          readEnd = index;
          readFrom = entry;
        }
        break;
      }
    }
    for (const key of hits) this.entries.get(key)!.lastUsedMs = atMs;

    let writeEnd = readEnd;
    const belowMinimum: number[] = [];
    for (const point of breakpoints) {
      if (point <= readEnd) continue;
      if (tokensTo(point) < minimum) {
        belowMinimum.push(point);
        continue;
      }
      this.entries.set(keys[point], { writtenBy: request.requestIndex, lastUsedMs: atMs, ttlMs });
      writeEnd = Math.max(writeEnd, point);
    }
    const lastPoint = breakpoints[breakpoints.length - 1] ?? -1;

    const ttlText = `${rules.ttlSeconds.value["5m"] / 60}-minute TTL`;
    const missReason = (index: number): string => {
      if (index >= miss.index) return miss.reason;
      const point = breakpoints.find((candidate) => candidate >= index);
      if (point !== undefined && miss.index <= point) {
        return `an entry covers the whole prefix up to its breakpoint, and ${miss.reason}`;
      }
      if (expired) return `${ttlText} passed since request #${expired.writtenBy} last used it`;
      if (outOfReach) {
        return `the cache entry of request #${outOfReach.writtenBy} is more than ${lookback} blocks before the breakpoint`;
      }
      return `request #${previous?.requestIndex ?? "?"} cached no entry ending here`;
    };

    const statuses = segments.map((_, index) => {
      if (index <= readEnd) {
        return [{ status: "read" as const, reason: `read: cached by request #${readFrom!.writtenBy}` }];
      }
      if (index <= writeEnd) {
        return [{ status: "written" as const, reason: `written (1.25× input), ${missReason(index)}` }];
      }
      if (index > lastPoint) {
        const where = lastPoint === stableIndex ? "the stable system" : "the last message";
        return [
          {
            status: "uncached" as const,
            reason:
              request.breakpoints === "stable"
                ? `after the last breakpoint (${where}): the conversation is re-sent uncached on every request ("stable + rolling" caches it)`
                : `after the last breakpoint (${where})`,
          },
        ];
      }
      const point = belowMinimum.find((candidate) => candidate >= index);
      const prefix = point !== undefined ? tokensTo(point) : tokensTo(index);
      return [
        {
          status: "uncached" as const,
          reason: `below the ${number(minimum)}-token minimum of ${request.model} (the prefix up to this breakpoint is ${number(prefix)} tokens)`,
        },
      ];
    });
    this.lastByModel.set(request.model, { requestIndex: request.requestIndex, segments, keys, atMs });
    return this.result(request, "anthropic", statuses);
  }

  private openai(request: CacheRequest, miss: Miss): SnapshotCache {
    const rules = this.rules.openai;
    const { segments } = request;
    const atMs = Date.parse(request.at);
    const previous = this.lastByModel.get(request.model);
    const keys = prefixKeys(request.model, segments, previous);
    const ttlMs = rules.ttlSeconds.value * 1000;
    const total = segments.reduce((sum, segment) => sum + segment.tokens, 0);
    const minimum = rules.minPrefixTokens.value;
    const step = rules.incrementTokens.value;

    let matched = 0;
    let matchedTokens = 0;
    let matchedWith: Seen | undefined;
    let expired: Seen | undefined;
    for (const prompt of this.prompts) {
      let count = 0;
      while (count < keys.length && count < prompt.keys.length && prompt.keys[count] === keys[count]) count++;
      if (count === 0) continue;
      if (atMs - prompt.atMs > ttlMs) {
        expired ??= prompt;
        continue;
      }
      if (count > matched) {
        matched = count;
        matchedWith = prompt;
      }
    }
    for (let index = 0; index < matched; index++) matchedTokens += segments[index].tokens;
    const cached =
      total < minimum || matchedTokens < minimum
        ? 0
        : Math.min(matchedTokens, minimum + Math.floor((matchedTokens - minimum) / step) * step);
    if (matchedWith) matchedWith.atMs = atMs;

    let offset = 0;
    const statuses = segments.map((segment, index) => {
      const start = offset;
      offset += segment.tokens;
      const readTokens = Math.max(0, Math.min(segment.tokens, cached - start));
      const notRead =
        total < minimum
          ? `below OpenAI's ${number(minimum)}-token minimum (the prompt is ${number(total)} tokens)`
          : index < matched
            ? `past the last ${step}-token step of the cached prefix`
            : expired && !matchedWith
              ? `cache lifetime (~${rules.ttlSeconds.value / 60} minutes) passed since request #${expired.requestIndex}`
              : index >= miss.index
                ? miss.reason
                : "not in a cached prefix";
      const pieces: { status: CacheStatus; reason: string; tokens?: number }[] = [];
      if (readTokens > 0)
        pieces.push({
          status: "read",
          reason: `read: prefix of request #${matchedWith!.requestIndex}`,
          tokens: readTokens,
        });
      if (readTokens < segment.tokens)
        pieces.push({ status: "uncached", reason: notRead, tokens: segment.tokens - readTokens });
      if (pieces.length === 0) pieces.push({ status: "read", reason: "empty", tokens: 0 });
      return pieces;
    });
    const seen: Seen = { requestIndex: request.requestIndex, segments, keys, atMs };
    this.lastByModel.set(request.model, seen);
    if (total >= minimum) this.prompts.push(seen);
    // Forget prompts long expired, so a long session does not keep every prefix alive.
    while (this.prompts.length > 0 && atMs - this.prompts[0].atMs > ttlMs * 4) this.prompts.shift();
    return this.result(request, "openai", statuses);
  }
}
