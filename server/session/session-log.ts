// The append-only JSONL log of one session: a header record, then one record per session event.
// One writer per session (a promise queue), one `write` call per record, fsync when a turn ends.
// Reading splits on LF bytes only: JSON.stringify leaves U+2028/U+2029 unescaped, and line readers that
// treat them as line breaks would cut records in half.
import { chmod, mkdir, open, readFile, stat } from "node:fs/promises";
import { dirname } from "node:path";
import type { SessionEvent, SessionSettings } from "../protocol/wire.ts";
import type { BranchOrigin } from "../protocol/branch.ts";
import { upgradeLoggedEvents } from "./log-upgrade.ts";
import { recordProblem } from "./log-schema.ts";
import { jsonNestingDepth } from "../protocol/json-depth.ts";

/**
 * 3: requests and payloads by reference to content-addressed blobs, every record as the wire carries it
 * (server/protocol/request-model.ts). 2: snapshots refer to the conversation by `historyLength`, repeated
 * parts by `$sameAs`; one history_appended per assistant message. 1: `$historyPrefix` references. Every
 * older format is read through one upgrade step (log-upgrade.ts).
 */
export const LOG_FORMAT_VERSION = 3;

export interface LogHeader {
  kind: "header";
  version: number;
  id: string;
  createdAt: string;
  title: string;
  settings: SessionSettings;
  /** Set on a branch: the session and request it was forked from, and the edits (absent in older logs). */
  branch?: BranchOrigin;
}

export interface LogEventRecord {
  kind: "event";
  seq: number;
  at: string;
  event: SessionEvent;
}

export type LogRecord = LogHeader | LogEventRecord;

/**
 * The file-system seam of the writer. Production uses `nodeLogFileSystem`; tests inject a handle whose
 * write fails with ENOSPC, because a really full disk cannot be produced safely in a test environment.
 */
export interface LogFileSystem {
  openForAppend(path: string): Promise<LogFileHandle>;
}

export interface LogFileHandle {
  /** Size in bytes and whether the file ends with LF (false for an empty file). */
  tail(): Promise<{ size: number; endsWithNewline: boolean }>;
  write(data: Buffer): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** D7: a session log is readable by its owner only, in a folder only its owner can list. */
export const LOG_FILE_MODE = 0o600;
export const LOG_DIRECTORY_MODE = 0o700;

/** Narrows the permission bits of `target` to `mode` when they are wider (a log from an older version). */
async function narrowMode(target: string, mode: number): Promise<void> {
  if (((await stat(target)).mode & 0o777 & ~mode) !== 0) await chmod(target, mode);
}

/** Narrows an existing log folder to 0700. */
export async function narrowLogDirectoryMode(directory: string): Promise<void> {
  await narrowMode(directory, LOG_DIRECTORY_MODE);
}

/** Narrows an existing log file to 0600. */
export async function narrowLogFileMode(file: string): Promise<void> {
  await narrowMode(file, LOG_FILE_MODE);
}

export const nodeLogFileSystem: LogFileSystem = {
  async openForAppend(path) {
    // The folder is made with the first log written in it (a headless run that keeps none makes none).
    // Whoever created it, and whatever mode an older version left on the file: fixed on open.
    await mkdir(dirname(path), { recursive: true, mode: LOG_DIRECTORY_MODE });
    await narrowMode(dirname(path), LOG_DIRECTORY_MODE);
    const handle = await open(path, "a+", LOG_FILE_MODE);
    if (((await handle.stat()).mode & 0o777 & ~LOG_FILE_MODE) !== 0) await handle.chmod(LOG_FILE_MODE);
    return {
      async tail() {
        const { size } = await handle.stat();
        if (size === 0) return { size, endsWithNewline: false };
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        return { size, endsWithNewline: last[0] === 0x0a };
      },
      async write(data) {
        // One write call per record; the loop only runs on a short write, which regular files rarely do.
        let offset = 0;
        while (offset < data.length) {
          const { bytesWritten } = await handle.write(data, offset, data.length - offset);
          offset += bytesWritten;
        }
      },
      sync: () => handle.sync(),
      close: () => handle.close(),
    };
  },
};

export interface WriterHooks {
  /** A write failed (ENOSPC, EIO, ...). Records stay queued and are retried. */
  onWriteError?(error: NodeJS.ErrnoException): void;
  /** Writing works again after a failure; every queued record has been written. */
  onRecovered?(): void;
}

/** Appends records in order from a single queue. Never loses a record that was accepted by `append`. */
export class SessionLogWriter {
  private handle: LogFileHandle | undefined;
  private readonly pending: Buffer[] = [];
  private draining: Promise<void> | undefined;
  /** Set after a torn tail or a failed write: the next record is written after a LF of its own. */
  private needsLeadingNewline = false;
  private failing = false;
  /** True from the first failed write until every queued record is written again. */
  private inFailureEpisode = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    readonly path: string,
    private readonly fileSystem: LogFileSystem = nodeLogFileSystem,
    private readonly hooks: WriterHooks = {},
    /** Delay before retrying after a failed write. */
    private readonly retryDelayMs = 500,
  ) {}

