import path from "node:path";
import { isInside } from "../tools/confine.ts";
import { analyzeShell, type ShellAnalysis, type ShellWord, type SimpleCommand } from "./shell-parse.ts";
import { SHELLS } from "./shell-programs.ts";
import { possiblePlaces, resolvePlace, type Place } from "./shell-writes.ts";

/**
 * Commands denied in every mode, bypassPermissions included, whatever the rules say. They are found on the
 * parsed line (shell-parse.ts): every simple command counts, including those inside substitutions,
 * readable `sh -c` / `eval` scripts, here-documents fed to a shell and `find -exec`, with the program
 * resolved through quotes, paths and wrappers. Each entry names itself so the trace can say which matched.
 */
export interface DangerousMatch {
  entry: string;
  reason: string;
}

const DOWNLOADERS = new Set(["curl", "wget"]);
/** Interpreters that run a program read from stdin when given no script argument. */
const STDIN_INTERPRETERS = new Set(["python", "python3", "perl", "ruby", "node", "php"]);
/** Block devices by their usual Linux and macOS names. */
const BLOCK_DEVICE = /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|md\d|dm-\d|mapper\/)/;
/** Wipe targets as written when their value is not literal (`$HOME`). */
const WIPE_WORDS = new Set(["$HOME", "$HOME/", "$HOME/*", "${HOME}", "${HOME}/", "${HOME}/*"]);
/** `$PWD` is the folder the line is in: read as `.` (`"$PWD"/*` as `*`). */
const CURRENT_FOLDER = /^"?\$\{?PWD\}?"?(\/\*?)?$/;

/**
 * What a recursive delete must never reach, wherever the line runs (the workdir may be the home folder, or
 * `/`): `/`, a home folder, and every folder above one (`cd .. && rm -rf user` from the home), each also
 * through a glob of all its entries (`*`, `.*`, `.[!.]*`). A folder inside the home (a project) is fine.
 */
interface WipeContext {
  places: Place[];
  /** Absolute home folders (the user's, and the session's `--home`). */
  homes: readonly string[];
}

/**
 * The first dangerous command of the line, if any. `cwd` resolves relative targets after the line's
 * `cd`s (`cd / && rm -rf .` wipes `/`).
 */
export function findDangerous(
  analysis: ShellAnalysis,
  cwd = "/nonexistent-cwd",
  homes: readonly string[] = [],
): DangerousMatch | undefined {
  const command = analysis.source;
  // `rm${IFS}-rf${IFS}/` is one word to a parser but three to sh (IFS is unset in its environment).
  if (/\$\{?IFS\}?/.test(command)) {
    const found = findDangerous(analyzeShell(command.replace(/\$\{IFS\}|\$IFS/g, " ")), cwd, homes);
    if (found) return found;
  }
  if (isForkBomb(command))
    return { entry: "fork bomb", reason: "a fork bomb exhausts the machine's processes" };
  if (analysis.findings.some((finding) => finding.kind === "nesting")) {
    return { entry: "nested shells", reason: "shells nested this deep cannot be checked" };
  }
  for (const redirect of analysis.redirects) {
    const target = redirect.target.value;
    if (redirect.isOutput && target !== undefined && BLOCK_DEVICE.test(target)) {
      return {
        entry: "> /dev/<block device>",
        reason: `writing to the block device ${target} destroys the disk`,
      };
    }
  }
  const wipe: WipeContext = { places: possiblePlaces(analysis, cwd), homes };
  for (const simple of analysis.commands) {
    const found = dangerousCommand(simple, wipe);
    if (found) return found;
  }
  return undefined;
}

function dangerousCommand(simple: SimpleCommand, places: WipeContext): DangerousMatch | undefined {
  const program = simple.program;
  if (program === undefined) return undefined;
  const args = simple.args.map((word) => word.value ?? word.raw);
  if (program === "find" && isFindWipe(simple, places)) {
    return { entry: "find / -delete", reason: `\`${simple.text}\` deletes a whole system or home folder` };
  }
  const interpreter = program.replace(/[\d.]+$/, "");
  if (
    STDIN_INTERPRETERS.has(interpreter) &&
    args.every((arg) => arg.startsWith("-") && arg !== "-m" && arg !== "-e" && arg !== "-c") &&
    simple.upstream.some(isDownloader)
  ) {
    return {
      entry: "curl … | sh",
      reason: "piping a download straight into an interpreter runs unreviewed code",
    };
  }
  if (program === "rm" && isRecursiveWipe(simple, places)) {
    return { entry: "rm -rf /", reason: `\`${simple.text}\` deletes a whole system or home folder` };
  }
  if (/^mkfs(\.|$)/.test(program) || program === "mke2fs" || program === "wipefs") {
    return { entry: "mkfs", reason: `\`${simple.text}\` formats a filesystem` };
  }
  if (program === "dd" && args.some((arg) => arg.startsWith("of=") && BLOCK_DEVICE.test(arg.slice(3)))) {
    return { entry: "dd of=/dev/<block device>", reason: `\`${simple.text}\` overwrites a block device` };
  }
  if (SHELLS.has(program) && simple.upstream.some(isDownloader)) {
    return { entry: "curl … | sh", reason: "piping a download straight into a shell runs unreviewed code" };
  }
  if (SHELLS.has(program) && simple.inner.some(isDownloader)) {
    return { entry: 'sh -c "$(curl …)"', reason: "running a download in a shell runs unreviewed code" };
  }
  return undefined;
}

