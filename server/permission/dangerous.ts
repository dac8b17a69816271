import type { ShellAnalysis, SimpleCommand } from "./shell-split.ts";

/**
 * Commands denied in every mode, bypassPermissions included, whatever the rules say. Each entry names
 * itself so the trace can say which one matched.
 */
export interface DangerousMatch {
  entry: string;
  reason: string;
}

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "fish", "csh", "tcsh"]);
const DOWNLOADERS = new Set(["curl", "wget"]);
/** Block devices by their usual Linux and macOS names. */
const BLOCK_DEVICE = /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|md\d|dm-\d|mapper\/)/;
/** `rm -r` targets that wipe a whole system or home folder. */
const WIPE_TARGETS = new Set([
  "/",
  "/*",
  "~",
  "~/",
  "~/*",
  "$HOME",
  "$HOME/",
  "$HOME/*",
  "${HOME}",
  "${HOME}/",
  "/.",
  "/..",
]);
/** Wrappers that run the next word as the command. */
const PREFIX_WORDS = new Set([
  "sudo",
  "doas",
  "command",
  "exec",
  "nice",
  "nohup",
  "time",
  "env",
  "builtin",
  "xargs",
]);

export function findDangerous(command: string, analysis: ShellAnalysis): DangerousMatch | undefined {
  if (isForkBomb(command))
    return { entry: "fork bomb", reason: "a fork bomb exhausts the machine's processes" };
  for (const redirect of analysis.redirects) {
    if (redirect.isOutput && BLOCK_DEVICE.test(redirect.target)) {
      return {
        entry: "> /dev/<block device>",
        reason: `writing to the block device ${redirect.target} destroys the disk`,
      };
    }
  }
  for (const [position, simple] of analysis.commands.entries()) {
    const words = commandWords(simple);
    const program = words[0];
    if (program === undefined) continue;
    if (program === "rm" && isRecursiveWipe(words)) {
      return { entry: "rm -rf /", reason: `\`${simple.text}\` deletes a whole system or home folder` };
    }
    if (/^mkfs(\.|$)/.test(program) || program === "mke2fs" || program === "wipefs") {
      return { entry: "mkfs", reason: `\`${simple.text}\` formats a filesystem` };
    }
    if (
      program === "dd" &&
      words.some((word) => word.startsWith("of=") && BLOCK_DEVICE.test(word.slice(3)))
    ) {
      return { entry: "dd of=/dev/<block device>", reason: `\`${simple.text}\` overwrites a block device` };
    }
    if (
      SHELLS.has(program) &&
      simple.pipedFromPrevious &&
      pipelineHasDownloader(analysis.commands, position)
    ) {
      return { entry: "curl … | sh", reason: "piping a download straight into a shell runs unreviewed code" };
    }
    if (SHELLS.has(program) && /(\$\(|<\(|`)\s*(curl|wget)\b/.test(simple.text)) {
      return { entry: 'sh -c "$(curl …)"', reason: "running a download in a shell runs unreviewed code" };
    }
  }
  return undefined;
}

/** The command's words without leading `VAR=value` assignments and wrappers like `sudo`; paths reduced to names. */
function commandWords(simple: SimpleCommand): string[] {
  const words = [...simple.words];
  while (words.length > 0) {
    const first = words[0]!;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(first)) words.shift();
    else if (PREFIX_WORDS.has(baseName(first))) {
      words.shift();
      // Options of the wrapper (`sudo -u root`, `nice -n 10`) are skipped as well.
      while (words.length > 0 && words[0]!.startsWith("-")) words.shift();
    } else break;
  }
  if (words.length > 0) words[0] = baseName(words[0]!);
  return words;
}

function baseName(word: string): string {
  const slash = word.lastIndexOf("/");
  return slash >= 0 ? word.slice(slash + 1) : word;
}

function isRecursiveWipe(words: string[]): boolean {
  const options = words.slice(1).filter((word) => word.startsWith("-"));
  const recursive = options.some(
    (option) => option === "--recursive" || (/^-[a-zA-Z]+$/.test(option) && /[rR]/.test(option)),
  );
  if (!recursive) return false;
  const targets = words.slice(1).filter((word) => !word.startsWith("-"));
  return targets.some(
    (target) => WIPE_TARGETS.has(target.replace(/\/+$/, "") || "/") || WIPE_TARGETS.has(target),
  );
}

/** True when an earlier command of the same pipeline (no `;`/`&&` in between) is curl or wget. */
function pipelineHasDownloader(commands: SimpleCommand[], position: number): boolean {
  for (let index = position - 1; index >= 0; index--) {
    const words = commandWords(commands[index]!);
    if (words[0] !== undefined && DOWNLOADERS.has(words[0])) return true;
    if (!commands[index]!.pipedFromPrevious) return false;
  }
  return false;
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
