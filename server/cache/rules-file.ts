// Reads the cache rules and the price table: the repo's JSON (next to this file), then the user's edited
// copies, which win field by field (rules) or model by model (prices). A broken override is a warning
// naming the file and what is wrong, and the repo's values stay in force: the server never stops for it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { errorMessage } from "../errors/index.ts";
import { CacheLedger } from "./cache-ledger.ts";
import { CacheModel } from "./cache-model.ts";
import type { CacheRules, PriceTable } from "./rules.ts";

export const RULES_FILE = new URL("./cache-rules.json", import.meta.url);
export const PRICES_FILE = new URL("./prices.json", import.meta.url);

export interface CacheConfig {
  rules: CacheRules;
  prices: PriceTable;
  /** The files in force, in order (the repo's first). */
  files: string[];
  warnings: string[];
}

export interface CacheConfigOptions {
  /** Where `.PseudoClaude/` lives; its cache-rules.json / prices.json override the repo's. */
  home?: string;
  /** PSEUDOCLAUDE_CACHE_RULES / PSEUDOCLAUDE_PRICES name other override files. */
  env?: Record<string, string | undefined>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Objects merge key by key; anything else (numbers, arrays) is replaced. */
function merge(base: unknown, override: unknown): unknown {
  if (!isObject(base) || !isObject(override)) return override;
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) result[key] = merge(base[key], value);
  return result;
}

function readJson(file: string): { value?: unknown; missing?: true; problem?: string } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { missing: true };
    return { problem: `cannot read it: ${errorMessage(error)}` };
  }
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return {
      problem: `not valid JSON (${errorMessage(error)}); fix it or delete it to use the built-in table`,
    };
  }
}

function readOverride(
  file: string | undefined,
  check: (value: unknown) => string | undefined,
  config: CacheConfig,
): unknown {
  if (!file) return undefined;
  const read = readJson(file);
  if (read.missing) return undefined;
  const problem = read.problem ?? check(read.value);
  if (problem) {
    config.warnings.push(`${file}: ${problem}`);
    return undefined;
  }
  config.files.push(file);
  return read.value;
}

function checkPrices(value: unknown): string | undefined {
  if (!isObject(value) || !isObject(value.models)) return 'expected {"models": {"<model>": {…}}}';
  for (const [model, row] of Object.entries(value.models)) {
    if (!isObject(row)) return `models.${model} must be an object`;
    for (const field of ["input", "output", "cacheWrite5m", "cacheWrite1h", "cacheRead"]) {
      if (typeof row[field] !== "number" || (row[field] as number) < 0) {
        return `models.${model}.${field} must be a number ≥ 0 (USD per million tokens)`;
      }
    }
  }
  return undefined;
}

function checkRules(value: unknown): string | undefined {
  return isObject(value) ? undefined : "expected a JSON object shaped like server/cache/cache-rules.json";
}

export function loadCacheConfig(options: CacheConfigOptions = {}): CacheConfig {
  const env = options.env ?? process.env;
  const rules = JSON.parse(readFileSync(RULES_FILE, "utf8")) as CacheRules;
  const prices = JSON.parse(readFileSync(PRICES_FILE, "utf8")) as PriceTable;
  const config: CacheConfig = {
    rules,
    prices,
    files: [RULES_FILE.pathname, PRICES_FILE.pathname],
    warnings: [],
  };
  const home = options.home ? path.join(options.home, ".PseudoClaude") : undefined;
  const rulesOverride = readOverride(
    env.PSEUDOCLAUDE_CACHE_RULES || (home && path.join(home, "cache-rules.json")),
    checkRules,
    config,
  );
  if (rulesOverride) config.rules = merge(rules, rulesOverride) as CacheRules;
  const pricesOverride = readOverride(
    env.PSEUDOCLAUDE_PRICES || (home && path.join(home, "prices.json")),
    checkPrices,
    config,
  );
  if (pricesOverride) {
    config.prices = { models: { ...prices.models, ...(pricesOverride as PriceTable).models } };
  }
  return config;
}

/** A fresh cache model (one per session or CLI run) under the loaded rules. */
export function createCacheModel(config: CacheConfig): CacheModel {
  const overridden = config.files.slice(2);
  const source = `server/cache/cache-rules.json${overridden.length > 0 ? ` + ${overridden.join(" + ")}` : ""}`;
  return new CacheModel(config.rules, config.prices, source);
}

/** A fresh cache ledger (one per session or CLI run) under the loaded rules (TTLs, what models accept). */
export function createCacheLedger(config: CacheConfig): CacheLedger {
  return new CacheLedger(config.rules);
}
