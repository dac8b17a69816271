// The one place that turns a provider name (from the UI's session settings or the CLI's --provider) into
// a Provider. Explicit options win over the configuration (env vars, then ~/.PseudoClaude/providers.json).
import type { SecretRedactor } from "./redact.ts";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { PlaygroundError, errorMessage } from "../errors/index.ts";
import type { AwaitingInputListener, Provider } from "./types.ts";
import { AnthropicProvider } from "./anthropic.ts";
import { OpenAiProvider } from "./openai.ts";
import { ManualProvider } from "./manual.ts";
import { ScriptedProvider, type ScriptedProviderOptions } from "./scripted.ts";
import { RouterProvider } from "./router.ts";
import type { Scenario } from "./scenario.ts";
import { loadScenario, loadScenarioDirectory } from "./scenario.ts";
import { loadProvidersConfig, type ProvidersConfig } from "./config.ts";
import type { RetryPolicy } from "./retry.ts";

export type {
  AwaitingInput,
  AwaitingInputListener,
  InputReply,
  InputReplyResult,
  ModelRequest,
  Provider,
  ProviderEvent,
} from "./types.ts";
export { AnthropicProvider } from "./anthropic.ts";
export { OpenAiProvider } from "./openai.ts";
export { ManualProvider, type ManualResponse, type ManualRespondResult } from "./manual.ts";
export { ScriptedProvider } from "./scripted.ts";
export { RouterProvider, ROUTER_MODEL } from "./router.ts";
export { loadScenario, loadScenarioDirectory } from "./scenario.ts";
export { listProviders, loadProvidersConfig, isLoopbackUrl, type ProvidersConfig } from "./config.ts";
export { SecretRedactor, SecretScope } from "./redact.ts";

export const PROVIDER_NAMES = ["scripted", "router", "manual", "anthropic", "openai"] as const;

export interface CreateProviderOptions {
  name: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  /** Defaults to loadProvidersConfig() (env vars, then the settings file). */
  config?: ProvidersConfig;
  retry?: Partial<RetryPolicy>;
  maxTokens?: number;
  /** scripted: a scenario file or a folder of them (relative paths resolve against scenarioRoot). */
  scenario?: string;
  scenarioRoot?: string;
  scripted?: ScriptedProviderOptions;
  /** manual: told when a request waits for the person in the browser (with the hook for their reply). */
  onAwaitingInput?: AwaitingInputListener;
  /** The composition root's provider keys (the provider's key joins them; its payloads are redacted). */
  secrets?: SecretRedactor;
}

/** A scenario file, or every scenario of a folder (relative paths resolve against scenarioRoot). */
export async function loadScenarios(scenario: string, scenarioRoot?: string): Promise<Scenario[]> {
  const location = path.resolve(scenarioRoot ?? process.cwd(), scenario);
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(location)).isDirectory();
  } catch (error) {
    throw new PlaygroundError(
      "invalid_scenario",
      `${location}: cannot read the scenario: ${errorMessage(error)}`,
      {
        file: location,
      },
    );
  }
  return isDirectory ? loadScenarioDirectory(location) : [await loadScenario(location)];
}

/** The router's scenarios: like the scripted model's, but a folder without any is simply none. */
async function routerScenarios(scenario: string, scenarioRoot?: string): Promise<Scenario[]> {
  const location = path.resolve(scenarioRoot ?? process.cwd(), scenario);
  const isDirectory = await stat(location).then(
    (found) => found.isDirectory(),
    () => false,
  );
  if (isDirectory && !(await readdir(location)).some((entry) => /\.ya?ml$/i.test(entry))) return [];
  return loadScenarios(scenario, scenarioRoot);
}

async function createScripted(options: CreateProviderOptions): Promise<Provider> {
  if (!options.scenario) {
    throw new PlaygroundError(
      "invalid_scenario",
      "the scripted provider needs a scenario file or folder (--scenario FILE)",
    );
  }
  const scenarios = await loadScenarios(options.scenario, options.scenarioRoot);
  return new ScriptedProvider(scenarios.length === 1 ? scenarios[0] : scenarios, {
    model: options.model,
    ...options.scripted,
  });
}

/**
 * Builds the named provider. Throws PlaygroundError (`provider_error`) when it cannot be used at all —
 * an unknown name, or Anthropic without a key — with the message saying what to set.
 */
export async function createProvider(options: CreateProviderOptions): Promise<Provider> {
  switch (options.name) {
    case "scripted":
      return createScripted(options);
    case "router":
      // Offline, not a language model: the scenarios only continue a skill once it is loaded.
      return new RouterProvider({
        scenarios: options.scenario ? await routerScenarios(options.scenario, options.scenarioRoot) : [],
        ...(options.scripted?.chunkDelayMs ? { chunkDelayMs: options.scripted.chunkDelayMs } : {}),
      });
    case "manual":
      return new ManualProvider({
        onAwaitingInput: options.onAwaitingInput,
        ...(options.secrets ? { secrets: options.secrets } : {}),
      });
    case "anthropic": {
      const endpoint = (
        options.config ?? loadProvidersConfig(options.secrets ? { secrets: options.secrets } : {})
      ).anthropic;
      const apiKey = options.apiKey || endpoint.apiKey;
      if (!apiKey) {
        throw new PlaygroundError(
          "provider_error",
          'the anthropic provider needs an API key: set ANTHROPIC_API_KEY, or add "anthropic": {"apiKey": …} to ~/.PseudoClaude/providers.json',
        );
      }
      return new AnthropicProvider({
        apiKey,
        model: options.model || endpoint.model,
        baseUrl: options.baseUrl || endpoint.baseUrl,
        maxTokens: options.maxTokens,
        retry: options.retry,
        ...(options.secrets ? { secrets: options.secrets } : {}),
      });
    }
    case "openai": {
      const endpoint = (
        options.config ?? loadProvidersConfig(options.secrets ? { secrets: options.secrets } : {})
      ).openai;
      return new OpenAiProvider({
        apiKey: options.apiKey || endpoint.apiKey,
        model: options.model || endpoint.model,
        baseUrl: options.baseUrl || endpoint.baseUrl,
        maxTokens: options.maxTokens,
        retry: options.retry,
        ...(options.secrets ? { secrets: options.secrets } : {}),
      });
    }
    default:
      throw new PlaygroundError(
        "provider_error",
        `unknown provider "${options.name}": use one of ${PROVIDER_NAMES.join(", ")}`,
      );
  }
}
