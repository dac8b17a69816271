// Keys never reach the browser, the logs or the Raw pane. Everything a provider shows (payloads, error
// messages) goes through redactSecrets first; it replaces every known key value and anything shaped like
// an API key, even one we were never told about. Tool output, session events, exports and the CLI go
// through redactKnownSecrets: the same values and key shapes, but no field-name rule (a tool schema may
// well have a "password" property) and no copy at all when there is nothing to redact.

export const REDACTED = "[redacted]";

/** Environment variables whose values are secrets, wherever they show up. */
const SECRET_ENV_VARIABLES = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY"];

/** Object keys whose values are secrets whatever they contain (headers, settings). */
const SECRET_FIELD =
  /^(api[-_]?key|x-api-key|authorization|auth[-_]?token|proxy-authorization|password|secret)$/i;

/** `sk-…`, `sk-ant-…`, `sk-proj-…` (real ones are long; 20+ keeps words like "sk-learn" intact) and bearer tokens. */
const KEY_SHAPED = /\b(sk-[A-Za-z0-9_-]{20,})|(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g;

/**
 * A superset of KEY_SHAPED that also holds inside JSON text, where `\n` before `sk-` hides the word
 * boundary: a hit only means "look closer".
 */
const MAYBE_KEY_SHAPED = /sk-[A-Za-z0-9_-]{20}/;
const MAYBE_KEY_SHAPED_SOURCE = "sk-[A-Za-z0-9_-]{20}|Bearer";

/** Values shorter than this are never treated as keys: they would redact ordinary words. */
const MIN_SECRET_LENGTH = 8;

const registeredSecrets = new Set<string>();
let registeredVersion = 0;

/** True for a field name whose value is a secret (apiKey, authorization, x-api-key, …). */
export function isSecretFieldName(name: string): boolean {
  return SECRET_FIELD.test(name);
}

/** Remember a key that came from somewhere other than the environment (settings file, CLI flag). */
export function registerSecret(secret: string | undefined): void {
  if (!secret || secret.length < MIN_SECRET_LENGTH || registeredSecrets.has(secret)) return;
  registeredSecrets.add(secret);
  registeredVersion++;
}

interface KnownSecrets {
  version: number;
  environment: string;
  secrets: string[];
  /** One pass over a text: any known value or anything that may be key-shaped (10× faster than a loop of includes). */
  detector: RegExp;
}

let cached: KnownSecrets | undefined;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function environmentSignature(): string {
  return SECRET_ENV_VARIABLES.map((variable) => process.env[variable] ?? "").join("\0");
}

/**
 * Every key value to replace, longest first (so a key that contains another is replaced whole), each
 * also in its JSON-escaped form (how `cat providers.json` or a JSON log line shows a key with `"` or `\`).
 * Cached, because it runs for every session event: the environment is read again when a secret is
 * registered, on refreshKnownSecrets(), and by the provider path (`fresh`), which is rare.
 */
function currentSecrets(fresh = false): KnownSecrets {
  if (cached && cached.version === registeredVersion && !fresh) return cached;
  const environment = environmentSignature();
  if (cached && cached.version === registeredVersion && cached.environment === environment) return cached;
  const secrets = new Set<string>();
  const add = (value: string | undefined) => {
    if (!value || value.length < MIN_SECRET_LENGTH) return;
    secrets.add(value);
    secrets.add(JSON.stringify(value).slice(1, -1));
  };
  for (const secret of registeredSecrets) add(secret);
  for (const variable of SECRET_ENV_VARIABLES) add(process.env[variable]);
  const sorted = [...secrets].sort((a, b) => b.length - a.length);
  const detector = new RegExp([...sorted.map(escapeRegExp), MAYBE_KEY_SHAPED_SOURCE].join("|"));
  cached = { version: registeredVersion, environment, secrets: sorted, detector };
  return cached;
}

function knownSecrets(fresh = false): string[] {
  return currentSecrets(fresh).secrets;
}

/** Reads the key variables of the environment again (loading the providers configuration does this). */
export function refreshKnownSecrets(): void {
  knownSecrets(true);
}

function mayBeKeyShaped(text: string): boolean {
  return text.includes("Bearer") || (text.includes("sk-") && MAYBE_KEY_SHAPED.test(text));
}

function redactString(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (result.includes(secret)) result = result.split(secret).join(REDACTED);
  }
  if (!mayBeKeyShaped(result)) return result;
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
  return redactValue(value, knownSecrets(true), new WeakSet()) as T;
}

/** Copy-on-write: returns `value` itself when nothing inside it changes. */
function redactKnownValue(value: unknown, known: KnownSecrets): unknown {
  if (typeof value === "string") {
    return known.detector.test(value) ? redactString(value, known.secrets) : value;
  }
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const next = redactKnownValue(value[index], known);
      if (next !== value[index]) (copy ??= value.slice())[index] = next;
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const [key, field] of Object.entries(value)) {
    const nextKey = known.detector.test(key) ? redactString(key, known.secrets) : key;
    const next = redactKnownValue(field, known);
    if (next === field && nextKey === key) continue;
    copy ??= { ...(value as Record<string, unknown>) };
    if (nextKey !== key) delete copy[key];
    copy[nextKey] = next;
  }
  return copy ?? value;
}

/** Whether `text` (plain or JSON) may hold a configured key value or a key-shaped string. Cheap. */
export function mayContainSecret(text: string): boolean {
  return currentSecrets().detector.test(text);
}

/**
 * `value` with every configured key value (environment and registered), every `sk-…`-like string and
 * every bearer token replaced by "[redacted]". The very same object when there is nothing to replace;
 * otherwise a copy that shares every untouched branch. For tool results, session events and CLI output.
 */
export function redactKnownSecrets<T>(value: T): T {
  return redactKnownValue(value, currentSecrets()) as T;
}

/**
 * JSONL text (a session log as exported) with every key redacted: a line that holds one is parsed,
 * redacted and written again; a line that is not valid JSON is redacted as text.
 */
export function redactJsonLines(text: string): string {
  const known = currentSecrets();
  if (!known.detector.test(text)) return text;
  return text
    .split("\n")
    .map((line) => {
      if (!known.detector.test(line)) return line;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        return redactString(line, known.secrets); // a damaged line: its text is all there is
      }
      const redacted = redactKnownValue(record, known);
      return redacted === record ? line : JSON.stringify(redacted);
    })
    .join("\n");
}
