// The host's own git, which the server runs to read a repository the way the user's git reads it (the
// index's gitlinks, the configuration's named paths). Found once, on the server's own PATH (absolute
// entries only: a relative entry would find a program in whatever folder the server runs from).
import os from "node:os";
import path from "node:path";
import { LAUNCHER_ENVIRONMENT } from "./child-environment.ts";
import { findProgram } from "./find-program.ts";

/**
 * The environment the server's own git runs with: the launcher's fixed one, no system or global
 * configuration (only the repository's own, as it is on disk), and the user's home for `~` in its includes.
 * A plain string map: next-env.d.ts makes ProcessEnv demand NODE_ENV, which a child need not get.
 */
export const HOST_GIT_ENVIRONMENT = Object.freeze({
  ...LAUNCHER_ENVIRONMENT,
  HOME: os.homedir(),
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
}) as Readonly<Record<string, string>> as NodeJS.ProcessEnv;

let hostGit: string | null | undefined;

/** The host's git, or null when none is installed (then there is no git to fool, and nothing is read). */
export function hostGitProgram(): string | null {
  if (hostGit === undefined) {
    const searchPath = (process.env.PATH ?? "")
      .split(":")
      .filter((folder) => path.isAbsolute(folder))
      .join(":");
    hostGit = findProgram("git", searchPath) ?? null;
  }
  return hostGit;
}

/**
 * Settings on the server's git command line, which beat any in the repository: nothing runs while it reads
 * (`core.fsmonitor` would run a program), any owner's repository is read, and no lock is taken.
 */
export const HOST_GIT_SAFE_SETTINGS = Object.freeze([
  "--no-optional-locks",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "safe.directory=*",
]);
