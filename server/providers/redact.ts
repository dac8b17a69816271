// Keys never reach the browser, the logs or the Raw pane. Everything a provider shows (payloads, error
// messages) goes through SecretRedactor.redactSecrets first; it replaces every known key value and anything
// shaped like an API key, even one we were never told about. Tool output, session events, exports and the
// CLI go through `redact` (of a SecretRedactor or a session's SecretScope): the same values and key shapes,
// but no field-name rule (a tool schema may well have a "password" property) and no copy at all when there
// is nothing to redact.
//
// Who decides what is a secret (SECURITY S21): provider keys (providers.json, the key variables, a CLI
// flag) are secrets everywhere, for every session of one composition root (its SecretRedactor: the
// server's, a CLI command's, a test's — never a module registry shared by all of them). A credential from a
// workdir's configuration (an MCP server's `env` or `headers` entry named like a key) is a secret only in
// that workdir's session (a SecretScope), and only when its value looks like one (looksLikeSecret):
// otherwise a trusted folder could make ordinary text — a command, a file name — vanish from other
// sessions' logs. An approval card never hides part of what it asks about: `mark` names each secret in
// place, `[secret: NAME]`, and lists where it came from, so the card can warn.
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

/** Which secret a value is, for an approval card: `SERVICE_TOKEN`, from `env of MCP server "x" in …`. */
export interface SecretOrigin {
  name: string;
  source: string;
}

const UNNAMED: SecretOrigin = { name: "a configured key", source: "the playground's configuration" };
const KEY_SHAPED_ORIGIN: SecretOrigin = { name: "an API key", source: "text shaped like an API key (sk-…)" };
const BEARER_ORIGIN: SecretOrigin = { name: "a bearer token", source: "text shaped like a bearer token" };

/** True for a field name whose value is a secret (apiKey, authorization, x-api-key, …). */
export function isSecretFieldName(name: string): boolean {
  return SECRET_FIELD.test(name);
}

/** Letters and digits a value needs before it can look like a secret. */
const MIN_RANDOM_CHARACTERS = 16;

/**
 * Whether a configured value looks like a credential rather than text: no blanks; at least 16 letters and
 * digits; about 3 bits of entropy per character or more; and lower case, capitals and digits alternating
 * as in random text (at least 3 changes in 10 characters). Random tokens (hex, base62, base64, UUIDs) pass;
 * commands, paths, URLs, words and CamelCase names do not.
 */
