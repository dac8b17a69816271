import { readFile, stat } from "node:fs/promises";
import { globToRegExp } from "../glob.ts";
import type { Tool, ToolExecution } from "../types.ts";
import {
  booleanField,
  cappedSuccess,
  confinePathArgument,
  describePath,
  failure,
  isExecution,
  looksBinary,
  matchGlob,
  statWalkStart,
  stringField,
  walkPrefix,
} from "./common.ts";
import { matchingLineIndexes, RegexTimeout } from "./regex-guard.ts";
import { walkFiles } from "./walk.ts";

export const SEARCH_MATCH_CAP = 200;
/** Files above this size are skipped (generated bundles, data dumps). */
const MAX_SEARCHED_FILE_BYTES = 2 * 1024 * 1024;
/** Characters of a matching line shown, and tested (bounds the cost of a pathological regex). */
const MAX_LINE_CHARS = 400;
const MAX_TESTED_LINE_CHARS = 10_000;
/** Time one search may spend matching, so a backtracking regex cannot freeze the server. */
export const SEARCH_TIME_BUDGET_MS = 5_000;

export function createSearchCodeTool(options: { timeBudgetMs?: number } = {}): Tool {
  const timeBudgetMs = options.timeBudgetMs ?? SEARCH_TIME_BUDGET_MS;
  const name = "search_code";
  return {
    definition: {
      name,
      description:
        "Search text files in the working directory with a regular expression (JavaScript syntax). " +
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
    describe: (input, { workdir }) => describePath(input, workdir, "path", "."),
    async execute(input, context): Promise<ToolExecution> {
      const pattern = stringField(input, "pattern") ?? "";
      let regex: RegExp;
      try {
        regex = new RegExp(pattern, booleanField(input, "case_insensitive") ? "i" : "");
      } catch (error) {
        return failure(name, "invalid_arguments", `invalid regular expression: ${(error as Error).message}`);
      }
      const fileGlob = stringField(input, "glob");
      let fileMatcher: { text: string; matcher: RegExp } | undefined;
      try {
        fileMatcher = fileGlob ? { text: fileGlob, matcher: globToRegExp(fileGlob) } : undefined;
      } catch (error) {
        return failure(name, "invalid_arguments", `invalid glob "${fileGlob}": ${(error as Error).message}`);
      }
      const confined = confinePathArgument(name, input, context.workdir, ".");
      if (isExecution(confined)) return confined;
      const info = await statWalkStart(name, confined);
      if (isExecution(info)) return info;

      const prefix = walkPrefix(confined);
      let files: { absolute: string; shown: string }[] = [];
      if (info.isFile()) {
        files.push({ absolute: confined.absolute, shown: confined.relative });
      } else {
        for await (const entry of walkFiles(confined.absolute, context.signal)) {
          if (!entry.isSymlink) files.push({ absolute: entry.absolute, shown: prefix + entry.relative });
        }
        if (fileMatcher) {
          const relatives = files.map((file) => file.shown.slice(prefix.length));
          const hits = matchGlob(name, relatives, fileMatcher, timeBudgetMs);
          if (isExecution(hits)) return hits;
          files = hits.map((index) => files[index]!);
        }
      }

      const matches: string[] = [];
      let total = 0;
      let filesSearched = 0;
      const deadline = Date.now() + timeBudgetMs;
      for (const file of files) {
        if (context.signal.aborted) break;
        if (!(await isSearchable(file.absolute))) continue;
        filesSearched++;
        try {
          total += await searchFile(file, regex, matches, deadline - Date.now());
        } catch (error) {
          if (error instanceof RegexTimeout) {
            return failure(
              name,
              "search_timeout",
              `search stopped in ${file.shown}: ${error.message} (budget ${timeBudgetMs} ms). ` +
                "Simplify the pattern: nested quantifiers like (a+)+ backtrack exponentially.",
            );
          }
          // Unreadable since the walk (deleted, permissions): skip it like grep -s.
          continue;
        }
        if (total >= SEARCH_MATCH_CAP * 5) break;
      }
      if (total === 0) {
        return cappedSuccess(name, `no matches for /${pattern}/ in ${filesSearched} files`, {
          matches: 0,
          filesSearched,
        });
      }
      const note =
        total > matches.length
          ? `\n[${total - matches.length}+ more matches not shown; narrow the pattern or path]`
          : "";
      return cappedSuccess(name, matches.join("\n") + note, {
        matches: total,
        shown: matches.length,
        filesSearched,
      });
    },
  };
}

async function isSearchable(absolute: string): Promise<boolean> {
  try {
    const info = await stat(absolute);
    if (!info.isFile() || info.size > MAX_SEARCHED_FILE_BYTES) return false;
    return !(await looksBinary(absolute));
  } catch {
    // Vanished or unreadable since the walk: nothing to search.
    return false;
  }
}

/** Adds `file:line: text` rows to `matches` (up to the cap) and returns how many lines matched. */
async function searchFile(
  file: { absolute: string; shown: string },
  regex: RegExp,
  matches: string[],
  timeoutMs: number,
): Promise<number> {
  const text = await readFile(file.absolute, "utf8");
  const lines = text.split("\n");
  const hits = matchingLineIndexes(text, regex, timeoutMs, MAX_TESTED_LINE_CHARS);
  for (const index of hits) {
    if (matches.length >= SEARCH_MATCH_CAP) break;
    const line = lines[index]!.replace(/\r$/, "");
    const shownLine = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
    matches.push(`${file.shown}:${index + 1}: ${shownLine}`);
  }
  return hits.length;
}
