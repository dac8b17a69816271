import { failResult, okResult, type Tool, type ToolExecution } from "../types.ts";
import { writeFileAtomic, WriteRefused } from "./atomic-write.ts";
import { confine, describePath, fsErrorMessage, isExecution, stringField } from "./common.ts";

export function createWriteFileTool(): Tool {
  const name = "write_file";
  return {
    definition: {
      name,
      description:
        "Create or overwrite a file in the working directory with the given content. Missing parent folders " +
        "are created. The write is atomic (the file is never left half written).",
      inputSchema: {
        type: "object",
        properties: {
          path: { type: "string", description: "Path relative to the working directory" },
          content: { type: "string" },
        },
        required: ["path", "content"],
        additionalProperties: false,
      },
      safety: "side_effect",
      category: "write",
      origin: "system",
    },
    describe: (input, { workdir }) => describePath(input, workdir),
    async execute(input, context): Promise<ToolExecution> {
      const confined = confine(name, context.workdir, stringField(input, "path") ?? "");
      if (isExecution(confined)) return confined;
      const content = stringField(input, "content") ?? "";
      if (confined.relative === ".") {
        return {
          result: failResult(
            name,
            "is_directory",
            "the working directory itself cannot be written as a file",
          ),
        };
      }
      try {
        const { created } = await writeFileAtomic(context.workdir, confined.absolute, content);
        const bytes = Buffer.byteLength(content, "utf8");
        return {
          result: okResult(
            name,
            `${created ? "created" : "overwrote"} ${confined.relative} (${bytes} bytes)`,
            {
              path: confined.relative,
              bytes,
              created,
            },
          ),
        };
      } catch (error) {
        if (error instanceof WriteRefused) return { result: failResult(name, "path_refused", error.message) };
        const problem = fsErrorMessage(error, confined.relative);
        return { result: failResult(name, problem.errorType, problem.message) };
      }
    },
  };
}
