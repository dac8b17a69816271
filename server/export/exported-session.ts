// A saved session read for export: the log's header and events as format 3 reads them (requests by
// reference to their blobs: server/protocol/request-model.ts), with no configured key, key-shaped string
// or server token left in them. The one place the CLI's `export` and the browser's export menu read a
// session log from.
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { PlaygroundError, errorMessage } from "../errors/index.ts";
import type { SessionEvent } from "../protocol/wire.ts";
import { registerConfiguredSecrets } from "../providers/config.ts";
import type { SecretRedactor } from "../providers/redact.ts";
import { rewriteEvents } from "../session/request-writer.ts";
import { parseSessionLog, type LogHeader } from "../session/session-log.ts";
import { SessionSummaryFold } from "../session/session-summary.ts";
import { isSessionId, sessionsDirectory } from "../session/session-hub.ts";

export interface ExportedEvent {
  seq: number;
  at: string;
  event: SessionEvent;
}

export interface ExportedSession {
  header: LogHeader;
  events: ExportedEvent[];
  /** Damaged parts of the log that were skipped (file, line, reason). */
  warnings: string[];
  /** The skipped lines' text, redacted, each after the seq it followed (the JSONL export keeps them). */
  skipped: { afterSeq: number; text: string }[];
}

/** `#token=<64 hex>` and `?token=<64 hex>`: the server's start token, should a log or a message quote it. */
const SERVER_TOKEN = /([#?&]token=)[0-9a-f]{64}/g;

const SERVER_TOKEN_ANYWHERE = new RegExp(SERVER_TOKEN.source);

/** Every string in `value` with the server token shapes replaced. */
export function redactServerTokens(text: string): string {
  return text.replace(SERVER_TOKEN, "$1[redacted]");
}

function redactTokensDeep<T>(value: T): T {
  const json = JSON.stringify(value);
  if (!SERVER_TOKEN.test(json)) return value;
  SERVER_TOKEN.lastIndex = 0;
  return JSON.parse(redactServerTokens(json)) as T;
}

/**
 * A session's id from what a user has at hand: its full id, or the short id the session picker shows (the
 * id's last part) when exactly one log ends with it; several are named so the user can pick one.
 */
async function fullSessionId(home: string, id: string): Promise<string> {
  let names: string[];
  try {
    names = await readdir(sessionsDirectory(home));
  } catch {
    return id; // No sessions folder: the read below says so.
  }
  if (names.includes(`${id}.jsonl`)) return id;
  const matches = names.filter((name) => name.endsWith(`-${id}.jsonl`)).map((name) => name.slice(0, -6));
  if (matches.length > 1)
    throw new PlaygroundError(
      "invalid_arguments",
      `"${id}" is the end of ${matches.length} session ids: ${matches.join(", ")}; give the full one`,
    );
  return matches[0] ?? id;
}

/** The log of session `id` under `<home>/.PseudoClaude/playground/sessions/`, as `parseExportedLog` reads it. */
/**
 * `secrets`: the composition root's provider keys; the keys configured under `home` join them first, so
 * they are redacted even when no provider was built in this process.
 */
export async function readExportedSession(
  home: string,
  id: string,
  secrets: SecretRedactor,
): Promise<ExportedSession> {
  if (!isSessionId(id))
    throw new PlaygroundError("invalid_arguments", `"${id.slice(0, 80)}" is not a session id`);
  const file = path.join(sessionsDirectory(home), `${await fullSessionId(home, id)}.jsonl`);
  let data: Buffer;
  try {
    data = await readFile(file);
  } catch (error) {
    throw new PlaygroundError(
      "not_found",
      `no session "${id}" (cannot read ${file}: ${errorMessage(error)})`,
    );
  }
  // Keys in providers.json are redacted even when no provider was built in this process.
  registerConfiguredSecrets({ home, secrets });
  return parseExportedLog(data, file, secrets);
}

/** Whether any event holds a key or the server token (most logs hold none: they are then kept as read). */
function holdsSecret(events: readonly ExportedEvent[], secrets: SecretRedactor): boolean {
  return events.some((record) => {
    const json = JSON.stringify(record.event);
    return secrets.mayContain(json) || SERVER_TOKEN_ANYWHERE.test(json);
  });
}

/**
 * Every run with the user message it answers. A branch's first run continues the conversation copied from
 * its origin and adds no message of its own (`continues`, an empty `userMessage`); the message it answers
 * is that copy's last user message. Filled here, in the one place exports read a log, so no export shows an
 * empty message or records one for a replay to match (HTML, scenario and trace alike).
 */
export function withContinuedMessages(events: ExportedEvent[]): ExportedEvent[] {
  let lastUserMessage: string | undefined;
  return events.map((record) => {
    const { event } = record;
    if (event.type === "history_appended" && event.message.role === "user")
      lastUserMessage = event.message.content;
    if (event.type !== "run_started" || !event.continues || event.userMessage !== "") return record;
    if (lastUserMessage === undefined) return record;
    return { ...record, event: { ...event, userMessage: lastUserMessage } };
  });
}

/**
 * Parses and redacts one session log's bytes. A blob's hash names its bytes, so a log that holds a key is
 * not edited in place: its events are written again, redacted (request-writer.ts rewriteEvents).
 */
export function parseExportedLog(data: Buffer, file: string, secrets: SecretRedactor): ExportedSession {
  const loaded = parseSessionLog(data, file);
  if (!loaded.header)
    throw new PlaygroundError("io_error", `${file} has no readable header record; it cannot be exported`);
  const read = loaded.events.map((record) => ({ seq: record.seq, at: record.at, event: record.event }));
  const events = withContinuedMessages(
    holdsSecret(read, secrets)
      ? rewriteEvents(read, (event) => redactTokensDeep(secrets.redact(event)))
      : read,
  );
  // The title the session list shows: the first user message replaces the header's untitled one.
  const { id, createdAt, settings, title } = loaded.header;
  const fold = new SessionSummaryFold({ id, createdAt, settings, title });
  for (const record of loaded.events) fold.observe(record.event);
  return {
    header: redactTokensDeep(secrets.redact({ ...loaded.header, title: fold.summary().title })),
    events,
    warnings: loaded.warnings,
    skipped: loaded.skipped.map(({ afterSeq, text }) => ({
      afterSeq,
      text: redactServerTokens(secrets.redactJsonLines(text)),
    })),
  };
}
