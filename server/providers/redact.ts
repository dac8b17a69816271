// Keys never reach the browser, the logs or the Raw pane. Everything a provider shows (payloads, error
// messages) goes through redactSecrets first; it replaces every known key value and anything shaped like
// an API key, even one we were never told about.

export const REDACTED = "[redacted]";

/** Environment variables whose values are secrets, wherever they show up. */
const SECRET_ENV_VARIABLES = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY"];

/** Object keys whose values are secrets whatever they contain (headers, settings). */
const SECRET_FIELD =
  /^(api[-_]?key|x-api-key|authorization|auth[-_]?token|proxy-authorization|password|secret)$/i;

/** `sk-…`, `sk-ant-…`, `sk-proj-…` (real ones are long; 20+ keeps words like "sk-learn" intact) and bearer tokens. */
const KEY_SHAPED = /\b(sk-[A-Za-z0-9_-]{20,})|(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g;

const registeredSecrets = new Set<string>();

/** Remember a key that came from somewhere other than the environment (settings file, CLI flag). */
export function registerSecret(secret: string | undefined): void {
  // Very short values would redact ordinary words; real keys are long.
  if (secret && secret.length >= 8) registeredSecrets.add(secret);
}

function knownSecrets(): string[] {
  const secrets = new Set(registeredSecrets);
  for (const variable of SECRET_ENV_VARIABLES) {
    const value = process.env[variable];
    if (value && value.length >= 8) secrets.add(value);
  }
  // Longest first, so a key that contains another is replaced whole.
  return [...secrets].sort((a, b) => b.length - a.length);
}

function redactString(text: string, secrets: string[]): string {
  let result = text;
  for (const secret of secrets) result = result.split(secret).join(REDACTED);
  return result.replace(KEY_SHAPED, (_match, skKey: string | undefined, bearer: string | undefined) =>
    skKey ? `sk-${REDACTED}` : `${bearer}${REDACTED}`,
  );
}

function redactValue(value: unknown, secrets: string[], seen: WeakSet<object>): unknown {
  if (typeof value === "string") return redactString(value, secrets);
  if (value === null || typeof value !== "object") return value;
  if (seen.has(value)) return "[circular]";
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, seen));
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    copy[key] =
      SECRET_FIELD.test(key) && field !== null && field !== undefined && field !== ""
        ? REDACTED
        : redactValue(field, secrets, seen);
  }
  return copy;
}

/**
 * A deep copy of `value` with every known key value, every `sk-…`-like string, every bearer token and
 * every secret-named field (apiKey, authorization, x-api-key, …) replaced by "[redacted]".
 */
export function redactSecrets<T>(value: T): T {
  return redactValue(value, knownSecrets(), new WeakSet()) as T;
}
