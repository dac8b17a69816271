// What is said about the files a command wrote (metadata.writes, recorded from its held writes:
// server/tools/held-writes-record.ts), in one wording wherever it is shown: the page's tool card
// (app/components/command-writes.tsx), the HTML export and `cli run`'s output (writesLines). A call whose
// writes were not held has no list: each says so rather than nothing, since what it wrote is then not
// known. Pure (the pages bundle it); server/protocol/model.ts takes WrittenPath from here.

/** One path a command wrote (ToolResultMetadata.writes; server/protocol/model.ts exports it from here). */
export interface WrittenPath {
  /** Relative to the workdir; a folder ends with "/" (an empty one added, or one removed whole). */
  path: string;
  change: "added" | "changed" | "removed";
  /** A small text file's content before the call (changed) and after it (changed, added), for a line diff. */
  before?: string;
  after?: string;
  /** Why no line diff is kept for an added or changed path (a symbolic link, not small text, the call's cap). */
  noDiff?: string;
}

/** The fields of a tool result's metadata read here (server/protocol/model.ts ToolResultMetadata). */
export interface WritesMetadata {
  writes?: unknown;
  writesOmitted?: unknown;
  writesOmittedAtLeast?: unknown;
  sandbox?: unknown;
  [field: string]: unknown;
}

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
    (entry.after === undefined || typeof entry.after === "string") &&
    (entry.noDiff === undefined || typeof entry.noDiff === "string")
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
export function commandWrites(metadata: WritesMetadata | undefined): CommandWritesView | undefined {
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

/** "package.json (changed)", with why no diff was kept when one was not: one row of the list. */
export function writtenRow(entry: WrittenPath): string {
  return entry.noDiff ? `${writtenLabel(entry)} · no diff: ${entry.noDiff}` : writtenLabel(entry);
}

/** A command's writes as plain text (writesLines). */
export interface WritesLines {
  summary: string;
  /** One per listed path, then the count of those not listed. */
  rows: string[];
  /** For writes not known: why, and what to do. */
  why?: string;
  /** Every row says no more than the summary already does (each path named there, none with a note). */
  rowsInSummary: boolean;
}

/**
 * The same as plain lines, for text (`cli run`) and the HTML export: the summary, then one row per listed
 * path (indented by the caller), then the count of those not listed; or the one line of a call whose
 * writes are not known, with why.
 */
export function writesLines(view: CommandWritesView): WritesLines {
  if (view.kind === "unknown") return { summary: view.line, rows: [], why: view.title, rowsInSummary: true };
  return {
    summary: view.summary,
    rows: [...view.entries.map(writtenRow), ...(view.more ? [view.more] : [])],
    rowsInSummary:
      !view.more && view.entries.length <= IN_SUMMARY && view.entries.every((entry) => !entry.noDiff),
  };
}
