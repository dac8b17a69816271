import { stat } from "node:fs/promises";
import { globToRegExp } from "../glob.ts";
import { failResult, type Tool, type ToolExecution } from "../types.ts";
import { cappedSuccess, confine, describePath, isExecution, stringField } from "./common.ts";
import { walkFiles } from "./walk.ts";

/** Paths returned per call; the model is told how many more matched. */
export const LIST_FILES_CAP = 500;

export function createListFilesTool(): Tool {
  const name = "list_files";
  return {
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
    describe: (input, { workdir }) => describePath(input, workdir, "path", "."),
    async execute(input, context): Promise<ToolExecution> {
      const confined = confine(name, context.workdir, stringField(input, "path") ?? ".");
      if (isExecution(confined)) return confined;
      const pattern = stringField(input, "pattern") ?? "**/*";
      let matcher: RegExp;
      try {
        matcher = globToRegExp(pattern.replace(/^\.\//, ""));
      } catch (error) {
        return {
          result: failResult(
            name,
            "invalid_arguments",
            `invalid glob "${pattern}": ${(error as Error).message}`,
          ),
        };
      }
      const folderInfo = await stat(confined.absolute).catch((error: NodeJS.ErrnoException) => error);
      if (folderInfo instanceof Error) {
        return { result: failResult(name, "not_found", `${confined.relative} does not exist`) };
      }
      if (!folderInfo.isDirectory()) {
        return {
          result: failResult(name, "not_a_directory", `${confined.relative} is a file, not a folder`),
        };
      }
      const prefix = confined.relative === "." ? "" : `${confined.relative}/`;
      const shown: string[] = [];
      let matched = 0;
      const walk = walkFiles(confined.absolute, context.signal);
      let step = await walk.next();
      while (!step.done) {
        if (matcher.test(step.value.relative)) {
          matched++;
          if (shown.length < LIST_FILES_CAP)
            shown.push(prefix + step.value.relative + (step.value.isSymlink ? " -> (symlink)" : ""));
        }
        step = await walk.next();
      }
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
  };
}