export function looksLikeSecret(value: string): boolean {
  const text = value.trim();
  if (/\s/.test(text)) return false;
  const core = text.replace(/[^A-Za-z0-9]/g, "");
  if (core.length < MIN_RANDOM_CHARACTERS) return false;
  const counts = new Map<string, number>();
  for (const char of core) counts.set(char, (counts.get(char) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) entropy -= (count / core.length) * Math.log2(count / core.length);
  const kind = (char: string) => (/[a-z]/.test(char) ? 0 : /[A-Z]/.test(char) ? 1 : 2);
  let changes = 0;
  for (let index = 1; index < core.length; index++)
    if (kind(core[index]!) !== kind(core[index - 1]!)) changes++;
  return entropy >= 3 && changes / (core.length - 1) >= 0.3;
}

interface KnownSecrets {
  version: number;
  environment: string;
  secrets: string[];
  /** Each value (and its JSON-escaped form) → which secret it is. */
  origins: Map<string, SecretOrigin>;
  /** The values it was built from. */
  entries: ReadonlyMap<string, SecretOrigin>;
  /** One pass over a text: any known value or anything that may be key-shaped (10× faster than a loop of includes). */
  detector: RegExp;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function buildKnown(entries: Map<string, SecretOrigin>, version: number, environment: string): KnownSecrets {
  const origins = new Map<string, SecretOrigin>();
  for (const [value, origin] of entries) {
    if (value.length < MIN_SECRET_LENGTH) continue;
    origins.set(value, origin);
    origins.set(JSON.stringify(value).slice(1, -1), origin);
  }
  const sorted = [...origins.keys()].sort((a, b) => b.length - a.length);
  const detector = new RegExp([...sorted.map(escapeRegExp), MAYBE_KEY_SHAPED_SOURCE].join("|"));
  return { version, environment, secrets: sorted, origins, entries, detector };
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

/** JSONL text with every secret `known` holds redacted (SecretRedactor.redactJsonLines). */
function redactJsonLinesWith(text: string, known: KnownSecrets): string {
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

/** `text` with each known secret (and key-shaped string) replaced by `[secret: NAME]`; what it named. */
function markString(text: string, known: KnownSecrets, found: Map<string, SecretOrigin>): string {
  let result = text;
  for (const secret of known.secrets) {
    if (!result.includes(secret)) continue;
    const origin = known.origins.get(secret)!;
    found.set(`${origin.name}\0${origin.source}`, origin);
    result = result.split(secret).join(`[secret: ${origin.name}]`);
  }
  if (!mayBeKeyShaped(result)) return result;
  return result.replace(KEY_SHAPED, (_match, skKey: string | undefined, bearer: string | undefined) => {
    const origin = skKey ? KEY_SHAPED_ORIGIN : BEARER_ORIGIN;
    found.set(`${origin.name}\0${origin.source}`, origin);
    return skKey ? `[secret: ${origin.name}]` : `${bearer}[secret: ${origin.name}]`;
  });
}

function markValue(value: unknown, known: KnownSecrets, found: Map<string, SecretOrigin>): unknown {
  if (typeof value === "string") return known.detector.test(value) ? markString(value, known, found) : value;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => markValue(item, known, found));
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [
      known.detector.test(key) ? markString(key, known, found) : key,
      markValue(field, known, found),
    ]),
  );
}

/** What `mark` returns: the value with each secret named in place, and the secrets it named. */
export interface MarkedSecrets<T> {
  value: T;
  secrets: SecretOrigin[];
}

/**
 * The provider keys every session redacts: those of the environment's key variables, and those registered
 * from elsewhere (providers.json, a CLI flag, a provider's options). One instance per composition root
 * (server/index.ts, a CLI command, a test), passed down to the providers, the sessions (each SecretScope
 * starts from it), the exports and the logs — not a module registry, so keys one command or test registers
 * are never redacted by another one in the same process.
 */
export class SecretRedactor {
  private readonly registered = new Map<string, SecretOrigin>();
  private version = 0;
  private cached: KnownSecrets | undefined;

  /** `env`: where the key variables are read (default the process's environment). */
  constructor(private readonly env: () => Readonly<Record<string, string | undefined>> = () => process.env) {}

  /**
   * Remember a key, for every session, that came from somewhere other than the environment (providers.json,
   * a CLI flag). Only for the user's own keys: configuration a workdir supplies goes to its SecretScope.
   */
  register(secret: string | undefined, origin: SecretOrigin = UNNAMED): void {
    if (!secret || secret.length < MIN_SECRET_LENGTH || this.registered.has(secret)) return;
    this.registered.set(secret, origin);
    this.version++;
  }

  private environmentSignature(): string {
    const env = this.env();
    return SECRET_ENV_VARIABLES.map((variable) => env[variable] ?? "").join("\0");
  }

  /**
   * @internal Every key value to replace, longest first (so a key that contains another is replaced
   * whole), each also in its JSON-escaped form (how `cat providers.json` or a JSON log line shows a key with
   * `"` or `\`). Cached, because it runs for every session event: the environment is read again when a
   * secret is registered, on refresh(), and by the provider path (`fresh`), which is rare.
   */
  known(fresh = false): KnownSecrets {
    const cached = this.cached;
    if (cached && cached.version === this.version && !fresh) return cached;
    const environment = this.environmentSignature();
    if (cached && cached.version === this.version && cached.environment === environment) return cached;
    const entries = new Map(this.registered);
    const env = this.env();
    for (const variable of SECRET_ENV_VARIABLES) {
      const value = env[variable];
      if (value && !entries.has(value)) entries.set(value, { name: variable, source: "the environment" });
    }
    this.cached = buildKnown(entries, this.version, environment);
    return this.cached;
  }

  /** Reads the key variables of the environment again (loading the providers configuration does this). */
  refresh(): void {
    this.known(true);
  }

  /**
   * A deep copy of `value` with every known key value, every `sk-…`-like string, every bearer token and
   * every secret-named field (apiKey, authorization, x-api-key, …) replaced by "[redacted]".
   */
  redactSecrets<T>(value: T): T {
    return redactValue(value, this.known(true).secrets, new WeakSet()) as T;
  }

  /** Whether `text` (plain or JSON) may hold a configured key value or a key-shaped string. Cheap. */
  mayContain(text: string): boolean {
    return this.known().detector.test(text);
  }

  /**
   * `value` with every configured key value (environment and registered), every `sk-…`-like string and
   * every bearer token replaced by "[redacted]". The very same object when there is nothing to replace;
   * otherwise a copy that shares every untouched branch. For tool results, session events and CLI output.
   */
  redact<T>(value: T): T {
    return redactKnownValue(value, this.known()) as T;
  }

  /**
   * JSONL text (a session log as exported) with every key redacted: a line that holds one is parsed,
   * redacted and written again; a line that is not valid JSON is redacted as text.
   */
  redactJsonLines(text: string): string {
    return redactJsonLinesWith(text, this.known());
  }

  /**
   * For an approval card, which must never hide part of what it asks about: a copy of `value` where each
   * known secret (provider keys, and the scope's own) reads `[secret: NAME]` and a key-shaped string
   * `[secret: an API key]`, with the list of secrets named, so the card can say which and warn.
   */
  mark<T>(value: T): MarkedSecrets<T> {
    return markWith(value, this.known());
  }
}

function markWith<T>(value: T, known: KnownSecrets): MarkedSecrets<T> {
  const found = new Map<string, SecretOrigin>();
  const marked = markValue(value, known, found) as T;
  return { value: marked, secrets: [...found.values()] };
}

/**
 * One session's secrets: the provider keys every session has, plus credentials from the configuration of
 * that session's workdir (its MCP servers' `env` and `headers`), which no other session redacts.
 */
export class SecretScope {
  private readonly own = new Map<string, SecretOrigin>();

  /** `redactor`: the composition root's provider keys, which every session redacts. */
  constructor(readonly redactor: SecretRedactor) {}
  private ownVersion = 0;
  private cachedKnown: { global: KnownSecrets; version: number; known: KnownSecrets } | undefined;

  /**
   * Adds a credential from configuration when it looks like one (looksLikeSecret); returns whether it
   * did. Ordinary text (a command, a path, a word) never becomes a secret, here or anywhere else.
   */
  add(value: string, origin: SecretOrigin): boolean {
    const trimmed = value.trim();
    if (!looksLikeSecret(trimmed)) return false;
    for (const candidate of new Set([value, trimmed])) {
      if (this.own.has(candidate)) continue;
      this.own.set(candidate, origin);
      this.ownVersion++;
    }
    return true;
  }

  /** @internal The provider keys and this scope's own, ready to scan. */
  known(): KnownSecrets {
    const global = this.redactor.known();
    if (this.own.size === 0) return global;
    const cached = this.cachedKnown;
    if (cached && cached.global === global && cached.version === this.ownVersion) return cached.known;
    // A provider key keeps its own name when a workdir's configuration repeats it.
    const entries = new Map([...this.own, ...global.entries]);
    const known = buildKnown(entries, global.version, global.environment);
    this.cachedKnown = { global, version: this.ownVersion, known };
    return known;
  }

  /** Whether `text` (plain or JSON) may hold one of this session's secrets or a key-shaped string. */
  mayContain(text: string): boolean {
    return this.known().detector.test(text);
  }

  /** SecretRedactor.redact with this session's secrets too. */
  redact<T>(value: T): T {
    return redactKnownValue(value, this.known()) as T;
  }

  /** SecretRedactor.mark with this session's secrets too. */
  mark<T>(value: T): MarkedSecrets<T> {
    return markWith(value, this.known());
  }
}
