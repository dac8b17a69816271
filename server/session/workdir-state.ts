// Whether a session's working folder can be used: the one rule create_session refuses a workdir by, and
// by which an existing session (reopened from its log, or live when its folder was removed: a demo copy
// its server removed on stop) is marked `workdirMissing` and refuses a message up front.
import { statSync } from "node:fs";
import path from "node:path";
import { errorMessage } from "../errors/index.ts";

/** Why `workdir` cannot be used (create_session's wording), or undefined when it is a folder. */
export function workdirProblem(workdir: string): string | undefined {
  const absolute = path.resolve(workdir);
  try {
    if (statSync(absolute).isDirectory()) return undefined;
  } catch (error) {
    return `workdir ${absolute} cannot be used: ${errorMessage(error)}`;
  }
  return `workdir ${absolute} is not a directory`;
}

/** What a user of a session whose folder is gone can do (its log stays readable where it is). */
export const WORKDIR_GONE_ADVICE =
  "this session's conversation and inspector stay readable, but it cannot run: start New session… on an existing folder";
