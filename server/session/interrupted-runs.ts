// Runs cut off by a crash (`kill -9`, power loss): a `run_started` in a session log with no later `stop`
// for its runId. At the next start each one is closed in its log with `stop: interrupted`, written by the
// log writer (next seq, a torn tail terminated first), so reopening shows the run as ended, not running.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { errorMessage } from "../errors/index.ts";
import type { SessionEvent } from "../protocol/wire.ts";
import {
  SessionLogWriter,
  narrowLogDirectoryMode,
  narrowLogFileMode,
  nodeLogFileSystem,
  readSessionLog,
  type LogEventRecord,
  type LogFileSystem,
} from "./session-log.ts";

export const INTERRUPTED_MESSAGE = "the server stopped during this run (found at the next start)";

export interface InterruptedRun {
  runId: string;
  /** Model requests the run had made (its `request` events). */
  iterations: number;
}

/** Runs started in these records and never stopped, in the order they started. */
export function findInterruptedRuns(records: readonly LogEventRecord[]): InterruptedRun[] {
  const open = new Map<string, InterruptedRun>();
  for (const { event } of records) {
    if (event.type === "run_started") open.set(event.runId, { runId: event.runId, iterations: 0 });
    else if (event.type === "request") {
      const run = open.get(event.runId);
      if (run) run.iterations++;
    } else if (event.type === "stop") open.delete(event.runId);
  }
  return [...open.values()];
}

export interface CloseInterruptedOptions {
  directory: string;
  /** Which files are session logs (the hub's id check), by id. */
  isSessionId: (id: string) => boolean;
  /** A session that is already open in this server is live, not interrupted. */
  isLive: (id: string) => boolean;
  log: (line: string) => void;
  fileSystem?: LogFileSystem;
}

/**
 * Closes every interrupted run in every session log of `directory`, and narrows the folder and file modes
 * (D7) on the way. A log that cannot be read or written is reported and left as it is.
 */
export async function closeInterruptedRuns(options: CloseInterruptedOptions): Promise<number> {
  let files: string[];
  try {
    await narrowLogDirectoryMode(options.directory);
    files = await readdir(options.directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0; // no session yet
    throw error;
  }
  let closed = 0;
  for (const file of files) {
    const id = file.replace(/\.jsonl$/, "");
    if (!file.endsWith(".jsonl") || !options.isSessionId(id) || options.isLive(id)) continue;
    const logPath = path.join(options.directory, file);
    try {
      await narrowLogFileMode(logPath);
      closed += await closeRunsInLog(logPath, options);
    } catch (error) {
      options.log(`session log ${logPath}: could not check for interrupted runs: ${errorMessage(error)}`);
    }
  }
  return closed;
}

async function closeRunsInLog(logPath: string, options: CloseInterruptedOptions): Promise<number> {
  const { events } = await readSessionLog(logPath);
  const interrupted = findInterruptedRuns(events);
  if (interrupted.length === 0) return 0;
  let seq = events.reduce((highest, record) => Math.max(highest, record.seq), 0);
  const writer = new SessionLogWriter(logPath, options.fileSystem ?? nodeLogFileSystem);
  try {
    for (const run of interrupted) {
      const stop: SessionEvent = {
        type: "stop",
        runId: run.runId,
        reason: "interrupted",
        message: INTERRUPTED_MESSAGE,
        iterations: run.iterations,
      };
      writer.append({ kind: "event", seq: ++seq, at: new Date().toISOString(), event: stop });
      options.log(
        `session log ${logPath}: run ${run.runId} was interrupted; closed it with stop: interrupted`,
      );
    }
  } finally {
    await writer.close();
  }
  return interrupted.length;
}
