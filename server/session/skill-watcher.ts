// Watches the three skill layers of a session and calls back (debounced) when anything in them changes.
// Node 20 supports recursive fs.watch on Linux. A layer folder that does not exist yet (no user or project
// skills) is polled for existence and watched once it appears — creating it counts as a change.
import { existsSync, watch, type FSWatcher } from "node:fs";

export const WATCH_DEBOUNCE_MS = 150;
const EXISTENCE_POLL_MS = 400;

export class SkillWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private debounceTimer: NodeJS.Timeout | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly folders: string[],
    private readonly onChange: () => void,
    private readonly onProblem: (message: string) => void = () => undefined,
  ) {
    for (const folder of folders) this.tryWatch(folder);
    if (this.folders.some((folder) => !this.watchers.has(folder))) {
      this.pollTimer = setInterval(() => this.pollMissing(), EXISTENCE_POLL_MS);
      this.pollTimer.unref();
    }
  }

  private tryWatch(folder: string): boolean {
    if (!existsSync(folder)) return false;
    try {
      const watcher = watch(folder, { recursive: true }, () => this.schedule());
      watcher.on("error", (error) => {
        // The folder was removed or became unreadable: forget it and poll until it is back.
        watcher.close();
        this.watchers.delete(folder);
        this.onProblem(`stopped watching ${folder}: ${error.message}`);
        this.schedule();
        this.ensurePolling();
      });
      this.watchers.set(folder, watcher);
      return true;
    } catch (error) {
      this.onProblem(`cannot watch ${folder}: ${(error as Error).message}`);
      return false;
    }
  }

  private ensurePolling(): void {
    if (this.pollTimer || this.closed) return;
    this.pollTimer = setInterval(() => this.pollMissing(), EXISTENCE_POLL_MS);
    this.pollTimer.unref();
  }

  private pollMissing(): void {
    let missing = 0;
    for (const folder of this.folders) {
      if (this.watchers.has(folder)) continue;
      if (this.tryWatch(folder)) this.schedule();
      else missing++;
    }
    if (missing === 0 && this.pollTimer) {
      clearInterval(this.pollTimer);
      this.pollTimer = undefined;
    }
  }

  private schedule(): void {
    if (this.closed) return;
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
    this.debounceTimer = setTimeout(() => {
      this.debounceTimer = undefined;
      if (!this.closed) this.onChange();
    }, WATCH_DEBOUNCE_MS);
  }

  close(): void {
    this.closed = true;
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
    if (this.pollTimer) clearInterval(this.pollTimer);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }
}
