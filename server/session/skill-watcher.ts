// Watches the three skill layers of a session and calls back (debounced) when anything in them changes.
// A layer folder that does not exist yet (no user or project skills) is polled for existence and watched
// once it appears — creating it counts as a change.
//
// What is watched is what the catalog reads: each layer folder (loose `*.md` skills, skill folders coming
// and going) and each folder directly inside it (its SKILL.md and tools.json), each with a plain,
// non-recursive watch. Not a recursive watch of the layer: on Linux that walks the whole tree
// synchronously, and a skills folder of 100,000 files held every session up for ~4 s and took 250 MB
// (S19). A layer over MAX_LAYER_ENTRIES entries is not loaded (scan-layer.ts), so only its own folder is
// watched. A change deeper inside a skill (a reference file) reloads nothing; a skill's files are read
// when it is loaded.
import { existsSync, watch, type FSWatcher } from "node:fs";
import { opendir } from "node:fs/promises";
import path from "node:path";
import { MAX_LAYER_ENTRIES } from "../skills/scan-layer.ts";

export const WATCH_DEBOUNCE_MS = 150;
const EXISTENCE_POLL_MS = 400;

interface LayerWatch {
  watcher: FSWatcher;
  /** Watches of the folders directly inside the layer, by path. */
  children: Map<string, FSWatcher>;
  /** A listing is under way; `again` asks for one more after it (the folder changed meanwhile). */
  syncing: boolean;
  again: boolean;
  /** Set after the first listing: folders found later count as a change. */
  listed: boolean;
}

export class SkillWatcher {
  private readonly layers = new Map<string, LayerWatch>();
  private debounceTimer: NodeJS.Timeout | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly folders: string[],
    private readonly onChange: () => void,
    private readonly onProblem: (message: string) => void = () => undefined,
  ) {
    for (const folder of folders) this.tryWatch(folder);
    if (this.folders.some((folder) => !this.layers.has(folder))) {
      this.pollTimer = setInterval(() => this.pollMissing(), EXISTENCE_POLL_MS);
      this.pollTimer.unref();
    }
  }

  private tryWatch(folder: string): boolean {
    if (!existsSync(folder)) return false;
    try {
      const watcher = watch(folder, () => {
        this.schedule();
        void this.syncChildren(folder);
      });
      watcher.on("error", (error) => {
        // The folder was removed or became unreadable: forget it and poll until it is back.
        this.forget(folder);
        this.onProblem(`stopped watching ${folder}: ${error.message}`);
        this.schedule();
        this.ensurePolling();
      });
      this.layers.set(folder, { watcher, children: new Map(), syncing: false, again: false, listed: false });
      void this.syncChildren(folder);
      return true;
    } catch (error) {
      this.onProblem(`cannot watch ${folder}: ${(error as Error).message}`);
      return false;
    }
  }

  /** Brings the watches of the layer's sub-folders in line with what is there now. */
  private async syncChildren(folder: string): Promise<void> {
    const layer = this.layers.get(folder);
    if (!layer || this.closed) return;
    if (layer.syncing) {
      layer.again = true;
      return;
    }
    layer.syncing = true;
    try {
      do {
        layer.again = false;
        const wanted = await listFolders(folder);
        if (this.closed || this.layers.get(folder) !== layer) return;
        for (const [child, watcher] of layer.children) {
          if (wanted.has(child)) continue;
          watcher.close();
          layer.children.delete(child);
        }
        for (const child of wanted) {
          if (layer.children.has(child)) continue;
          try {
            const watcher = watch(child, () => this.schedule());
            // A sub-folder removed meanwhile: its watch ends; the layer's own watch saw the removal.
            watcher.on("error", () => {
              watcher.close();
              layer.children.delete(child);
            });
            layer.children.set(child, watcher);
            if (layer.listed) this.schedule();
          } catch {
            // Gone between the listing and the watch (or not a folder after all): nothing to watch.
          }
        }
        layer.listed = true;
      } while (layer.again);
    } finally {
      layer.syncing = false;
    }
  }

  private forget(folder: string): void {
    const layer = this.layers.get(folder);
    if (!layer) return;
    layer.watcher.close();
    for (const watcher of layer.children.values()) watcher.close();
    this.layers.delete(folder);
  }

  private ensurePolling(): void {
    if (this.pollTimer || this.closed) return;
    this.pollTimer = setInterval(() => this.pollMissing(), EXISTENCE_POLL_MS);
    this.pollTimer.unref();
  }

  private pollMissing(): void {
    let missing = 0;
    for (const folder of this.folders) {
      if (this.layers.has(folder)) continue;
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
    for (const folder of [...this.layers.keys()]) this.forget(folder);
  }
}

/**
 * The folders directly inside `folder` (symlinks included: the scan follows them), none when it holds more
 * than MAX_LAYER_ENTRIES entries or cannot be read (its own watch still reports changes).
 */
async function listFolders(folder: string): Promise<Set<string>> {
  const found = new Set<string>();
  let entries = 0;
  try {
    for await (const entry of await opendir(folder, { bufferSize: 256 })) {
      if (++entries > MAX_LAYER_ENTRIES) return new Set();
      if (entry.name.startsWith(".")) continue;
      if (entry.isDirectory() || entry.isSymbolicLink()) found.add(path.join(folder, entry.name));
    }
  } catch {
    return new Set();
  }
  return found;
}
