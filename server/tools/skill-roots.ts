// Level 3 of disclosure for the file tools: once a skill is loaded, read_file, list_files and
// search_code may read inside its folder. Read-only (writes stay workdir-only: they never consult this),
// confined to the folder's realpath by the same rules as the workdir (symlinks out of it refused), and
// only for loaded skills: the roots come from the session's ActiveSkills at the moment of the call.
import path from "node:path";
import { isInside, resolveInWorkdir, type PathDecision } from "./confine.ts";

/** A loaded skill's folder. */
export interface SkillRoot {
  skill: string;
  /** Realpath of the folder. */
  root: string;
  /** The folder as the catalog found it (through a symlink, maybe). */
  given: string;
  /**
   * Called before a file of the folder is read (an MCP server's skill: the file is fetched and checked
   * against its listed digest then, never before); a returned text refuses the read with that reason.
   */
  prepare?: (relative: string) => Promise<string | undefined>;
  /** `mcp:<server>` for a skill an MCP server serves: while it is loaded, commands ask (run-command.ts). */
  mcpSource?: string;
}

/** The roots readable right now (read live: a skill loaded a moment ago is included). */
export type SkillRootsProvider = () => readonly SkillRoot[];

/** The loaded skill a confined path belongs to, and the path relative to its folder. */
export interface SkillFile {
  skill: string;
  path: string;
}

/** A confined path, with the loaded skill whose folder it is in (absent: none). */
export type ReadDecision = PathDecision & { skillFile?: SkillFile };

function skillFileAt(absolute: string, roots: readonly SkillRoot[]): SkillFile | undefined {
  const root = roots.find((candidate) => isInside(candidate.root, absolute));
  if (!root) return undefined;
  return { skill: root.skill, path: path.relative(root.root, absolute).split(path.sep).join("/") || "." };
}

/**
 * Resolves a path a read-only tool was given: in the working directory as always; when that refuses it
 * and the path (as written, relative to the workdir or absolute) lies in a loaded skill's folder, in that
 * folder instead, with the folder as the root. The result's `relative` is then relative to the folder.
 */
export function resolveReadable(
  workdir: string,
  userPath: string,
  roots: SkillRootsProvider | undefined,
): ReadDecision {
  const decision = resolveInWorkdir(workdir, userPath);
  if (!roots) return decision;
  const loaded = roots();
  if (decision.ok) {
    // A project-layer skill lives in the workdir: still its resource, read as a workdir path.
    const skillFile = skillFileAt(decision.absolute, loaded);
    return skillFile ? { ...decision, skillFile } : decision;
  }
  if (typeof userPath !== "string" || userPath.includes("\0")) return decision;
  const lexical = path.resolve(workdir, userPath === "" ? "." : userPath);
  for (const root of loaded) {
    const viaGiven = isInside(root.given, lexical);
    if (!viaGiven && !isInside(root.root, lexical)) continue;
    const inRoot = viaGiven ? path.join(root.root, path.relative(root.given, lexical)) : lexical;
    const inner = resolveInWorkdir(root.root, inRoot);
    if (inner.ok) return { ...inner, skillFile: skillFileAt(inner.absolute, [root])! };
    return {
      ...inner,
      reason: inner.reason.replaceAll("the working directory", `the folder of skill "${root.skill}"`),
    };
  }
  return decision;
}

/** True when the path was confined to a skill's folder, not the working directory. */
export function outsideWorkdir(decision: ReadDecision & { ok: true }, workdir: string): boolean {
  return decision.root !== workdir;
}

/** The loaded skill whose folder a command line names (a script it runs), if any. */
export function skillNamedIn(command: string, roots: SkillRootsProvider | undefined): string | undefined {
  if (!roots) return undefined;
  return roots().find((root) => command.includes(`${root.root}/`) || command.includes(`${root.given}/`))
    ?.skill;
}
