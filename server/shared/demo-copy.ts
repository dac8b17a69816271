// `npm start` without --workdir works on a throwaway copy of the demo project, made at start in the
// system's temp folder and removed when the server stops. A session made on one start's copy therefore
// cannot work after a restart: the server says so when it is reopened, and New session… offers this
// start's copy instead of the gone one. Pure (no Node API), so the pages apply the same rule.

/** The name every demo copy starts with. */
export const DEMO_COPY_PREFIX = "pseudoclaude-demo-";

/** The last part of a path, whichever separator it uses. */
function baseName(folder: string): string {
  return (
    folder
      .replace(/[\\/]+$/, "")
      .split(/[\\/]/)
      .pop() ?? ""
  );
}

export function isDemoCopy(folder: string): boolean {
  return baseName(folder).startsWith(DEMO_COPY_PREFIX);
}

/**
 * The folder New session… offers: the open session's, unless that is the demo copy of another start —
 * then this start's default (`serverDefault`: its own copy, or the folder `--workdir` named). A demo copy
 * belongs to the start that made it and goes when that start stops, so it is never offered to another.
 */
export function newSessionWorkdir(
  current: string | undefined,
  serverDefault: string | undefined,
): string | undefined {
  if (current === undefined) return serverDefault;
  if (serverDefault !== undefined && current !== serverDefault && isDemoCopy(current)) return serverDefault;
  return current;
}
