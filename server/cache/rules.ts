// The cache rules and the price table as typed data (their JSON lives next to this file, each number with
// the public page it comes from), and the lookups by model name. Pure: the files are read by rules-file.ts.
import type { PriceRow } from "../protocol/runner-events.ts";

interface Sourced<T> {
  value: T;
  source: string;
  checked: string;
  note?: string;
}

export interface CacheRules {
  anthropic: {
    renderOrder: Sourced<string[]>;
    maxBreakpoints: Sourced<number>;
    lookbackBlocks: Sourced<number>;
    ttlSeconds: Sourced<{ "5m": number; "1h": number }>;
    writeMultiplier: Sourced<{ "5m": number; "1h": number }>;
    readMultiplier: Sourced<number>;
    minCacheableTokens: {
      source: string;
      checked: string;
      note?: string;
      default: number;
      byModel: Record<string, number>;
    };
    /** Models that accept {"role": "system"} messages inside messages (absent in an older override: none). */
    midConversationSystem?: ModelSwitch;
    /** Models that accept a tool added mid-conversation (a tool_addition block), and the beta header it needs. */
    midConversationToolChanges?: ModelSwitch & { beta: string };
  };
  openai: {
    minPrefixTokens: Sourced<number>;
    incrementTokens: Sourced<number>;
    ttlSeconds: Sourced<number>;
  };
  families: { anthropic: string[]; openai: string[] };
}

/** A yes/no per model, by model-name prefix (the longest wins), with where it comes from. */
export interface ModelSwitch {
  source: string;
  checked: string;
  note?: string;
  default: boolean;
  byModel: Record<string, boolean>;
}

export interface PriceTable {
  models: Record<string, Omit<PriceRow, "model">>;
}

export type RuleFamily = "anthropic" | "openai" | "none";

/** The entry whose key is the longest prefix of `model` (so "claude-sonnet-4-5-20250929" finds "claude-sonnet-4-5"). */
export function byModelPrefix<T>(
  table: Record<string, T>,
  model: string,
): { key: string; value: T } | undefined {
  let best: { key: string; value: T } | undefined;
  for (const [key, value] of Object.entries(table)) {
    if (model.startsWith(key) && (!best || key.length > best.key.length)) best = { key, value };
  }
  return best;
}

export function ruleFamily(rules: CacheRules, model: string): RuleFamily {
  const name = model.toLowerCase();
  if (rules.families.anthropic.some((prefix) => name.startsWith(prefix))) return "anthropic";
  if (rules.families.openai.some((prefix) => name.startsWith(prefix))) return "openai";
  return "none";
}

export function minCacheableTokens(rules: CacheRules, model: string): number {
  const table = rules.anthropic.minCacheableTokens;
  return byModelPrefix(table.byModel, model)?.value ?? table.default;
}

/** What a model accepts mid-conversation (cache-rules.json), with the page that says so. */
export interface MidConversationSupport {
  system: boolean;
  toolChanges: boolean;
  /** The beta header a tool change needs. */
  toolChangesBeta?: string;
  source: string;
}

export function midConversationSupport(rules: CacheRules, model: string): MidConversationSupport {
  const { midConversationSystem: system, midConversationToolChanges: tools } = rules.anthropic;
  const anthropic = ruleFamily(rules, model) === "anthropic";
  const on = (table: ModelSwitch | undefined) =>
    anthropic && table !== undefined && (byModelPrefix(table.byModel, model)?.value ?? table.default);
  const systemOn = on(system);
  return {
    system: systemOn,
    // A tool change rides in a mid-conversation system message: no system message, no tool change.
    toolChanges: systemOn && on(tools),
    ...(tools ? { toolChangesBeta: tools.beta } : {}),
    source: system?.source ?? "server/cache/cache-rules.json",
  };
}

export function priceFor(prices: PriceTable, model: string): PriceRow | undefined {
  const found = byModelPrefix(prices.models, model);
  return found ? { model: found.key, ...found.value } : undefined;
}
