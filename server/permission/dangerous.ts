import { splitShellCommand, type ShellAnalysis, type SimpleCommand } from "./shell-split.ts";

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
/** Interpreters that run a program read from stdin when given no script argument. */
const STDIN_INTERPRETERS = new Set(["python", "python3", "perl", "ruby", "node", "php"]);
/** How deep `sh -c "sh -c '…'"` and `eval` are followed; deeper nesting is itself treated as dangerous. */
const MAX_NESTED_SHELLS = 4;
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
  "busybox",
  "setsid",
  "stdbuf",
  "ionice",
  "timeout",
]);

export function findDangerous(
  command: string,
  analysis: ShellAnalysis,
  nesting = 0,
): DangerousMatch | undefined {
  if (nesting > MAX_NESTED_SHELLS) {
    return { entry: "nested shells", reason: "shells nested this deep cannot be checked" };
  }
  const inner = (text: string) => findDangerous(text, splitShellCommand(text), nesting + 1);
  // `rm${IFS}-rf${IFS}/` is one word to the splitter but three to sh (IFS is unset in its environment).
  if (/\$\{?IFS\}?/.test(command)) {
    const found = inner(command.replace(/\$\{IFS\}|\$IFS/g, " "));
    if (found) return found;
  }
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
  // `sh <<< 'rm -rf /'`: a here-string is read as a script by the shell it feeds.
  if (analysis.commands.some((simple) => SHELLS.has(commandWords(simple)[0] ?? ""))) {
    for (const redirect of analysis.redirects) {
      const found = redirect.operator === "<<<" ? inner(redirect.target) : undefined;
      if (found) return found;
    }
  }
  for (const [position, simple] of analysis.commands.entries()) {
    const words = commandWords(simple);
    const program = words[0];
    if (program === undefined) continue;
    // What `sh -c SCRIPT` and `eval WORDS` run is a command line of its own.
    const script = SHELLS.has(program) ? shellScriptArgument(words) : undefined;
    const nested =
      script !== undefined ? inner(script) : program === "eval" ? inner(words.slice(1).join(" ")) : undefined;
    if (nested) return nested;
    if (program === "find" && isFindWipe(words)) {
      return { entry: "find / -delete", reason: `\`${simple.text}\` deletes a whole system or home folder` };
    }
    if (
      STDIN_INTERPRETERS.has(program.replace(/[\d.]+$/, "")) &&
      simple.pipedFromPrevious &&
      words
        .slice(1)
        .every((word) => word.startsWith("-") && word !== "-m" && word !== "-e" && word !== "-c") &&
      pipelineHasDownloader(analysis.commands, position)
    ) {
      return {
        entry: "curl … | sh",
        reason: "piping a download straight into an interpreter runs unreviewed code",
      };
    }
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
      const wrapper = baseName(words.shift()!);
      // Options of the wrapper (`sudo -u root`, `nice -n 10`) are skipped as well.
      while (words.length > 0 && words[0]!.startsWith("-")) words.shift();
      // `timeout 5 cmd`: the duration comes before the command.
      if (wrapper === "timeout" && words.length > 1 && /^\d/.test(words[0]!)) words.shift();
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
  return targets.some(isWipeTarget);
}

/** `/`, `~`, `$HOME` and the same with trailing `/` or `/.` (`~/.` is still the whole home folder). */
function isWipeTarget(target: string): boolean {
  return WIPE_TARGETS.has(target) || WIPE_TARGETS.has(target.replace(/(\/\.?)+$/, "") || "/");
}

/** The script of `sh -c SCRIPT` (also `-ec`, `-lc`, `-x -c`), or undefined. */
function shellScriptArgument(words: string[]): string | undefined {
  for (let index = 1; index < words.length; index++) {
    const word = words[index]!;
    if (!word.startsWith("-")) return undefined;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(word)) return words[index + 1];
  }
  return undefined;
}

/** `find / -delete`, `find ~ -exec rm …`: a start folder that is a wipe target and an action that deletes. */
function isFindWipe(words: string[]): boolean {
  const firstExpression = words.findIndex((word, index) => index > 0 && /^[-(!]/.test(word));
  const starts = words.slice(1, firstExpression < 0 ? undefined : firstExpression);
  if (!starts.some(isWipeTarget)) return false;
  return words.some(
    (word, index) =>
      word === "-delete" ||
      ((word === "-exec" || word === "-execdir") && baseName(words[index + 1] ?? "") === "rm"),
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