  append(record: LogRecord): void {
    this.appendSerialized(JSON.stringify(record));
  }

  /** Appends a record that is already JSON text (one line, no LF inside: JSON.stringify escapes it). */
  appendSerialized(json: string): void {
    if (this.closed) throw new Error(`session log ${this.path} is closed`);
    this.pending.push(Buffer.from(json + "\n", "utf8"));
    this.kick();
  }

  /** Resolves once every record appended so far is written and fsynced (end of a turn). */
  async flush(options: { sync?: boolean } = {}): Promise<void> {
    this.kick();
    while (this.draining) await this.draining;
    if (this.pending.length > 0)
      throw new Error(`session log ${this.path}: ${this.pending.length} records not yet written`);
    if (options.sync !== false && this.handle) await this.handle.sync();
  }

  get queued(): number {
    return this.pending.length;
  }

  async close(): Promise<void> {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    try {
      await this.flush();
    } finally {
      this.closed = true;
      await this.handle?.close();
      this.handle = undefined;
    }
  }

  private kick(): void {
    if (this.draining || this.failing) return;
    this.draining = this.drain()
      .then((written) => {
        if (written && this.inFailureEpisode) {
          this.inFailureEpisode = false;
          this.hooks.onRecovered?.();
        }
      })
      .finally(() => {
        this.draining = undefined;
        // A record appended after the last write but before this point found a drain still running and
        // did not start one: start it now (flush waits on it instead of seeing the record stranded).
        if (this.pending.length > 0) this.kick();
      });
  }

  /** Writes every queued record; false when a write failed (the records stay queued). */
  private async drain(): Promise<boolean> {
    try {
      if (!this.handle) {
        this.handle = await this.fileSystem.openForAppend(this.path);
        const tail = await this.handle.tail();
        // Resuming after a crash that tore the last line: start the next record on its own line.
        if (tail.size > 0 && !tail.endsWithNewline) this.needsLeadingNewline = true;
      }
      while (this.pending.length > 0) {
        const next = this.pending[0];
        const data = this.needsLeadingNewline ? Buffer.concat([Buffer.from("\n"), next]) : next;
        await this.handle.write(data);
        this.needsLeadingNewline = false;
        this.pending.shift();
      }
      return true;
    } catch (error) {
      // A failed write may have left part of a record behind: terminate it before the retry.
      this.needsLeadingNewline = true;
      this.failing = true;
      if (!this.inFailureEpisode) {
        this.inFailureEpisode = true;
        this.hooks.onWriteError?.(error as NodeJS.ErrnoException);
      }
      this.scheduleRetry();
      return false;
    }
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.failing = false;
      this.kick();
    }, this.retryDelayMs);
  }
}

/**
 * Levels of arrays and objects one record may nest. Snapshots and payloads nest tool schemas a few dozen
 * deep; a deeper record would overflow whatever walks it recursively later (JSON.stringify of a replay
 * or an export).
 */
