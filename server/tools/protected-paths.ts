// THE RULE (docs/design.md §3): nothing the agent writes may be read later by a host program as
// configuration or code it runs without the user meaning to.
//
// Two host programs read the workdir that way, before the user has a chance to look at what changed:
//  - git. Every `git` command the user types finds its repository from the folder it runs in (a `.git`
//    entry there or in a parent, or the folder itself when it looks like a bare repository: a valid HEAD
//    next to objects/ and refs/, or next to a commondir file) and then obeys that repository's config and hooks
//    (core.fsmonitor and core.pager run programs on a plain `git status` or `git log`). None of it shows in
//    `git status` or `git diff`.
//  - the playground itself: `<workdir>/.PseudoClaude/` (settings, skills, evals) and `<workdir>/.mcp.json`
//    decide what the next session grants and which servers it starts.
// So the protected set is derived, not listed: a path is protected when it lies in a `.git` entry or in the
// playground's configuration, or when writing it puts something into a folder that looks like a git
// repository or makes one look like that, or when a repository's configuration names it as something git
// runs or loads as configuration (a hooks folder, an included file, a driver's program: git-config-paths.ts
// reads them with the host's git). The sandbox enforces the same set for processes (sandbox.ts,
// sandbox-git.ts); this module decides it for the file tools and the permission engine, where protected
// writes ask in every mode.
//
// Not in the set, on purpose: files the user runs by choice (package.json scripts, a Makefile, tests).
// They are the project: the chat and the diff show every such write, and the user reviews them before
// running them.
import { readdirSync } from "node:fs";
import path from "node:path";

/** Names that are protected wherever they appear in a workdir path (compared case-insensitively). */
export const PROTECTED_NAMES = [".git", ".PseudoClaude", ".mcp.json"] as const;
export type ProtectedName = (typeof PROTECTED_NAMES)[number];

/** A path inside a folder git would take for a repository, or one that would make a folder look like one. */
export const GIT_REPOSITORY_AREA = "git repository";

/**
 * A path a repository's configuration names for git to run or load (git-config-paths.ts), with what names
 * it: `git configuration: .husky (core.hookspath)`.
 */
export const GIT_CONFIGURED_AREA = "git configuration";

/** What a protected write touches: a protected name, a repository's files, or a run-later file of the home. */
export type ProtectedArea =
  ProtectedName | typeof GIT_REPOSITORY_AREA | `${typeof GIT_CONFIGURED_AREA}: ${string}` | `~/${string}`;

/**
 * Names a path needs no file-system look-up to protect: `HEAD` and `commondir` appear only where a
 * repository is or is being made (the shell rules of the permission engine are pure, so they see only names).
 */
const LEXICAL_MARKERS = ["head", "commondir"];

/**
 * Whether a folder with these entry names looks like a git directory to git (setup.c, is_git_directory):
 * a HEAD, and objects/ and refs/ (or a commondir file naming where they are). git also needs the HEAD to
 * be valid; the names alone are enough to ask before a write, and sandbox-git.ts reads the HEAD too.
 */
export function looksLikeRepository(names: Iterable<string>): boolean {
  const lower = new Set([...names].map((name) => name.toLowerCase()));
  return lower.has("head") && (lower.has("commondir") || (lower.has("objects") && lower.has("refs")));
}

/**
 * The protected area of a workdir-relative path judged on its text alone: any segment named `.git`,
 * `.PseudoClaude` or `.mcp.json`, or `HEAD` / `commondir` (a repository's own files). Compared
 * case-insensitively: on macOS and Windows `.GIT/config` is `.git/config`; on a case-sensitive file system
 * this costs one extra question, nothing more.
 */
export function protectedAreaOf(
  relativePath: string,
): ProtectedName | typeof GIT_REPOSITORY_AREA | undefined {
  const segments = relativePath.split(/[\\/]+/).map((segment) => segment.toLowerCase());
  const named = PROTECTED_NAMES.find((name) => segments.includes(name.toLowerCase()));
  if (named) return named;
  return segments.some((segment) => LEXICAL_MARKERS.includes(segment)) ? GIT_REPOSITORY_AREA : undefined;
}

/**
 * The git-repository area of a path under the real workdir `root`, looked up on disk: a folder on the way
 * (the workdir first) that looks like a repository, or would once the path is written (`objects/x` next to
 * a HEAD). Folders that do not exist yet count with the path's own parts only.
 */
export function repositoryAreaAt(root: string, relative: string): typeof GIT_REPOSITORY_AREA | undefined {
  if (relative === ".") return undefined;
  const parts = relative.split("/");
  let folder: string | undefined = root;
  for (const part of parts) {
    const names: string[] | undefined = folder !== undefined ? entryNames(folder) : undefined;
    if (looksLikeRepository([...(names ?? []), part])) return GIT_REPOSITORY_AREA;
    folder = names !== undefined && folder !== undefined ? path.join(folder, part) : undefined;
  }
  return undefined;
}

function entryNames(folder: string): string[] | undefined {
  try {
    return readdirSync(folder);
  } catch {
    return undefined;
  }
}

/** Why writes to `area` always ask: shown as the reason of the permission decision. */
export function protectedAreaReason(area: string): string {
  switch (area) {
    case ".git":
      return "writes into .git/ always ask, whatever the mode: git on this machine reads it to find the repository and obeys its config and hooks";
    case ".PseudoClaude":
      return "writes into .PseudoClaude/ always ask, whatever the mode: the playground reads its settings, skills and evals";
    case ".mcp.json":
      return "writes to .mcp.json always ask, whatever the mode: the playground starts the MCP servers it names";
    case GIT_REPOSITORY_AREA:
      return (
        "writes that change or make a git repository (a HEAD next to objects/ and refs/, or commondir) always ask, " +
        "whatever the mode: git on this machine would take the folder for a repository and run what its config says"
      );
    default:
      if (area.startsWith(`${GIT_CONFIGURED_AREA}: `))
        return (
          `writes to ${area.slice(GIT_CONFIGURED_AREA.length + 2)} always ask, whatever the mode: the repository's ` +
          "git configuration names it, so git on this machine runs it or reads it as configuration"
        );
      return `writes into ${area}/ always ask, whatever the mode: it runs code or grants permissions later`;
  }
}
