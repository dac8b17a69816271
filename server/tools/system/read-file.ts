import { createInterface } from "node:readline";
import type { SkillRootsProvider } from "../skill-roots.ts";
import type { Tool, ToolExecution } from "../types.ts";
import {
  cappedSuccess,
  failure,
  fileFailure,
  isExecution,
  looksBinary,
  openForTool,
  pathTool,
  type ToolPath,
} from "./common.ts";
import type { OpenedEntry } from "./confined-fs.ts";

export interface ReadFileInput {
  path: string;
  start_line?: number;
  end_line?: number;
}

/** Bytes of a file read_file returns in one call; beyond it the model is told to ask for a line range. */
export const READ_FILE_CAP_BYTES = 256 * 1024;

export function createReadFileTool(options: { skillRoots?: SkillRootsProvider } = {}): Tool<ReadFileInput> {
  const name = "read_file";
  return pathTool<ReadFileInput>({
    ...(options.skillRoots ? { skillRoots: options.skillRoots } : {}),
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
    async execute(confined, input): Promise<ToolExecution> {
      return withSkillRead(await readConfined(name, confined, input), confined);
    },
  });
}

/**
 * A successful read of a loaded skill's file carries the `skill_resource_read` effect (level 3 of
 * disclosure): the Runner turns it into an event with the tokens of what the model received.
 */
function withSkillRead(execution: ToolExecution, confined: ToolPath): ToolExecution {
  const { result } = execution;
  if (!result.ok || !confined.skillFile) return execution;
  const effect = {
    type: "skill_resource_read" as const,
    skill: confined.skillFile.skill,
    path: confined.skillFile.path,
    bytes: Buffer.byteLength(result.content, "utf8"),
  };
  return { ...execution, result: { ...result, effects: [...(result.effects ?? []), effect] } };
}

async function readConfined(name: string, confined: ToolPath, input: ReadFileInput): Promise<ToolExecution> {
  const { relative } = confined;
  const { start_line: startLine, end_line: endLine } = input;
  if (startLine !== undefined && endLine !== undefined && endLine < startLine) {
    return failure(name, "invalid_arguments", `end_line ${endLine} is before start_line ${startLine}`);
  }
  const opened = await openForTool(name, confined, "reading");
  if (isExecution(opened)) return opened;
  try {
    const info = opened.stats;
    if (info.isDirectory()) {
      return failure(name, "is_directory", `${relative} is a directory; use list_files to see its files`);
    }
    if (!info.isFile()) {
      // A FIFO or device would block the read (and a thread of the pool) forever.
      return failure(name, "not_a_file", `${relative} is not a regular file`);
    }
    if (await looksBinary(opened)) {
      return failure(
        name,
        "binary_file",
        `${relative} is a binary file (${info.size} bytes); read_file only returns text`,
      );
    }
    if (startLine !== undefined || endLine !== undefined) {
      return await readLineRange(name, opened, startLine ?? 1, endLine);
    }
    return await readHead(name, opened, info.size);
  } catch (error) {
    return fileFailure(name, error, relative);
  } finally {
    await opened.handle.close();
  }
}

async function readHead(name: string, opened: OpenedEntry, size: number): Promise<ToolExecution> {
  const { relative } = opened;
  const buffer = Buffer.alloc(Math.min(size, READ_FILE_CAP_BYTES));
  const { bytesRead } = await opened.handle.read(buffer, 0, buffer.length, 0);
  const text = buffer.subarray(0, bytesRead).toString("utf8");
  if (size <= READ_FILE_CAP_BYTES) return cappedSuccess(name, text, { path: relative, bytes: size });
  const shownLines = text.split("\n").length;
  const note =
    `\n\n[read_file: ${relative} is ${size} bytes; only the first ${bytesRead} bytes (about ${shownLines} lines) ` +
    "are shown. Ask for start_line/end_line to read further.]";
  return cappedSuccess(name, text + note, { path: relative, bytes: size, truncated: true });
}

async function readLineRange(
  name: string,
  opened: OpenedEntry,
  startLine: number,
  endLine: number | undefined,
): Promise<ToolExecution> {
  const { relative } = opened;
  const lines: string[] = [];
  let bytes = 0;
  let lineNumber = 0;
  let cut = false;
  // From the verified descriptor; the caller closes it.
  const stream = opened.handle.createReadStream({ encoding: "utf8", start: 0, autoClose: false });
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
