// `run --save`: the CLI's conversation written as a session log exactly as the server writes one (same
// folder, header, event stream with its references and redaction), so it is listed and opens in the
// browser like any other session, and `export` reads it.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { RunnerEvent } from "../protocol/runner-events.ts";
import type { SessionSettings } from "../protocol/wire.ts";
import { catalogSnapshotEvent } from "../session/catalog-events.ts";
import { EventStream } from "../session/event-stream.ts";
import { newSessionId, sessionsDirectory } from "../session/session-hub.ts";
import { LOG_FORMAT_VERSION, SessionLogWriter } from "../session/session-log.ts";
import { UNTITLED_SESSION } from "../session/session-summary.ts";
import type { SessionWorkspace } from "../session/session-types.ts";

export interface SavedRun {
  id: string;
  file: string;
  record(event: RunnerEvent): void;
  /** Writes out and fsyncs the log. */
  close(): Promise<void>;
}

export async function startSavedRun(
  home: string,
  workspace: SessionWorkspace,
  settings: SessionSettings,
): Promise<SavedRun> {
  const directory = sessionsDirectory(home);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const id = newSessionId();
  const file = path.join(directory, `${id}.jsonl`);
  const writer = new SessionLogWriter(file);
  writer.append({
    kind: "header",
    version: LOG_FORMAT_VERSION,
    id,
    createdAt: new Date().toISOString(),
    title: UNTITLED_SESSION,
    settings,
  });
  const stream = new EventStream(writer, [], workspace.secrets);
  // The catalog the run started with, as a session's log begins (the lane and the catalog panel read it).
  stream.emit(catalogSnapshotEvent(workspace));
  return {
    id,
    file,
    record(event) {
      stream.emit(event);
    },
    close: () => writer.close(),
  };
}
