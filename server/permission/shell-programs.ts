// Which word of a simple command is the program that runs: wrappers (`sudo`, `env`, `command`, `xargs`,
// `timeout 5`, …) and their options are skipped, so rules and the dangerous list see `rm` in `sudo -u root
// env X=1 /bin/rm -rf x`.
import type { ShellWord, WrapperUse } from "./shell-types.ts";

export const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh"]);

interface WrapperSpec {
  /** Options that take a value as the next word (or attached: `-uroot`, `--user=root`). */
  valueOptions: string[];
  /** Positional words before the command (`timeout 5 cmd`, `chroot /new cmd`). */
  positional: number;
  /** NAME=VALUE words are skipped (env). */
  assignments?: boolean;
  /** The command's arguments also come from stdin. */
  argsFromInput?: boolean;
  /** Options after which the rest is not a plain argv (env -S splits a string). */
  opaqueOptions?: string[];
}

const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: {
    valueOptions: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "--user", "--group"],
    positional: 0,
  },
  doas: { valueOptions: ["-u", "-C"], positional: 0 },
  env: {
    valueOptions: ["-u", "--unset", "-C", "--chdir"],
    positional: 0,
    assignments: true,
    opaqueOptions: ["-S", "--split-string"],
  },
  command: { valueOptions: [], positional: 0 },
  builtin: { valueOptions: [], positional: 0 },
  exec: { valueOptions: ["-a"], positional: 0 },
  nice: { valueOptions: ["-n", "--adjustment"], positional: 0 },
  nohup: { valueOptions: [], positional: 0 },
  time: { valueOptions: ["-f", "--format", "-o", "--output"], positional: 0 },
  setsid: { valueOptions: [], positional: 0 },
  stdbuf: { valueOptions: ["-i", "-o", "-e", "--input", "--output", "--error"], positional: 0 },
  ionice: { valueOptions: ["-c", "-n", "-p", "-P", "-u", "--class", "--classdata"], positional: 0 },
  timeout: { valueOptions: ["-s", "--signal", "-k", "--kill-after"], positional: 1 },
  chroot: { valueOptions: ["--userspec", "--groups"], positional: 1 },
  taskset: { valueOptions: [], positional: 1 },
  busybox: { valueOptions: [], positional: 0 },
  toybox: { valueOptions: [], positional: 0 },
  unbuffer: { valueOptions: [], positional: 0 },
  xargs: {
    valueOptions: [
      "-I",
      "-L",
      "-n",
      "-P",
      "-s",
      "-d",
      "-E",
      "-a",
      "--arg-file",
      "--delimiter",
      "--max-args",
      "--max-procs",
      "--max-lines",
      "--max-chars",
      "--replace",
      "--eof",
      "--process-slot-var",
    ],
    positional: 0,
    argsFromInput: true,
  },
};

export interface ProgramPosition {
  /** Index of the program word; -1 when the words hold no command (only a wrapper). */
  index: number;
  argsFromInput: boolean;
  /** Set when the argv after a wrapper cannot be read as words (`env -S '…'`). */
  opaque?: string;
  /** The wrappers skipped, outermost first (their options are read by ./program-effects.ts). */
  wrappers: WrapperUse[];
  /** `NAME=VALUE` words a wrapper (`env`) puts into the program's environment, as written. */
  environment: string[];
}

export function baseName(word: string): string {
  const slash = word.lastIndexOf("/");
  return slash >= 0 ? word.slice(slash + 1) : word;
}

/** Finds the program among the words, skipping wrappers, their options and leading NAME=VALUE words. */
export function locateProgram(words: ShellWord[]): ProgramPosition {
  let index = 0;
  let argsFromInput = false;
  const wrappers: WrapperUse[] = [];
  const environment: string[] = [];
  while (index < words.length) {
    const word = words[index]!;
    const name = word.value !== undefined && !word.pattern ? baseName(word.value) : undefined;
    const spec = name !== undefined ? WRAPPERS[name] : undefined;
    if (!spec || name === undefined) return { index, argsFromInput, wrappers, environment };
    if (spec.argsFromInput) argsFromInput = true;
    const wrapper: WrapperUse = { name, index, end: words.length };
    wrappers.push(wrapper);
    index++;
    let positional = spec.positional;
    while (index < words.length) {
      const value = words[index]!.value;
      if (value === undefined) break;
      if (value === "--") {
        index++;
        break;
      }
      if (spec.opaqueOptions?.some((option) => opaqueUse(value, option))) {
        return {
          index: -1,
          argsFromInput,
          opaque: `${name} ${value} splits a string into a command`,
          wrappers,
          environment,
        };
      }
      if (value.startsWith("-") && value.length > 1) {
        const takesValue = spec.valueOptions.includes(value);
        index += takesValue ? 2 : 1;
        continue;
      }
      if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(value)) {
        environment.push(words[index]!.raw);
        index++;
        continue;
      }
      if (positional > 0) {
        positional--;
        index++;
        continue;
      }
      break;
    }
    wrapper.end = index;
  }
  return { index: -1, argsFromInput, wrappers, environment };
}

/**
 * `-S`, `-Sstring`, `--split-string=…` and their abbreviations (`--split`), also inside a cluster of
 * short options (`-iS 'cmd'`): getopt reads each of them as the option.
 */
function opaqueUse(value: string, option: string): boolean {
  if (option.startsWith("--")) {
    const name = value.split("=")[0]!;
    return name.length > 2 && option.startsWith(name);
  }
  return value === option || (/^-[a-zA-Z]+/.test(value) && value.slice(1).includes(option.slice(1)));
}

/** The script of `sh -c SCRIPT` (also `-ec`, `-lc`, `-x -c`): its index in words, or -1. */
export function shellScriptIndex(words: ShellWord[], programIndex: number): number {
  for (let index = programIndex + 1; index < words.length; index++) {
    const value = words[index]!.value;
    if (value === undefined || !value.startsWith("-") || value === "-" || value === "--") return -1;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(value)) return index + 1 < words.length ? index + 1 : -1;
  }
  return -1;
}

/** True when a shell is given no script file or `-c` (it reads its script from stdin). */
export function shellReadsStdin(words: ShellWord[], programIndex: number): boolean {
  for (let index = programIndex + 1; index < words.length; index++) {
    const value = words[index]!.value;
    if (value === undefined) return false;
    if (value === "-s" || value === "-" || value === "/dev/stdin" || value === "/proc/self/fd/0") return true;
    if (!value.startsWith("-")) return false;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(value)) return false;
  }
  return true;
}
