import { lstatSync, realpathSync } from "node:fs";
import path from "node:path";
import { configuredPathAt } from "./git-config-paths.ts";
import { hiddenHomeEntryAt, protectedHomeEntryAt } from "./home-secrets.ts";
import {
  GIT_CONFIGURED_AREA,
  PROTECTED_NAMES,
  protectedAreaOf,
  repositoryAreaAt,
  type ProtectedArea,
  type ProtectedName,
} from "./protected-paths.ts";

export { protectedAreaOf, type ProtectedArea };

/**
 * Workdir confinement for every path a tool is given. The decision is made on real paths: the realpath of
 * the target, or of its nearest existing ancestor when the target does not exist yet, so a symlink
 * anywhere on the way cannot lead outside. Tools then operate on the returned real path, never on the
 * user's text (the kernel never sees a `..` from the model).
 */

export interface ConfinedPath {
  ok: true;
  /** Realpath of the working directory. */
  root: string;
  /** Real absolute path: realpath of the nearest existing ancestor plus the parts that do not exist yet. */
  absolute: string;
  /** Relative to the workdir's realpath, with `/` separators; "." for the workdir itself. */
  relative: string;
  exists: boolean;
  /** How many trailing parts of `relative` did not exist (0 when `exists`). */
  missingParts: number;
  /**
   * Set when writing the path must always ask (protected-paths.ts states the rule): it lies in `.git`,
   * `.PseudoClaude` or `.mcp.json` (at any depth), judged on the path as written and on its real path, so
   * `.PseudoClaude -> pc` protects both `.PseudoClaude/x` and `pc/x`; or in a folder that looks like a git
   * repository, or would once written. In a workdir that holds the home folder, also a file of it that runs
   * code later (`~/.bashrc`, `~/.config/git`). (A path a repository's git configuration names is found by
   * configuredAreaAt, which runs the host's git: the permission engine asks it for writes only.)
   */
  protectedArea?: ProtectedArea;
}

export interface RefusedPath {
  ok: false;
  errorType: "path_refused";
  reason: string;
}

export type PathDecision = ConfinedPath | RefusedPath;

function refuse(userPath: string, why: string): RefusedPath {
  return { ok: false, errorType: "path_refused", reason: `path "${printable(userPath)}" refused: ${why}` };
}

function printable(text: string): string {
  return text.replace(/\0/g, "\\0");
}

/** Separator-aware containment: `/w/proj-evil` is not inside `/w/proj`. */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  if (relative === "") return true;
  return relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

export function resolveInWorkdir(workdir: string, userPath: string): PathDecision {
  if (typeof userPath !== "string") return refuse(String(userPath), "the path must be a string");
  if (userPath.includes("\0")) return refuse(userPath, "it contains a NUL byte");
  // `~`, `~/x` and `~user/x` would mean a home folder to a shell; here they are never expanded.
  if (userPath.startsWith("~")) {
    return refuse(userPath, "`~` is not expanded; give a path relative to the working directory");
  }
  let root: string;
  try {
    root = realpathSync(workdir);
  } catch {
    return refuse(userPath, `the working directory ${workdir} does not exist`);
  }
  const lexical = path.resolve(root, userPath === "" ? "." : userPath);

  // Walk up to the nearest existing ancestor; remember the parts below it that do not exist yet.
  const missingParts: string[] = [];
  let probe = lexical;
  let realAncestor: string | undefined;
  for (;;) {
    try {
      realAncestor = realpathSync(probe);
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ELOOP") return refuse(userPath, "it goes through a symlink loop");
      // realpath lstat()s a component, then readlink()s it: EINVAL means it stopped being a symlink between.
      if (code === "EINVAL") {
        return refuse(userPath, "it changed while it was being resolved (a symlink was swapped in or out)");
      }
      if (code !== "ENOENT" && code !== "ENOTDIR") {
        return refuse(userPath, `it cannot be resolved (${code ?? "unknown error"})`);
      }
      if (isDanglingSymlink(probe)) {
        return refuse(
          userPath,
          `${path.relative(root, probe) || probe} is a symlink whose target does not exist`,
        );
      }
    }
    const parent = path.dirname(probe);
    if (parent === probe) return refuse(userPath, "no part of it exists");
    missingParts.unshift(path.basename(probe));
    probe = parent;
  }

  const absolute = missingParts.length > 0 ? path.join(realAncestor, ...missingParts) : realAncestor;
  if (!isInside(root, absolute)) {
    const how = isInside(root, lexical)
      ? "a symlink leads outside the working directory"
      : "it is outside the working directory";
    return refuse(userPath, how);
  }
  // File tools run outside the sandbox: what it hides from commands, they never touch either.
  const secret = hiddenHomeEntryAt(absolute);
  if (secret) return refuse(userPath, `${secret} holds secrets; tools never read or write it`);
  const relative = toRelative(root, absolute);
  // The path as written (relative to the workdir, whichever way it was named) and the real path.
  const givenRoot = path.resolve(workdir);
  const lexicalBase = isInside(root, lexical) ? root : isInside(givenRoot, lexical) ? givenRoot : undefined;
  const area =
    protectedAreaOf(relative) ??
    (lexicalBase !== undefined ? protectedAreaOf(toRelative(lexicalBase, lexical)) : undefined) ??
    protectedAreaByRealPath(root, absolute) ??
    repositoryAreaAt(root, relative) ??
    protectedHomeEntryAt(absolute);
  return {
    ok: true,
    root,
    absolute,
    relative,
    exists: missingParts.length === 0,
    missingParts: missingParts.length,
    ...(area ? { protectedArea: area } : {}),
  };
}

/**
 * Whether writing `target` (a path relative to the workdir, or absolute) writes what a repository's
 * configuration names for git to run or load (git-config-paths.ts). It runs the host's git (two short runs
 * per repository), so it is asked for writes only, not in every path decision.
 */
export function configuredAreaAt(workdir: string, target: string): ProtectedArea | undefined {
  const root = realpathOrUndefined(workdir);
  if (root === undefined) return undefined;
  const lexical = path.resolve(root, target);
  // The real path of what exists of it, like resolveInWorkdir: git names real paths.
  let existing = lexical;
  const missing: string[] = [];
  while (realpathOrUndefined(existing) === undefined && existing !== path.dirname(existing)) {
    missing.unshift(path.basename(existing));
    existing = path.dirname(existing);
  }
  const absolute = path.join(realpathOrUndefined(existing) ?? existing, ...missing);
  if (absolute === root || !isInside(root, absolute)) return undefined;
  const named = configuredPathAt(root, absolute);
  return named === undefined ? undefined : `${GIT_CONFIGURED_AREA}: ${named}`;
}

function toRelative(root: string, absolute: string): string {
  return path.relative(root, absolute).split(path.sep).join("/") || ".";
}

/**
 * The protected name whose real path contains `absolute`: `<workdir>/.git` or `<workdir>/.PseudoClaude`
 * may be symlinks to another folder of the workdir, and writing there by that folder's name must ask too.
 */
function protectedAreaByRealPath(root: string, absolute: string): ProtectedName | undefined {
  return PROTECTED_NAMES.find((area) => {
    const areaReal = realpathOrUndefined(path.join(root, area));
    return areaReal !== undefined && isInside(areaReal, absolute);
  });
}

function realpathOrUndefined(candidate: string): string | undefined {
  try {
    return realpathSync(candidate);
  } catch {
    return undefined;
  }
}

function isDanglingSymlink(candidate: string): boolean {
  try {
    return lstatSync(candidate).isSymbolicLink();
  } catch {
    return false;
  }
}
