// A closed session's log, as a session list just read it, kept for the open that usually follows.
// Listing a session that is not open reads and checks its whole log (its summary folds every event), and
// a page lists the sessions first, then opens the one it showed before a reload or the newest: without
// this, that open reads and checks the same bytes a second time (about as long as the list did).
//
// One slot (the newest session the last list read), used once, and valid only while the file's size and
// mtime are what they were when it was read: a log that changed in between is read again. It is dropped
// after KEEP_MS either way, so a list of a long session does not hold its events for long.
import { stat } from "node:fs/promises";
import type { LogReadResult } from "./session-log.ts";

const KEEP_MS = 10_000;

interface Kept {
  id: string;
  size: number;
  mtimeMs: number;
  loaded: LogReadResult;
  timer: ReturnType<typeof setTimeout>;
}

export class RecentLogRead {
  private kept: Kept | undefined;

  /** Keeps `loaded` (read from a file of this size and mtime) in place of whatever was kept. */
  keep(id: string, file: { size: number; mtimeMs: number }, loaded: LogReadResult): void {
    this.clear();
    const timer = setTimeout(() => this.clear(), KEEP_MS);
    timer.unref();
    this.kept = { id, size: file.size, mtimeMs: file.mtimeMs, loaded, timer };
  }

  /** The kept read of `id` if the file at `path` is still the one it was read from; never the same read twice. */
  async take(id: string, path: string): Promise<LogReadResult | undefined> {
    const kept = this.kept;
    if (kept?.id !== id) return undefined;
    this.clear();
    try {
      const now = await stat(path);
      return now.size === kept.size && now.mtimeMs === kept.mtimeMs ? kept.loaded : undefined;
    } catch {
      // Gone or unreadable now: the caller reads the file itself and reports what it finds.
      return undefined;
    }
  }

  clear(): void {
    if (this.kept) clearTimeout(this.kept.timer);
    this.kept = undefined;
  }
}
