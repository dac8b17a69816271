// Finds processes by an argument in their command line (/proc/<pid>/cmdline): a test puts a unique marker
// in a server's args and checks that no process carrying it is left.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export function processesWithArgument(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline: string;
    let state: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      state =
        readFileSync(`/proc/${entry}/stat`, "utf8")
          .replace(/^.*\) /s, "")
          .split(" ")[0] ?? "";
    } catch {
      continue; // gone meanwhile
    }
    if (state === "Z" || state === "X") continue;
    if (cmdline.split("\0").includes(marker)) found.push(Number(entry));
  }
  return found;
}

/**
 * SIGKILLs every process carrying `marker`. The host-side bwrap carries it too, and once it is killed the
 * server inside its PID namespace may already be gone: a process that no longer exists is not an error.
 */
export function killProcessesWithArgument(marker: string): void {
  for (const pid of processesWithArgument(marker)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
    }
  }
}

/** The reference server's entry point (a devDependency). */
export const EVERYTHING_SERVER = fileURLToPath(
  import.meta.resolve("@modelcontextprotocol/server-everything/dist/index.js"),
);
