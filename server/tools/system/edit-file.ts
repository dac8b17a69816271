import { okResult, type Tool, type ToolExecution } from "../types.ts";
import { failure, fileFailure, isExecution, looksBinary, openForTool, pathTool } from "./common.ts";
import { readWhole, writeConfined } from "./confined-fs.ts";

export interface EditFileInput {
  path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export function createEditFileTool(): Tool<EditFileInput> {
  const name = "edit_file";
  return pathTool<EditFileInput>({
    definition: {
      name,
      description:
        "Replace an exact piece of text in a file. `old_string` must occur exactly once (include surrounding " +
        "lines to make it unique), unless replace_all is true. Whitespace and indentation must match exactly.",
      inputSchema: {
        type: "object",
        properties: {
          path: { type: "string", description: "Path relative to the working directory" },
          old_string: { type: "string", minLength: 1 },
          new_string: { type: "string" },
          replace_all: { type: "boolean" },
        },
        required: ["path", "old_string", "new_string"],
        additionalProperties: false,
      },
      safety: "side_effect",
      category: "write",
      origin: "system",
    },
    async execute(confined, input): Promise<ToolExecution> {
      const { relative } = confined;
      const { old_string: oldText, new_string: newText, replace_all: replaceAll = false } = input;
      if (oldText.length === 0) return failure(name, "invalid_arguments", "old_string must not be empty");
      if (oldText === newText)
        return failure(name, "invalid_arguments", "old_string and new_string are identical");
      const opened = await openForTool(name, confined, "reading");
      if (isExecution(opened)) return opened;
      let original: string;
      try {
        if (!opened.stats.isFile()) {
          return failure(name, "not_a_file", `${relative} is not a regular file`);
        }
        if (await looksBinary(opened)) {
          return failure(name, "binary_file", `${relative} is a binary file; edit_file only edits text`);
        }
        original = (await readWhole(opened)).toString("utf8");
      } catch (error) {
        return fileFailure(name, error, relative);
      } finally {
        await opened.handle.close();
      }
      try {
        const occurrences = countOccurrences(original, oldText);
        if (occurrences === 0) {
          return failure(
            name,
            "edit_no_match",
            `old_string was not found in ${relative}; read the file and copy the text exactly`,
          );
        }
        if (occurrences > 1 && !replaceAll) {
          return failure(
            name,
            "edit_not_unique",
            `old_string occurs ${occurrences} times in ${relative}; add surrounding lines to make it unique, or set replace_all`,
          );
        }
        const updated = replaceAll
          ? original.split(oldText).join(newText)
          : replaceOnce(original, oldText, newText);
        // The same real path, opened again without following symlinks: a swap since the read is refused.
        await writeConfined(confined, updated);
        return {
          result: okResult(name, `edited ${relative}: ${replaceAll ? occurrences : 1} replacement(s)`, {
            path: relative,
            replacements: replaceAll ? occurrences : 1,
          }),
        };
      } catch (error) {
        return fileFailure(name, error, relative);
      }
    },
  });
}

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let index = text.indexOf(needle); index >= 0; index = text.indexOf(needle, index + needle.length))
    count++;
  return count;
}

/** Literal replacement; String.replace would interpret `$&` and `$1` in the new text. */
function replaceOnce(text: string, needle: string, replacement: string): string {
  const index = text.indexOf(needle);
  return text.slice(0, index) + replacement + text.slice(index + needle.length);
}
