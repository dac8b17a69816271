// A saved session read for export: the log's header and events as format 3 reads them (requests by
// reference to their blobs: server/protocol/request-model.ts), with no configured key, key-shaped string
// or server token left in them. The one place the CLI's `export` and the browser's export menu read a
// session log from.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { PlaygroundError, errorMessage } from "../errors/index.ts";
import type { SessionEvent } from "../protocol/wire.ts";
import { registerConfiguredSecrets } from "../providers/config.ts";
import { mayContainSecret, redactJsonLines, redactKnownSecrets } from "../providers/redact.ts";
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

/** The log of session `id` under `<home>/.PseudoClaude/playground/sessions/`, as `parseExportedLog` reads it. */
export async function readExportedSession(home: string, id: string): Promise<ExportedSession> {
  if (!isSessionId(id))
    throw new PlaygroundError("invalid_arguments", `"${id.slice(0, 80)}" is not a session id`);
  const file = path.join(sessionsDirectory(home), `${id}.jsonl`);
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
  registerConfiguredSecrets({ home });
  return parseExportedLog(data, file);
}

/** Whether any event holds a key or the server token (most logs hold none: they are then kept as read). */
function holdsSecret(events: readonly ExportedEvent[]): boolean {
  return events.some((record) => {
    const json = JSON.stringify(record.event);
    return mayContainSecret(json) || SERVER_TOKEN_ANYWHERE.test(json);
  });
}

/**
 * Parses and redacts one session log's bytes. A blob's hash names its bytes, so a log that holds a key is
 * not edited in place: its events are written again, redacted (request-writer.ts rewriteEvents).
 */
export function parseExportedLog(data: Buffer, file: string): ExportedSession {
  const loaded = parseSessionLog(data, file);
  if (!loaded.header)
    throw new PlaygroundError("io_error", `${file} has no readable header record; it cannot be exported`);
  const read = loaded.events.map((record) => ({ seq: record.seq, at: record.at, event: record.event }));
  const events = holdsSecret(read)
    ? rewriteEvents(read, (event) => redactTokensDeep(redactKnownSecrets(event)))
    : read;
  // The title the session list shows: the first user message replaces the header's untitled one.
  const { id, createdAt, settings, title } = loaded.header;
  const fold = new SessionSummaryFold({ id, createdAt, settings, title });
  for (const record of loaded.events) fold.observe(record.event);
  return {
    header: redactTokensDeep(redactKnownSecrets({ ...loaded.header, title: fold.summary().title })),
    events,
    warnings: loaded.warnings,
    skipped: loaded.skipped.map(({ afterSeq, text }) => ({
      afterSeq,
      text: redactServerTokens(redactJsonLines(text)),
    })),
  };
}
