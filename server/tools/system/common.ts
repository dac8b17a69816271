import type { LinearRegExp } from "../../protocol/linear-regex.ts";
import type { ConfinedPath } from "../confine.ts";
import { resolveReadable, type ReadDecision, type SkillRootsProvider } from "../skill-roots.ts";
import { capForModel, capForUi } from "../output-cap.ts";
import {
  defineTool,
  failResult,
  okResult,
  type Tool,
  type ToolContext,
  type ToolDefinition,
  type ToolExecution,
  type ToolFailure,
  type ToolResultMetadata,
  type ToolTarget,
} from "../types.ts";
import { openConfined, PathRefused, type OpenedEntry, type Purpose } from "./confined-fs.ts";

/** A validated input's optional `path` argument (the Registry checked it against the schema). */
interface PathInput {
  path?: string;
}

/** A confined path: in the working directory, or (read-only tools) in a loaded skill's folder. */
export type ToolPath = ConfinedPath & { skillFile?: ReadDecision["skillFile"] };

/** True when the path was confined to a loaded skill's folder outside the working directory. */
export function inSkillFolder(confined: ToolPath, workdir: string): boolean {
  return confined.skillFile !== undefined && confined.root !== workdir;
}

/** How a path is shown to the model: relative to the workdir, or absolute in a skill's folder. */
export function shownPath(confined: ToolPath, workdir: string): string {
  return inSkillFolder(confined, workdir) ? confined.absolute : confined.relative;
}

/**
 * The permission target of a file tool: the real relative path, its protected area, or the refusal.
 * With `roots` (read-only tools), a path in a loaded skill's folder is accepted and named as its resource.
 */
export function describePath(
  input: PathInput,
  workdir: string,
  fallback?: string,
  roots?: SkillRootsProvider,
): ToolTarget {
  const given = input.path ?? fallback;
  if (given === undefined) return { cwd: workdir };
  const decision = resolveReadable(workdir, given, roots);
  if (!decision.ok) return { cwd: workdir, path: given, refusal: decision.reason };
  return {
    cwd: workdir,
    path: shownPath(decision, workdir),
    ...(decision.protectedArea ? { protectedArea: decision.protectedArea } : {}),
    ...(decision.skillFile ? { skillResource: decision.skillFile.skill } : {}),
  };
}

/** A failed execution: what the model reads when a tool cannot do what it was asked. */
export function failure(
  tool: string,
  errorType: ToolFailure["errorType"],
  message: string,
  metadata?: ToolResultMetadata,
): ToolExecution {
  return { result: failResult(tool, errorType, message, metadata) };
}

/** Resolves a path argument or produces the failure the model reads. */
export function confine(
  tool: string,
  workdir: string,
  userPath: string,
  roots?: SkillRootsProvider,
): ToolPath | ToolExecution {
  const decision = resolveReadable(workdir, userPath, roots);
  if (decision.ok) return decision;
  return failure(tool, decision.errorType, decision.reason);
}

/** Confines the `path` argument (`fallback` when it is absent), as describePath judged it for permission. */
export function confinePathArgument(
  tool: string,
  input: PathInput,
  workdir: string,
  fallback = "",
  roots?: SkillRootsProvider,
): ToolPath | ToolExecution {
  return confine(tool, workdir, input.path ?? fallback, roots);
}

/**
 * A tool whose `path` argument names a file or folder in the working directory. `describe` (what the
 * permission check sees) and `execute` resolve the same argument the same way, so they cannot drift apart;
 * `execute` only runs on a path confinement accepted.
 */
