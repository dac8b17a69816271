// The usage line under the token bar: what the provider reported, or, for the scripted model, an
// estimate that says it is one (a prediction is never shown as a measurement).
import type { Usage } from "../../server/protocol/index.ts";

export function usageText(usage: Usage): string {
  const parts = [
    usage.inputTokens !== undefined && `input ${usage.inputTokens}`,
    usage.outputTokens !== undefined && `output ${usage.outputTokens}`,
    usage.cacheReadInputTokens !== undefined && `cache read ${usage.cacheReadInputTokens}`,
    usage.cacheCreationInputTokens !== undefined && `cache write ${usage.cacheCreationInputTokens}`,
  ]
    .filter(Boolean)
    .join(", ");
  if (usage.source === "estimate") return `estimated ${parts} (${usage.estimate ?? "not a provider report"})`;
  return `provider reports ${parts}`;
}
