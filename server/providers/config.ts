// Where keys and endpoints come from: environment variables first, then the settings file
// $HOME/.PseudoClaude/providers.json. Only this server process ever holds the keys; listProviders()
// says whether each provider is usable without revealing anything secret.
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ProviderInfo } from "../protocol/wire.ts";
import { ANTHROPIC_DEFAULT_BASE_URL, ANTHROPIC_DEFAULT_MODEL } from "./anthropic.ts";
import { OPENAI_DEFAULT_BASE_URL, OPENAI_DEFAULT_MODEL } from "./openai.ts";
import { isSecretFieldName, type SecretOrigin, type SecretRedactor } from "./redact.ts";

/** Environment variables that hold keys (redact.ts also reads them from process.env itself). */
const KEY_ENV_VARIABLES = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY"] as const;

export interface EndpointConfig {
  apiKey?: string;
  baseUrl: string;
  model: string;
  /** True when the base URL was set by the user (env or file) rather than the default. */
  customBaseUrl: boolean;
}

export interface ProvidersConfig {
  anthropic: EndpointConfig;
  openai: EndpointConfig;
  settingsPath: string;
  /** The settings file exists but could not be used; the message names the file and the problem. */
  settingsError?: string;
}

export interface LoadConfigOptions {
  env?: Record<string, string | undefined>;
  /** Home directory holding .PseudoClaude/ (defaults to os.homedir()). */
  home?: string;
  /**
   * The composition root's redactor: every configured key joins it (loading the configuration is how keys
   * become secrets everywhere). Absent: the configuration is only read.
   */
  secrets?: SecretRedactor;
}

interface FileEndpoint {
  apiKey?: string;
  baseUrl?: string;
  model?: string;
}

export function settingsFilePath(home: string = os.homedir()): string {
  return path.join(home, ".PseudoClaude", "providers.json");
}

function readEndpoint(section: unknown, name: string, file: string): FileEndpoint {
  if (section === undefined) return {};
  if (section === null || typeof section !== "object" || Array.isArray(section)) {
    throw new Error(
      `${file}: "${name}" must be an object like {"apiKey": "…", "baseUrl": "…", "model": "…"}`,
    );
  }
  const endpoint: FileEndpoint = {};
  for (const field of ["apiKey", "baseUrl", "model"] as const) {
    const value = (section as Record<string, unknown>)[field];
    if (value === undefined) continue;
    if (typeof value !== "string") throw new Error(`${file}: "${name}.${field}" must be a string`);
    endpoint[field] = value.trim();
  }
  return endpoint;
}

type Register = (secret: string | undefined, origin: SecretOrigin) => void;

function readSettingsFile(
  file: string,
  register: Register,
): { anthropic: FileEndpoint; openai: FileEndpoint; error?: string } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { anthropic: {}, openai: {} };
    return { anthropic: {}, openai: {}, error: `${file}: could not be read (${(error as Error).message})` };
  }
  try {
    const parsed: unknown = JSON.parse(text);
    registerSecretFields(parsed, file, register);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new Error(`${file}: must be a JSON object with "anthropic" and/or "openai" sections`);
    }
    const record = parsed as Record<string, unknown>;
    return {
      anthropic: readEndpoint(record.anthropic, "anthropic", file),
      openai: readEndpoint(record.openai, "openai", file),
    };
  } catch (error) {
    const message =
      error instanceof SyntaxError
        ? `${file}: not valid JSON (${describeJsonError(error.message)})`
        : (error as Error).message;
    return { anthropic: {}, openai: {}, error: message };
  }
}

/**
 * Every secret-named string in the settings file (apiKey, authToken, …, in any section, used or not,
 * valid file or not) is a key value to redact: a tool that prints the file must not show it.
 */
function registerSecretFields(value: unknown, file: string, register: Register, at = "", depth = 0): void {
  if (value === null || typeof value !== "object" || depth > 8) return;
  for (const [key, field] of Object.entries(value)) {
    const name = at ? `${at}.${key}` : key;
    if (typeof field === "string" && isSecretFieldName(key)) {
      const origin = { name, source: file };
      register(field, origin);
      register(field.trim(), origin);
    } else registerSecretFields(field, file, register, name, depth + 1);
  }
}

/**
 * V8's "Unexpected token 'l', ..."apiKey": local-key-"... is not valid JSON" quotes the file, and the
 * quoted part may be a piece of an unquoted key. The message shown to the browser keeps only the kind of
 * error (V8's position messages quote nothing and are kept whole).
 */
function describeJsonError(message: string): string {
  return message.includes(" is not valid JSON") ? "unexpected text where JSON was expected" : message;
}

function firstSet(...values: (string | undefined)[]): string | undefined {
  return values.find((value) => value !== undefined && value.trim() !== "")?.trim();
}

