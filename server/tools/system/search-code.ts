import { tryLinearRegExp, type LinearRegExp } from "../../protocol/linear-regex.ts";
import { globToRegExp } from "../glob.ts";
import type { SkillRootsProvider } from "../skill-roots.ts";
import { defineTool, type Tool, type ToolExecution } from "../types.ts";
import {
  cappedSuccess,
  confinePathArgument,
  describePath,
  failure,
  isExecution,
  looksBinary,
  matchGlob,
  openForTool,
  shownPath,
  walkPrefix,
} from "./common.ts";
import { ConfinedOpener, PathRefused, readWhole } from "./confined-fs.ts";
import { changedPathsNote, collectWalk, walkFiles, type WalkSummary } from "./walk.ts";

/** A file to search: its real path relative to the working directory, and how results name it. */
interface SearchedFile {
  fromRoot: string;
  shown: string;
}

export const SEARCH_MATCH_CAP = 200;
/** Files above this size are skipped (generated bundles, data dumps). */
const MAX_SEARCHED_FILE_BYTES = 2 * 1024 * 1024;
/** Characters of a matching line shown, and tested (minified bundles have megabyte lines). */
const MAX_LINE_CHARS = 400;
const MAX_TESTED_LINE_CHARS = 10_000;
/**
 * Time one search may spend; past it the search stops with what it found and says so. The pattern runs in
 * the linear-time engine (S18), so no single file can hold the event loop for long: this bounds a search
 * of a very large tree, not a pathological pattern.
 */
export const SEARCH_TIME_BUDGET_MS = 5_000;

export interface SearchCodeInput {
  pattern: string;
  path?: string;
  glob?: string;
  case_insensitive?: boolean;
}

export function createSearchCodeTool(
  options: { timeBudgetMs?: number; skillRoots?: SkillRootsProvider } = {},
): Tool<SearchCodeInput> {
  const roots = options.skillRoots;
  const timeBudgetMs = options.timeBudgetMs ?? SEARCH_TIME_BUDGET_MS;
  const name = "search_code";
  return defineTool<SearchCodeInput>({
    definition: {
      name,
      description:
        "Search text files in the working directory with a regular expression (JavaScript syntax, no lookaround or backreferences). " +
        `Returns file:line: text, at most ${SEARCH_MATCH_CAP} matches. Skips .git, node_modules and binary files.`,
      inputSchema: {
        type: "object",
        properties: {
          pattern: { type: "string", minLength: 1, description: "Regular expression" },
          path: {
            type: "string",
            description: "Folder or file to search, relative to the working directory; default .",
          },
          glob: {
            type: "string",
            description: "Only files whose path (relative to `path`) matches this glob",
          },
          case_insensitive: { type: "boolean" },
        },
        required: ["pattern"],
        additionalProperties: false,
      },
      safety: "read_only",
      category: "read",
      origin: "system",
    },
    describe: (input, { workdir }) => describePath(input, workdir, ".", roots),
    async execute(input, context): Promise<ToolExecution> {
      const { pattern } = input;
      // The model's pattern is untrusted: linear-time engine, like ripgrep's (S18).
      const compiled = tryLinearRegExp(pattern, input.case_insensitive ? "i" : "");
      if (!compiled.ok)
        return failure(name, "invalid_arguments", `invalid regular expression: ${compiled.error.message}`);
      const regex = compiled.regex;
      const fileGlob = input.glob;
      let fileMatcher: LinearRegExp | undefined;
      try {
        fileMatcher = fileGlob ? globToRegExp(fileGlob) : undefined;
      } catch (error) {
        return failure(name, "invalid_arguments", `invalid glob "${fileGlob}": ${(error as Error).message}`);
      }
      const confined = confinePathArgument(name, input, context.workdir, ".", roots);
      if (isExecution(confined)) return confined;
      const start = await openForTool(name, confined, "searching");
      if (isExecution(start)) return start;

      const prefix = walkPrefix(confined, context.workdir);
      let files: SearchedFile[] = [];
      let walked: WalkSummary | undefined;
      try {
        if (!start.stats.isDirectory()) {
          files.push({ fromRoot: confined.relative, shown: shownPath(confined, context.workdir) });
        } else {
          const collected = await collectWalk(walkFiles(start, confined, "searching", context.signal));
          walked = collected.summary;
          for (const entry of collected.entries) {
            if (!entry.isSymlink) files.push({ fromRoot: entry.fromRoot, shown: prefix + entry.relative });
          }
        }
      } finally {
        await start.handle.close();
      }
      if (fileMatcher && walked) {
        const relatives = files.map((file) => file.shown.slice(prefix.length));
        files = matchGlob(relatives, fileMatcher).map((index) => files[index]!);
      }

      const matches: string[] = [];
      let total = 0;
      let filesSearched = 0;
      let stoppedAt: string | undefined;
      const deadline = Date.now() + timeBudgetMs;
      const changedPaths = walked ? [...walked.changedFolders] : [];
      const opener = new ConfinedOpener(confined.root, "searching");
      try {
        for (const file of files) {
          if (context.signal.aborted) break;
          if (Date.now() > deadline) {
            stoppedAt = file.shown;
            break;
          }
          const text = await readSearchable(opener, file.fromRoot, changedPaths);
          if (text === undefined) continue;
          filesSearched++;
          total += searchText(text, file.shown, regex, matches);
          if (total >= SEARCH_MATCH_CAP * 5) break;
        }
      } finally {
        await opener.close();
      }
      const changedNote = changedPathsNote(changedPaths);
      const stoppedNote =
        stoppedAt === undefined
          ? ""
          : `\n[search stopped at ${stoppedAt} after ${timeBudgetMs / 1000} s (${filesSearched} of ${files.length} files searched); narrow the path or glob]`;
      const changedSuffix = (changedNote ? `\n${changedNote}` : "") + stoppedNote;
      if (total === 0) {
        return cappedSuccess(
          name,
          `no matches for /${pattern}/ in ${filesSearched} file${filesSearched === 1 ? "" : "s"}${changedSuffix}`,
          {
            matches: 0,
            filesSearched,
          },
        );
      }
      const note =
        total > matches.length
          ? `\n[${total - matches.length}+ more matches not shown; narrow the pattern or path]`
          : "";
      return cappedSuccess(name, matches.join("\n") + note + changedSuffix, {
        matches: total,
        shown: matches.length,
        filesSearched,
      });
    },
  });
}