export function pathTool<Input extends { path?: string }>(options: {
  definition: ToolDefinition;
  /** Used when the `path` argument is absent; without it an absent path is refused. */
  defaultPath?: string;
  /** Read-only tools: the loaded skills' folders they may also read inside. Never given to a writing tool. */
  skillRoots?: SkillRootsProvider;
  execute(confined: ToolPath, input: Input, context: ToolContext): Promise<ToolExecution>;
}): Tool<Input> {
  const { definition, defaultPath, skillRoots } = options;
  return defineTool<Input>({
    definition,
    describe: (input, { workdir }) => describePath(input, workdir, defaultPath, skillRoots),
    async execute(input, context) {
      const confined = confinePathArgument(definition.name, input, context.workdir, defaultPath, skillRoots);
      if (isExecution(confined)) return confined;
      // A file of an MCP server's skill is fetched and verified now, or the read is refused with why.
      const skillFile = confined.skillFile;
      const root = skillFile
        ? skillRoots?.().find((candidate) => candidate.skill === skillFile.skill)
        : undefined;
      const refused = root?.prepare && skillFile ? await root.prepare(skillFile.path) : undefined;
      if (refused) return failure(definition.name, "path_refused", refused);
      return options.execute(confined, input, context);
    },
  });
}

/** Tells a failure from the value a step produced (a confined path, an opened entry, match indexes). */
export function isExecution<T extends object>(value: T | ToolExecution): value is ToolExecution {
  return "result" in value;
}

/** The failure a file operation ends in: a path that changed under the call, or the filesystem error. */
export function fileFailure(tool: string, error: unknown, relative: string): ToolExecution {
  if (error instanceof PathRefused) return failure(tool, "path_refused", error.message);
  const problem = fsErrorMessage(error, relative);
  return failure(tool, problem.errorType, problem.message);
}

/**
 * Opens a confined path (confined-fs: no symlink followed, the descriptor verified) or produces the
 * failure the model reads. The caller closes the handle.
 */
export async function openForTool(
  tool: string,
  confined: ConfinedPath,
  purpose: Purpose,
): Promise<OpenedEntry | ToolExecution> {
  try {
    return await openConfined(confined, purpose);
  } catch (error) {
    return fileFailure(tool, error, confined.relative);
  }
}

/**
 * What walked paths (relative to the start) are prefixed with to be relative to the working directory
 * (absolute in a loaded skill's folder outside it, so the model can read them back as shown).
 */
export function walkPrefix(confined: ToolPath, workdir?: string): string {
  if (workdir !== undefined && inSkillFolder(confined, workdir)) return `${confined.absolute}/`;
  return confined.relative === "." ? "" : `${confined.relative}/`;
}

/** Indexes of `paths` the glob matches. Globs compile for the linear-time engine: no time budget needed. */
export function matchGlob(paths: readonly string[], matcher: LinearRegExp): number[] {
  const hits: number[] = [];
  paths.forEach((entry, index) => {
    if (matcher.test(entry)) hits.push(index);
  });
  return hits;
}

/** A successful result: the model's copy capped to 30,000 characters, the full text kept for the UI. */
export function cappedSuccess(tool: string, content: string, metadata?: ToolResultMetadata): ToolExecution {
  const forModel = capForModel(content);
  if (!forModel.truncated) return { result: okResult(tool, content, metadata) };
  return {
    result: okResult(tool, forModel.text, {
      ...metadata,
      modelTruncated: true,
      omittedChars: forModel.omittedChars,
    }),
    fullOutput: capForUi(content).text,
  };
}

/** Bytes sniffed to tell text from binary: a NUL byte in the first 8 KiB means binary, as git decides. */
const SNIFF_BYTES = 8192;

export async function looksBinary(opened: OpenedEntry): Promise<boolean> {
  const buffer = Buffer.alloc(SNIFF_BYTES);
  const { bytesRead } = await opened.handle.read(buffer, 0, SNIFF_BYTES, 0);
  return buffer.subarray(0, bytesRead).includes(0);
}

export function fsErrorMessage(
  error: unknown,
  relative: string,
): { errorType: ToolFailure["errorType"]; message: string } {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === "ENOENT") return { errorType: "not_found", message: `${relative} does not exist` };
  if (code === "EISDIR") return { errorType: "is_directory", message: `${relative} is a directory` };
  if (code === "ENOTDIR")
    return { errorType: "not_found", message: `a parent of ${relative} is not a directory` };
  if (code === "EACCES" || code === "EPERM")
    return { errorType: "permission_error", message: `no permission to access ${relative}` };
  const text = error instanceof Error ? error.message : String(error);
  return { errorType: "io_error", message: `${relative}: ${text}` };
}
