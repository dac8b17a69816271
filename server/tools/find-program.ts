// Looks a program up as exec would: a name on a PATH, or a path that must be an executable file.
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

/** The absolute path of `command` (a bare name is looked up on `searchPath`); undefined if none runs. */
export function findProgram(command: string, searchPath = process.env.PATH ?? ""): string | undefined {
  const candidates = command.includes("/")
    ? [path.resolve(command)]
    : searchPath
        .split(":")
        .filter(Boolean)
        .map((folder) => path.join(folder, command));
  for (const candidate of candidates) {
    try {
      if (statSync(candidate).isFile()) {
        accessSync(candidate, constants.X_OK);
        return candidate;
      }
    } catch {
      // not this one
    }
  }
  return undefined;
}
