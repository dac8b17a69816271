// What a command's tool card says about the files it wrote (metadata.writes, recorded from its held
// writes: server/tools/held-writes-record.ts). Pure, so the wording is unit-tested. A call whose writes
// were not held has no list: the card says so rather than nothing, since what it wrote is then not known.
import type { ToolResultMetadata, WrittenPath } from "../../server/protocol/index.ts";

export type CommandWritesView =
  | { kind: "listed"; summary: string; entries: WrittenPath[]; more?: string }
  | { kind: "unknown"; line: string; title: string };

/** Paths named in the one-line summary before "…". */
const IN_SUMMARY = 3;

const CHANGES = new Set(["added", "changed", "removed"]);

/** An entry read from metadata (a log may hold anything): only well-formed ones are shown. */
function isWrittenPath(value: unknown): value is WrittenPath {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.path === "string" &&
    typeof entry.change === "string" &&
    CHANGES.has(entry.change) &&
    (entry.before === undefined || typeof entry.before === "string") &&
    (entry.after === undefined || typeof entry.after === "string")
  );
}

/** "package.json (changed)". */
export function writtenLabel(entry: WrittenPath): string {
  return `${entry.path} (${entry.change})`;
}

/** Whether a listed path has a line diff to show (a small text file added or changed). */
export function hasDiff(entry: WrittenPath): boolean {
  return entry.change !== "removed" && entry.after !== undefined;
}

/**
 * What the card shows about a command's writes, or undefined: nothing written, not a command (no sandbox
 * in its metadata), or a log from before writes were recorded.
 */
export function commandWrites(metadata: ToolResultMetadata | undefined): CommandWritesView | undefined {
  if (!metadata) return undefined;
  if (Array.isArray(metadata.writes)) {
    const entries = metadata.writes.filter(isWrittenPath);
    const omitted = typeof metadata.writesOmitted === "number" ? metadata.writesOmitted : 0;
    const total = entries.length + omitted;
    if (total === 0) return undefined;
    const atLeast = metadata.writesOmittedAtLeast === true ? "+" : "";
    const named = entries.slice(0, IN_SUMMARY).map(writtenLabel);
    const rest = total > named.length ? ", …" : "";
    return {
      kind: "listed",
      summary: `Wrote ${total}${atLeast} file${total === 1 && !atLeast ? "" : "s"}: ${named.join(", ")}${rest}`,
      entries,
      ...(omitted > 0 ? { more: `and ${omitted}${atLeast} more (not listed)` } : {}),
    };
  }
  const sandbox = metadata.sandbox as
    { enabled?: unknown; writesHeld?: unknown; reason?: unknown; writesHeldReason?: unknown } | undefined;
  if (typeof sandbox !== "object" || sandbox === null) return undefined;
  const why =
    sandbox.enabled === false
      ? `it ran without the sandbox (${typeof sandbox.reason === "string" ? sandbox.reason : "bubblewrap is not available"})`
      : sandbox.writesHeld === false
        ? `its writes were not held (${typeof sandbox.writesHeldReason === "string" ? sandbox.writesHeldReason : "unavailable"})`
        : undefined;
  if (!why) return undefined;
  return {
    kind: "unknown",
    line: "files written: not known (writes not held)",
    title: `The playground lists what a command wrote only when its writes are held until checked; ${why}, so it wrote the workdir directly. Review the workdir's changes (git status, git diff).`,
  };
}
