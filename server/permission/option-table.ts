// Options that turn a program into something its name does not say: they run other programs, or write
// files. A rule allows a program for what it is for (`run_command(git *)`, `run_command(sort *)`); it never
// allows a call that uses one of these options, because then the rule would vouch for any program (git
// runs `core.fsmonitor`, awk runs `system()`) or any file (sort `-o`, find `-fprint`). Such a call asks,
// naming the option and what it can do, and a file it writes is checked like a redirect (protected paths,
// outside the workdir). Rows marked `purpose` are what the program is for (curl `-o`, tar `-C`): a rule may
// allow them, and only their target is checked.
//
// The table is data: each row has an example its test runs (option-table.test.ts). A program of the table
// whose options, script or arguments the readers cannot pin down (a script read from a file, arguments
// `xargs` appends from stdin, an option before git's subcommand that is not listed) asks as well.
// Interpreters, editors, command runners and network clients are in ./interpreter-option-table.ts, git's
// rows in ./git-option-table.ts, the environment variables in ./environment-table.ts.
import { GIT_GLOBAL, GIT_ROWS } from "./git-option-table.ts";
import { INTERPRETER_ROWS } from "./interpreter-option-table.ts";
import type { ShellWord } from "./shell-types.ts";

export type OptionEffect = "runs" | "writes";

export interface OptionRow {
  /** The programs (base names) it applies to. */
  programs: readonly string[];
  /** git: the subcommands it belongs to; GLOBAL for options before the subcommand; absent: any. */
  subcommands?: readonly string[];
  /**
   * Every spelling: `-o`, `--output`, `-TT`, `+` (any word starting with `+`). For `in: "script"` the
   * construct of the program's script (`e`, `system()`), for `in: "operand"` a description.
   */
  options: readonly string[];
  /** "required": the next word or an attached value (`-ofile`, `--output=file`); "optional": attached only. */
  value?: "required" | "optional";
  /** The row applies only when the value matches (`--checkpoint-action=exec=…`, ssh `-o ProxyCommand=…`). */
  valueMatches?: RegExp;
  /** The row applies only when one of these options is given too (tar `-f` writes only with `-c`, …). */
  modes?: readonly string[];
  /**
   * Where it is found: an option (default); a construct of the program's script (sed, awk, sqlite3); an
   * operand matching `operandMatches`; `input`: the arguments xargs appends; `always`: any use.
   */
  in?: "option" | "script" | "operand" | "input" | "always";
  operandMatches?: RegExp;
  effect: OptionEffect;
  /** The value (or the operand, or the script's file name) is the file or folder written. */
  target?: boolean;
  /** What the program is for: a rule for the program may allow it; the target is still checked. */
  purpose?: boolean;
  /** What it can do, for the approval card: "runs …", "writes …". */
  what: string;
  /** A command that uses it; its test checks a rule for the program does not allow it. */
  example: string;
  /** Names a row for the code that finds it (git's operands, scripts). */
  key?: string;
}

/** One use of a row in a command. */
export interface ProgramEffect {
  row: OptionRow;
  /** The program and the option as written: `sort -o`, `git -c core.fsmonitor=…`, `sed e touch x`. */
  use: string;
  /** The file or folder it writes (rows with `target`), as seen from the folder the line is in. */
  target?: ShellWord;
  /** It holds only when this folder is outside the working directory (the repository git reads). */
  onlyOutside?: ShellWord;
}

/** git rows of options before the subcommand. */
export const GLOBAL = GIT_GLOBAL;

const SCRIPT_FILE = "reads its script from a file the rules cannot read";