export const MAX_RECORD_NESTING = 512;

export interface LogReadResult {
  header: LogHeader | undefined;
  events: LogEventRecord[];
  /** One line per skipped part, naming the file, line number and reason. */
  warnings: string[];
  /**
   * The skipped lines' text, each after the seq of the last record read before it (0: before any), so an
   * export can give them back where they stood: nothing a log holds is dropped from its download.
   */
  skipped: { afterSeq: number; text: string }[];
}

/** Keeps a skipped line's text after the last record read before it. */
function skipLine(result: LogReadResult, text: string): void {
  result.skipped.push({ afterSeq: result.events.at(-1)?.seq ?? 0, text });
}

/**
 * Splits on LF bytes, skips torn and garbled lines and records that do not match the log schema
 * (log-schema.ts; a warning each), keeps every complete record.
 */
export function parseSessionLog(data: Buffer, path: string): LogReadResult {
  const result: LogReadResult = { header: undefined, events: [], warnings: [], skipped: [] };
  let lineStart = 0;
  let lineNumber = 0;
  // Lines are read by offsets into `data`, not as a Buffer view each (thousands of objects per log); the
  // next NUL byte is looked for once per NUL, not once per line, so a clean log is scanned for it once.
  let nextNul = data.indexOf(0);
  while (lineStart < data.length) {
    const newline = data.indexOf(0x0a, lineStart);
    const isLast = newline === -1;
    const lineEnd = isLast ? data.length : newline;
    const rawLength = lineEnd - lineStart;
    lineNumber++;
    if (nextNul !== -1 && nextNul < lineStart) nextNul = data.indexOf(0, lineStart);
    const hadNul = nextNul !== -1 && nextNul < lineEnd;
    // The record between the NUL bytes around it (and a CR before its LF).
    let start = lineStart;
    let end = lineEnd;
    while (start < end && data[start] === 0) start++;
    while (end > start && (data[end - 1] === 0 || data[end - 1] === 0x0d)) end--;
    lineStart = lineEnd + 1;
    if (end === start) {
      if (hadNul) result.warnings.push(`${path}:${lineNumber}: skipped ${rawLength} NUL bytes`);
      continue;
    }
    let record: LogRecord;
    const lineText = data.toString("utf8", start, end);
    // Each level takes a `[` or `{` of its own: a line no longer than the limit cannot nest past it.
    if (
      lineText.length > MAX_RECORD_NESTING &&
      jsonNestingDepth(lineText, MAX_RECORD_NESTING) > MAX_RECORD_NESTING
    ) {
      skipLine(result, lineText);
      result.warnings.push(
        `${path}:${lineNumber}: skipped a record nested deeper than ${MAX_RECORD_NESTING} levels; the limit is ${MAX_RECORD_NESTING}`,
      );
      continue;
    }
    try {
      record = JSON.parse(lineText) as LogRecord;
    } catch {
      skipLine(result, lineText);
      const what = isLast ? "torn last record (the write was interrupted)" : "unreadable record";
      result.warnings.push(`${path}:${lineNumber}: skipped ${what}, ${rawLength} bytes`);
      continue;
    }
    if (hadNul) result.warnings.push(`${path}:${lineNumber}: NUL bytes around a record were skipped`);
    const problem = recordProblem(record);
    if (problem) {
      skipLine(result, lineText);
      result.warnings.push(
        `${path}:${lineNumber}: skipped a record that does not match the log schema: ${problem.slice(0, 300)}`,
      );
      continue;
    }
    if (record.kind === "header") result.header = record;
    else result.events.push(record);
  }
  // One shape for every reader: older formats are brought to format 3, blobs checked (log-upgrade.ts).
  result.warnings.push(...upgradeLoggedEvents(result.events, path));
  return result;
}

export async function readSessionLog(path: string): Promise<LogReadResult> {
  return parseSessionLog(await readFile(path), path);
}