function isDownloader(simple: SimpleCommand): boolean {
  return simple.program !== undefined && DOWNLOADERS.has(simple.program);
}

function isRecursiveWipe(simple: SimpleCommand, places: WipeContext): boolean {
  const values = simple.args.map((word) => word.value ?? word.raw);
  const recursive = values.some(
    (option) => option === "--recursive" || (/^-[a-zA-Z]+$/.test(option) && /[rR]/.test(option)),
  );
  if (!recursive) return false;
  const targets = simple.args.filter((word) => !(word.value ?? word.raw).startsWith("-"));
  return targets.some((word) => isWipeTarget(word, places));
}

/** `/`, `~`, `$HOME`, `/*`, `~/.`, and `.` or `*` in a folder the line `cd`s to that is one of them. */
function isWipeTarget(word: ShellWord, wipe: WipeContext): boolean {
  if (word.value === undefined) {
    const current = CURRENT_FOLDER.exec(word.raw);
    if (current) return isWipeTarget(literalWord(current[1]?.endsWith("*") ? "*" : "."), wipe);
    return WIPE_WORDS.has(word.raw.replace(/(\/\.?)+$/, "/"));
  }
  return wipe.places.some((place) => {
    const resolved = resolvePlace(word, place, { patterns: true });
    if (resolved.kind === "home") {
      return (
        resolved.path === "" || (word.pattern && !resolved.path.includes("/") && isBroadGlob(resolved.path))
      );
    }
    if (resolved.kind !== "absolute") return false;
    if (holdsHome(resolved.path, wipe.homes)) return true;
    const parent = path.posix.dirname(resolved.path);
    return word.pattern && isBroadGlob(path.posix.basename(resolved.path)) && holdsHome(parent, wipe.homes);
  });
}

/** `/`, a home folder, or a folder with a home folder inside. */
function holdsHome(folder: string, homes: readonly string[]): boolean {
  return folder === "/" || homes.some((home) => isInside(folder, home));
}

/** A glob that matches (nearly) every entry of a folder: `*`, `.*`, `.??*`, `.[!.]*`, `*.*`, `{*,.*}`. */
function isBroadGlob(segment: string): boolean {
  const rest = segment.replace(/\[[!^][^\]]*\]/g, "?").replace(/[{},]/g, "");
  return rest.includes("*") && /^[*?.]+$/.test(rest);
}

function literalWord(value: string): ShellWord {
  return { value, raw: value, pattern: value.includes("*") };
}

/** `find / -delete`, `find ~ -exec rm …`: a start folder that is a wipe target and an action that deletes. */
function isFindWipe(simple: SimpleCommand, places: WipeContext): boolean {
  const args = simple.args;
  // Options before the start folders (-H, -L, -P, -D x, -O3), then the folders (`.` when none is given).
  let first = 0;
  while (/^-([HLP]|O\d*|D)$/.test(args[first]?.value ?? "")) first += args[first]!.value === "-D" ? 2 : 1;
  const rest = args.slice(first);
  const firstExpression = rest.findIndex((word) => /^[-(!]/.test(word.value ?? word.raw));
  const starts = rest.slice(0, firstExpression < 0 ? undefined : firstExpression);
  const folders = starts.length > 0 ? starts : [literalWord(".")];
  if (!folders.some((word) => isWipeTarget(word, places))) return false;
  return args.some(
    (word, index) =>
      word.value === "-delete" ||
      ((word.value === "-exec" || word.value === "-execdir") &&
        (args[index + 1]?.value ?? "").replace(/^.*\//, "") === "rm"),
  );
}

/**
 * `:(){ :|:& };:` and the same shape with any name: a function whose body pipes the function into itself.
 * Scans each `(){` with bounded slices, so a huge model-written command costs linear time.
 */
function isForkBomb(command: string): boolean {
  const compact = command.replace(/\s+/g, "");
  for (let at = compact.indexOf("(){"); at >= 0; at = compact.indexOf("(){", at + 3)) {
    const name = /([A-Za-z_:][\w:]*)$/.exec(compact.slice(Math.max(0, at - 64), at))?.[1];
    if (!name) continue;
    if (compact.startsWith(`${name}|${name}`, at + 3)) return true;
  }
  return false;
}
