import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { Tool, ToolExecution } from "../types.ts";
import {
  cappedSuccess,
  failure,
  fileFailure,
  looksBinary,
  numberField,
  pathTool,
  stringField,
} from "./common.ts";

/** Bytes of a file read_file returns in one call; beyond it the model is told to ask for a line range. */
export const READ_FILE_CAP_BYTES = 256 * 1024;

export function createReadFileTool(): Tool {
  const name = "read_file";
  return pathTool({
    definition: {
      name,
      description:
        "Read a text file in the working directory. Optional 1-based inclusive line range. " +
        `At most ${READ_FILE_CAP_BYTES / 1024} KiB are returned per call; binary files are refused.`,
      inputSchema: {
        type: "object",
        properties: {
          path: { type: "string", description: "Path relative to the working directory" },
          start_line: { type: "integer", minimum: 1 },
          end_line: { type: "integer", minimum: 1 },
        },
        required: ["path"],
        additionalProperties: false,
      },
      safety: "read_only",
      category: "read",
      origin: "system",
    },
    async execute({ absolute, relative }, input): Promise<ToolExecution> {
      const startLine = numberField(input, "start_line");
      const endLine = numberField(input, "end_line");
      if (startLine !== undefined && endLine !== undefined && endLine < startLine) {
        return failure(name, "invalid_arguments", `end_line ${endLine} is before start_line ${startLine}`);
      }
      try {
        const info = await stat(absolute);
        if (info.isDirectory()) {
          return failure(name, "is_directory", `${relative} is a directory; use list_files to see its files`);
        }
        if (!info.isFile()) {
          // A FIFO or device would block the read (and a thread of the pool) forever.
          return failure(name, "not_a_file", `${relative} is not a regular file`);
        }
        if (await looksBinary(absolute)) {
          return failure(
            name,
            "binary_file",
            `${relative} is a binary file (${info.size} bytes); read_file only returns text`,
          );
        }
        if (startLine !== undefined || endLine !== undefined) {
          return await readLineRange(name, absolute, relative, startLine ?? 1, endLine);
        }
        return await readHead(name, absolute, relative, info.size);
      } catch (error) {
        return fileFailure(name, error, relative);
      }
    },
  });
}

async function readHead(
  name: string,
  absolute: string,
  relative: string,
  size: number,
): Promise<ToolExecution> {
  const handle = await open(absolute, "r");
  let text: string;
  let bytesRead: number;
  try {
    const buffer = Buffer.alloc(Math.min(size, READ_FILE_CAP_BYTES));
    ({ bytesRead } = await handle.read(buffer, 0, buffer.length, 0));
    text = buffer.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
  if (size <= READ_FILE_CAP_BYTES) return cappedSuccess(name, text, { path: relative, bytes: size });
  const shownLines = text.split("\n").length;
  const note =
    `\n\n[read_file: ${relative} is ${size} bytes; only the first ${bytesRead} bytes (about ${shownLines} lines) ` +
    "are shown. Ask for start_line/end_line to read further.]";
  return cappedSuccess(name, text + note, { path: relative, bytes: size, truncated: true });
}

async function readLineRange(
  name: string,
  absolute: string,
  relative: string,
  startLine: number,
  endLine: number | undefined,
): Promise<ToolExecution> {
  const lines: string[] = [];
  let bytes = 0;
  let lineNumber = 0;
  let cut = false;
  const stream = createReadStream(absolute, { encoding: "utf8" });
  const reader = createInterface({ input: stream, crlfDelay: Infinity });
  try {
    for await (const line of reader) {
      lineNumber++;
      if (lineNumber < startLine) continue;
      if (endLine !== undefined && lineNumber > endLine) break;
      bytes += Buffer.byteLength(line, "utf8") + 1;
      if (bytes > READ_FILE_CAP_BYTES) {
        cut = true;
        break;
      }
      lines.push(line);
    }
  } finally {
    reader.close();
    stream.destroy();
  }
  if (lines.length === 0 && lineNumber < startLine) {
    return failure(
      name,
      "invalid_arguments",
      `${relative} has only ${lineNumber} lines; start_line ${startLine} is past the end`,
    );
  }
  const lastShown = startLine + lines.length - 1;
  let text = lines.join("\n");
  if (cut) {
    text += `\n\n[read_file: stopped after line ${lastShown} at the ${READ_FILE_CAP_BYTES / 1024} KiB cap; ask for start_line ${lastShown + 1} to continue.]`;
  }
  return cappedSuccess(name, text, { path: relative, startLine, endLine: lastShown, truncated: cut });
}
