import { okResult, type Tool, type ToolExecution } from "../types.ts";
import { failure, fileFailure, pathTool } from "./common.ts";
import { writeConfined } from "./confined-fs.ts";

export interface WriteFileInput {
  path: string;
  content: string;
}

export function createWriteFileTool(): Tool<WriteFileInput> {
  const name = "write_file";
  return pathTool<WriteFileInput>({
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
    async execute(confined, input): Promise<ToolExecution> {
      const { content } = input;
      if (confined.relative === ".") {
        return failure(name, "is_directory", "the working directory itself cannot be written as a file");
      }
      try {
        // Only the folders confinement saw missing are created; one that vanished since is a changed path.
        const createFolders = Math.max(0, confined.missingParts - 1);
        const { created } = await writeConfined(confined, content, createFolders);
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
        return fileFailure(name, error, confined.relative);
      }
    },
  });
}
