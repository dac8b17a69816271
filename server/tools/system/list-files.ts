import { globToRegExp } from "../glob.ts";
import type { Tool, ToolExecution } from "../types.ts";
import {
  cappedSuccess,
  failure,
  isExecution,
  matchGlob,
  pathTool,
  statWalkStart,
  stringField,
  walkPrefix,
} from "./common.ts";
import { walkFiles, type WalkEntry } from "./walk.ts";

/** Time one glob may spend matching the walked paths. */
const GLOB_TIME_BUDGET_MS = 5_000;

/** Paths returned per call; the model is told how many more matched. */
export const LIST_FILES_CAP = 500;

export function createListFilesTool(): Tool {
  const name = "list_files";
  return pathTool({
    defaultPath: ".",
    definition: {
      name,
      description:
        "List files in the working directory matching a glob (`**/*.ts`, `src/*`, `*.{md,txt}`). " +
        `Skips .git and node_modules; at most ${LIST_FILES_CAP} paths per call.`,
      inputSchema: {
        type: "object",
        properties: {
          pattern: { type: "string", description: "Glob relative to `path`; default **/*" },
          path: {
            type: "string",
            description: "Folder to list, relative to the working directory; default .",
          },
        },
        additionalProperties: false,
      },
      safety: "read_only",
      category: "read",
      origin: "system",
    },
    async execute(confined, input, context): Promise<ToolExecution> {
      const pattern = stringField(input, "pattern") ?? "**/*";
      let matcher: RegExp;
      try {
        matcher = globToRegExp(pattern.replace(/^\.\//, ""));
      } catch (error) {
        return failure(name, "invalid_arguments", `invalid glob "${pattern}": ${(error as Error).message}`);
      }
      const folderInfo = await statWalkStart(name, confined);
      if (isExecution(folderInfo)) return folderInfo;
      if (!folderInfo.isDirectory()) {
        return failure(name, "not_a_directory", `${confined.relative} is a file, not a folder`);
      }
      const prefix = walkPrefix(confined);
      const entries: WalkEntry[] = [];
      const walk = walkFiles(confined.absolute, context.signal);
      let step = await walk.next();
      while (!step.done) {
        entries.push(step.value);
        step = await walk.next();
      }
      const hits = matchGlob(
        name,
        entries.map((entry) => entry.relative),
        { text: pattern, matcher },
        GLOB_TIME_BUDGET_MS,
      );
      if (isExecution(hits)) return hits;
      const matched = hits.length;
      const shown = hits
        .slice(0, LIST_FILES_CAP)
        .map(
          (index) => prefix + entries[index]!.relative + (entries[index]!.isSymlink ? " -> (symlink)" : ""),
        );
      const notes: string[] = [];
      if (matched > shown.length)
        notes.push(`[${matched - shown.length} more matching paths not shown; narrow the pattern]`);
      if (!step.value.exhausted)
        notes.push("[the folder is too large to walk completely; results are partial]");
      const body =
        shown.length > 0 ? shown.join("\n") : `no files match "${pattern}" in ${confined.relative}`;
      return cappedSuccess(name, [body, ...notes].join("\n"), {
        matched,
        shown: shown.length,
        complete: step.value.exhausted,
      });
    },
  });
}
