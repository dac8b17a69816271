export { Runner } from "./runner.ts";
export {
  DEFAULT_MAX_ITERATIONS,
  PERMISSION_EVALUATE_TIMEOUT_MS,
  RequestCounter,
  UNKNOWN_TOOL_LIMIT,
  type EnvironmentFacts,
  type PromptSources,
  type RunnerDependencies,
  type RunOptions,
  type RunOutcome,
} from "./types.ts";
export {
  parseSlashCommand,
  runSlashCommand,
  runUserMessage,
  type SlashCommand,
  type SlashDependencies,
} from "./slash.ts";
export { RECENT_MESSAGE_COUNT, isolatedContext, recentMessages, summarizeHistory } from "./history-window.ts";