const ROWS: OptionRow[] = [
  // sed: its script language has commands that run programs and write files (GNU sed).
  {
    programs: ["sed"],
    in: "script",
    options: ["e", "s///e"],
    effect: "runs",
    what: "runs a shell command from the script (`e command`, the `e` flag of `s`)",
    example: "sed -n '1e touch PWNED' notes.txt",
  },
  {
    programs: ["sed"],
    in: "script",
    options: ["w", "W", "s///w"],
    effect: "writes",
    target: true,
    what: "writes to the file the script names (`w file`, the `w` flag of `s`)",
    example: "sed -n 'w /tmp/out' notes.txt",
  },
  {
    programs: ["sed"],
    in: "script",
    key: "unreadable",
    options: ["(a script the reader cannot follow)"],
    effect: "runs",
    what: "has a script the rules cannot read; sed scripts can run commands and write files",
    example: "sed -n 'k' notes.txt",
  },
  {
    programs: ["sed"],
    options: ["-f", "--file"],
    value: "required",
    effect: "runs",
    what: `${SCRIPT_FILE}; sed scripts can run commands (\`e\`) and write files (\`w\`)`,
    example: "sed -f edit.sed notes.txt",
  },
  // awk: system(), pipes to and from commands, output redirection; gawk's @load/@include and indirect calls.
  {
    programs: ["awk", "gawk", "mawk", "nawk", "busybox-awk"],
    in: "script",
    options: ["system()", "|", "@"],
    effect: "runs",
    what: "runs commands from the program (`system()`, `| getline`, `print | cmd`, gawk's `@` calls)",
    example: "awk 'BEGIN { system(\"touch PWNED\") }'",
  },
  {
    programs: ["awk", "gawk", "mawk", "nawk"],
    in: "script",
    options: ["print >", "printf >"],
    effect: "writes",
    target: true,
    what: "writes to the file the program names (`print > file`)",
    example: "awk 'BEGIN { print 1 > \"/tmp/out\" }'",
  },
  {
    programs: ["awk", "gawk", "mawk", "nawk"],
    in: "script",
    key: "unreadable",
    options: ["(a program the reader cannot follow)"],
    effect: "runs",
    what: "has a program the rules cannot read; awk programs can run commands and write files",
    example: "awk 'BEGIN { print \"x }'",
  },
  {
    programs: ["awk", "gawk", "mawk", "nawk"],
    options: ["-f", "--file", "-E", "--exec", "-i", "--include", "-l", "--load", "-W"],
    value: "required",
    valueMatches: /^(?!(version|v|usage|help|interactive|posix_space)$)/,
    effect: "runs",
    what: `${SCRIPT_FILE} (or loads an extension); awk programs can run commands and write files`,
    example: "awk -f report.awk data.csv",
  },
  // `awk` is gawk on many systems (Fedora, Arch, Homebrew): what gawk reads as writing counts for `awk` too.
  {
    programs: ["gawk", "awk"],
    options: ["-o", "--pretty-print", "-p", "--profile", "-d", "--dump-variables"],
    value: "optional",
    effect: "writes",
    target: true,
    what: "writes its listing, profile or variables to that file",
    example: "gawk -o/tmp/out 'BEGIN { }'",
  },
  // find: actions that write a file; -exec/-ok and -delete are read as commands of their own.
  {
    programs: ["find"],
    options: ["-fprint", "-fprint0", "-fprintf", "-fls"],
    value: "required",
    effect: "writes",
    target: true,
    what: "writes the list of found files to that file",
    example: "find . -name '*.md' -fprint /tmp/out",
  },
  // sort
  {
    programs: ["sort"],
    options: ["-o", "--output"],
    value: "required",
    effect: "writes",
    target: true,
    what: "writes the sorted lines to that file",
    example: "sort -o /tmp/out notes.txt",
  },
  {
    programs: ["sort"],
    options: ["--compress-program"],
    value: "required",
    effect: "runs",
    what: "runs that program to compress temporary files",
    example: "sort --compress-program=./pwn notes.txt",
  },
  // tar
  {
    programs: ["tar"],
    options: ["--checkpoint-action"],
    value: "required",
    valueMatches: /^exec/,
    effect: "runs",
    what: "runs a shell command at each checkpoint",
    example: "tar --checkpoint=1 --checkpoint-action=exec='touch PWNED' -cf /dev/null notes.txt",
  },
  {
    programs: ["tar"],
    options: [
      "--to-command",
      "-I",
      "--use-compress-program",
      "--rsh-command",
      "-F",
      "--info-script",
      "--new-volume-script",
    ],
    value: "required",
    effect: "runs",
    what: "runs that program (to extract into, to compress with, or between volumes)",
    example: "tar -xf notes.tar --to-command='sh -c \"touch PWNED\"'",
  },
  {
    programs: ["tar"],
    options: ["-f", "--file"],
    value: "required",
    valueMatches: /^[^/]*:/,
    effect: "runs",
    what: "reads or writes a remote archive (`host:file`) through a remote shell command",
    example: "tar -xf evil:archive.tar",
  },
  {
    programs: ["tar"],
    options: ["--index-file"],
    value: "required",
    effect: "writes",
    target: true,
    what: "writes its verbose listing to that file",
    example: "tar --index-file=/tmp/out -cvf notes.tar notes.txt",
  },
  {
    programs: ["tar"],
    options: ["-P", "--absolute-names"],
    modes: ["-x", "--extract", "--get"],
    effect: "writes",
    what: "extracts entries to the absolute paths stored in the archive, anywhere on the machine",
    example: "tar -xPf notes.tar",
  },
  {
    programs: ["tar"],
    options: ["-f", "--file"],
    value: "required",
    modes: [
      "-c",
      "-r",
      "-u",
      "-A",
      "--create",
      "--append",
      "--update",
      "--catenate",
      "--concatenate",
      "--delete",
    ],
    effect: "writes",
    target: true,
    purpose: true,
    what: "writes the archive to that file",
    example: "tar -cf /tmp/out.tar notes.txt",
  },
  {
    programs: ["tar"],
    options: ["-C", "--directory"],
    value: "required",
    effect: "writes",
    target: true,
    purpose: true,
    what: "extracts into that folder",
    example: "tar -xf notes.tar -C /tmp/out",
  },
  // xargs: the arguments it appends come from stdin, so the options of the program it runs are unknown.
  {
    programs: ["xargs"],
    in: "input",
    options: ["(arguments read from stdin)"],
    effect: "runs",
    what:
      "gives the program it runs more arguments from stdin, which may add an option of this table " +
      "(one that runs programs or writes files)",
    example: "xargs git log < args.txt",
  },
  // env -S splits a string into a command line the rules cannot read (the parser reports it too).
  {
    programs: ["env"],
    options: ["-S", "--split-string"],
    value: "required",
    effect: "runs",
    what: "splits a string into a command line, which the rules cannot read",
    example: "env -S 'touch PWNED'",
  },
  {
    programs: ["time"],
    options: ["-o", "--output"],
    value: "required",
    effect: "writes",
    target: true,
    what: "writes its timing report to that file",
    example: "time -o /tmp/out ls",
  },
  // rsync
  {
    programs: ["rsync"],
    options: ["-e", "--rsh", "--rsync-path", "-M", "--remote-option"],
    value: "required",
    effect: "runs",
    what: "runs that command as the remote shell or the other side's rsync (also for local copies)",
    example: "rsync -e 'sh -c \"touch PWNED\"' notes.txt x:notes.txt",
  },
  {
    programs: ["rsync"],
    options: ["--log-file", "--write-batch", "--only-write-batch"],
    value: "required",
    effect: "writes",
    target: true,
    what: "writes its log or batch to that file",
    example: "rsync --log-file=/tmp/out notes.txt copy.txt",
  },
  // zip
  {
    programs: ["zip"],
    options: ["-TT", "--unzip-command"],
    value: "required",
    effect: "runs",
    what: "runs that command to test the archive",
    example: "zip -T -TT 'touch PWNED' notes.zip notes.txt",
  },
  {
    programs: ["zip"],
    options: ["-O", "--output-file", "-lf", "--logfile-path"],
    value: "required",
    effect: "writes",
    target: true,
    what: "writes the archive or its log to that file",
    example: "zip -O /tmp/out.zip notes.zip notes.txt",
  },
];

/** Every row: the programs above, the interpreters' and network clients', and git's. */
export const OPTION_ROWS: readonly OptionRow[] = [...ROWS, ...INTERPRETER_ROWS, ...GIT_ROWS];

const byProgram = new Map<string, OptionRow[]>();
for (const row of OPTION_ROWS) {
  for (const program of row.programs) byProgram.set(program, [...(byProgram.get(program) ?? []), row]);
}

/** The rows of a program (by base name; `python3.12` as `python3`). */
export function rowsOf(program: string): readonly OptionRow[] {
  return byProgram.get(program) ?? byProgram.get(program.replace(/[\d.]+$/, "")) ?? [];
}

/** Whether a program is in the table. */
export function inTable(program: string): boolean {
  return rowsOf(program).length > 0;
}