/**
 * The text of a file worth searching (a regular text file of at most 2 MiB), opened through confined-fs.
 * Vanished or unreadable since the walk: skipped like grep -s. Changed under the call (a symlink swapped in,
 * a folder moved): skipped and recorded in `changedPaths`, so the result says so.
 */
async function readSearchable(
  opener: ConfinedOpener,
  relative: string,
  changedPaths: string[],
): Promise<string | undefined> {
  let opened;
  try {
    opened = await opener.open(relative);
  } catch (error) {
    if (error instanceof PathRefused) changedPaths.push(relative);
    return undefined;
  }
  try {
    if (!opened.stats.isFile() || opened.stats.size > MAX_SEARCHED_FILE_BYTES) return undefined;
    if (await looksBinary(opened)) return undefined;
    return (await readWhole(opened, MAX_SEARCHED_FILE_BYTES)).toString("utf8");
  } catch {
    return undefined;
  } finally {
    await opened.handle.close();
  }
}

/** Adds `file:line: text` rows to `matches` (up to the cap) and returns how many lines matched. */
function searchText(text: string, shown: string, regex: LinearRegExp, matches: string[]): number {
  const lines = text.split("\n");
  let hits = 0;
  for (const [index, line] of lines.entries()) {
    if (!regex.test(line.length > MAX_TESTED_LINE_CHARS ? line.slice(0, MAX_TESTED_LINE_CHARS) : line))
      continue;
    hits++;
    if (matches.length >= SEARCH_MATCH_CAP) continue;
    const clean = line.replace(/\r$/, "");
    const shownLine = clean.length > MAX_LINE_CHARS ? `${clean.slice(0, MAX_LINE_CHARS)}…` : clean;
    matches.push(`${shown}:${index + 1}: ${shownLine}`);
  }
  return hits;
}
