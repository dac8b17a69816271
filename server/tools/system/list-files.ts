import type { LinearRegExp } from "../../protocol/linear-regex.ts";
import { globToRegExp } from "../glob.ts";
import type { SkillRootsProvider } from "../skill-roots.ts";
import type { Tool, ToolExecution } from "../types.ts";
import {
  cappedSuccess,
  failure,
  isExecution,
  matchGlob,
  openForTool,
  pathTool,
  walkPrefix,
} from "./common.ts";
import { changedPathsNote, collectWalk, walkFiles, type WalkEntry, type WalkSummary } from "./walk.ts";

/** Paths returned per call; the model is told how many more matched. */
export const LIST_FILES_CAP = 500;

export interface ListFilesInput {
  pattern?: string;
  path?: string;
}

export function createListFilesTool(options: { skillRoots?: SkillRootsProvider } = {}): Tool<ListFilesInput> {
  const name = "list_files";
  return pathTool<ListFilesInput>({
    defaultPath: ".",
    ...(options.skillRoots ? { skillRoots: options.skillRoots } : {}),
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
      const pattern = input.pattern ?? "**/*";
      let matcher: LinearRegExp;
      try {
        matcher = globToRegExp(pattern.replace(/^\.\//, ""));
      } catch (error) {
        return failure(name, "invalid_arguments", `invalid glob "${pattern}": ${(error as Error).message}`);
      }
      const folder = await openForTool(name, confined, "listing");
      if (isExecution(folder)) return folder;
      let collected: { entries: WalkEntry[]; summary: WalkSummary };
      try {
        if (!folder.stats.isDirectory()) {
          return failure(name, "not_a_directory", `${confined.relative} is a file, not a folder`);
        }
        collected = await collectWalk(walkFiles(folder, confined, "listing", context.signal));
      } finally {
        await folder.handle.close();
      }
      const { entries, summary: walked } = collected;
      const prefix = walkPrefix(confined, context.workdir);
      const hits = matchGlob(
        entries.map((entry) => entry.relative),
        matcher,
      );
      const matched = hits.length;
      const shown = hits
        .slice(0, LIST_FILES_CAP)
        .map(
          (index) => prefix + entries[index]!.relative + (entries[index]!.isSymlink ? " -> (symlink)" : ""),
        );
      const notes: string[] = [];
      if (matched > shown.length)
        notes.push(`[${matched - shown.length} more matching paths not shown; narrow the pattern]`);
      if (!walked.exhausted) notes.push("[the folder is too large to walk completely; results are partial]");
      const changedNote = changedPathsNote(walked.changedFolders);
      if (changedNote) notes.push(changedNote);
      const body =
        shown.length > 0 ? shown.join("\n") : `no files match "${pattern}" in ${confined.relative}`;
      return cappedSuccess(name, [body, ...notes].join("\n"), {
        matched,
        shown: shown.length,
        complete: walked.exhausted && walked.changedFolders.length === 0,
      });
    },
  });
}
