// The price formula, one for the server's cache prediction (server/cache) and the pages' cost figures
// (app/lib/cache-cost.ts): USD for token counts at a price row of prices.json (USD per million tokens).
// Cache writes are billed at the 5-minute rate, the one the playground writes at.

/** The rates of a price row the formula reads (server/protocol's PriceRow has these and its source). */
export interface PriceRates {
  input: number;
  output: number;
  cacheWrite5m: number;
  cacheRead: number;
}

export interface TokenCounts {
  /** Uncached input tokens. */
  inputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
  outputTokens?: number;
}

/** USD for the given token counts at `price`. */
export function costUsd(price: PriceRates, counts: TokenCounts): number {
  return (
    (counts.inputTokens * price.input +
      counts.cacheCreationInputTokens * price.cacheWrite5m +
      counts.cacheReadInputTokens * price.cacheRead +
      (counts.outputTokens ?? 0) * price.output) /
    1_000_000
  );
}
