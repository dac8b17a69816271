// The home folder's secrets and run-on-login files, for the file tools (which run in the server, outside
// the sandbox): the same lists the sandbox uses for commands (sandbox.ts), judged on real paths.
import { realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { HIDDEN_HOME_ENTRIES, PROTECTED_HOME_ENTRIES } from "./sandbox.ts";

let known: { home: string; real: string | undefined } | undefined;

/**
 * Realpath of the user's home (os.homedir() follows HOME), or undefined when it does not exist. Resolved
 * once per home value: a walk asks for every entry.
 */
function realHome(): string | undefined {
  const home = os.homedir();
  if (known?.home === home) return known.real;
  let real: string | undefined;
  try {
    real = realpathSync(home);
  } catch {
    real = undefined;
  }
  known = { home, real };
  return real;
}

/** `~/<entry>` when `absolute` (a real path) is that entry of the home or lies inside it. */
function homeEntryAt(absolute: string, entries: readonly string[]): `~/${string}` | undefined {
  const home = realHome();
  if (home === undefined) return undefined;
  const relative = path.relative(home, absolute);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) return undefined;
  const segments = relative.split(path.sep);
  const entry = entries.find((candidate) => {
    const parts = candidate.split("/");
    return parts.every((part, index) => segments[index] === part);
  });
  return entry === undefined ? undefined : `~/${entry}`;
}

/** A secret the file tools never read, list or write (`~/.ssh`, `~/.PseudoClaude/providers.json`, …). */
export function hiddenHomeEntryAt(absolute: string): `~/${string}` | undefined {
  return homeEntryAt(absolute, HIDDEN_HOME_ENTRIES);
}

/** A file that runs code or grants permissions later (`~/.bashrc`, `~/.PseudoClaude`): writes always ask. */
export function protectedHomeEntryAt(absolute: string): `~/${string}` | undefined {
  return homeEntryAt(absolute, PROTECTED_HOME_ENTRIES);
}