export function loadProvidersConfig(options: LoadConfigOptions = {}): ProvidersConfig {
  const env = options.env ?? process.env;
  const settingsPath = settingsFilePath(options.home ?? env.HOME ?? os.homedir());
  const register: Register = (secret, origin) => options.secrets?.register(secret, origin);
  const file = readSettingsFile(settingsPath, register);
  const anthropicBaseUrl = firstSet(env.ANTHROPIC_BASE_URL, file.anthropic.baseUrl);
  const openaiBaseUrl = firstSet(env.OPENAI_BASE_URL, file.openai.baseUrl);
  const config: ProvidersConfig = {
    anthropic: {
      apiKey: firstSet(env.ANTHROPIC_API_KEY, file.anthropic.apiKey),
      baseUrl: anthropicBaseUrl ?? ANTHROPIC_DEFAULT_BASE_URL,
      model: firstSet(env.PSEUDOCLAUDE_ANTHROPIC_MODEL, file.anthropic.model) ?? ANTHROPIC_DEFAULT_MODEL,
      customBaseUrl: anthropicBaseUrl !== undefined,
    },
    openai: {
      apiKey: firstSet(env.OPENAI_API_KEY, file.openai.apiKey),
      baseUrl: openaiBaseUrl ?? OPENAI_DEFAULT_BASE_URL,
      model: firstSet(env.PSEUDOCLAUDE_OPENAI_MODEL, file.openai.model) ?? OPENAI_DEFAULT_MODEL,
      customBaseUrl: openaiBaseUrl !== undefined,
    },
    settingsPath,
    settingsError: file.error,
  };
  // Every configured key, not only the one in use: the environment wins over the file, but a tool that
  // prints the file would still show the file's key.
  for (const variable of KEY_ENV_VARIABLES)
    register(env[variable]?.trim(), { name: variable, source: "the environment" });
  register(file.anthropic.apiKey, { name: "anthropic.apiKey", source: settingsPath });
  register(file.openai.apiKey, { name: "openai.apiKey", source: settingsPath });
  register(config.anthropic.apiKey, { name: "the Anthropic API key", source: "the configuration" });
  register(config.openai.apiKey, { name: "the OpenAI API key", source: "the configuration" });
  options.secrets?.refresh();
  return config;
}

/**
 * Registers every configured key value (environment and providers.json) for redaction without building
 * a provider: for entry points that may never create one (the scripted CLI, a server that only replays).
 */
export function registerConfiguredSecrets(options: LoadConfigOptions & { secrets: SecretRedactor }): void {
  loadProvidersConfig(options);
}

/** 127.0.0.1, ::1 or localhost: a server on this machine, so no data leaves it. */
export function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    return host === "localhost" || host === "::1" || /^127\./.test(host);
  } catch {
    return false;
  }
}

function withSettingsError(hint: string, config: ProvidersConfig): string {
  return config.settingsError ? `${hint} (${config.settingsError})` : hint;
}

/** What the UI may know about each provider: usable or not, why not, and the default model. No keys. */
export function listProviders(config: ProvidersConfig = loadProvidersConfig()): ProviderInfo[] {
  const anthropicConfigured = Boolean(config.anthropic.apiKey);
  // A custom base URL without a key is a local compatible server (Ollama, llama.cpp): usable as is.
  const openaiConfigured = Boolean(config.openai.apiKey) || config.openai.customBaseUrl;
  const providers: ProviderInfo[] = [
    {
      name: "scripted",
      configured: true,
      defaultModel: "scripted",
      hint: "plays a YAML scenario: deterministic, no network",
      offline: true,
    },
    {
      name: "router",
      configured: true,
      defaultModel: "description-router",
      hint: "description router — not a language model: loads the skill whose description best matches your message (word scores shown in the inspector), then plays its scenario; offline",
      offline: true,
    },
    {
      name: "manual",
      configured: true,
      defaultModel: "manual",
      hint: "you are the model: write each response in the browser",
      offline: true,
    },
    {
      name: "anthropic",
      configured: anthropicConfigured,
      defaultModel: config.anthropic.model,
      offline: isLoopbackUrl(config.anthropic.baseUrl),
    },
    {
      name: "openai",
      configured: openaiConfigured,
      defaultModel: config.openai.model,
      offline: isLoopbackUrl(config.openai.baseUrl),
    },
  ];
  const byName = (name: string) => providers.find((provider) => provider.name === name)!;
  if (!anthropicConfigured) {
    byName("anthropic").hint = withSettingsError(
      `set ANTHROPIC_API_KEY, or add "anthropic": {"apiKey": …} to ${config.settingsPath}`,
      config,
    );
  }
  if (!openaiConfigured) {
    byName("openai").hint = withSettingsError(
      "set OPENAI_API_KEY, or OPENAI_BASE_URL for a local server (e.g. http://127.0.0.1:11434/v1 for Ollama)",
      config,
    );
  } else if (!config.openai.apiKey) {
    byName("openai").hint = `no key: using the server at ${config.openai.baseUrl}`;
  }
  return providers;
}
