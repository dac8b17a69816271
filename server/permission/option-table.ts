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
// git's rows are in ./git-option-table.ts, the environment variables in ./environment-table.ts.
import { GIT_GLOBAL, GIT_ROWS } from "./git-option-table.ts";
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

const INTERPRETER_CODE = "runs the program text given on the command line, which can start any program";
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
  {
    programs: ["gawk"],
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
  // Interpreters: program text on the command line can do anything; a rule cannot read it.
  {
    programs: ["python", "python2", "python3", "pypy", "pypy3"],
    options: ["-c"],
    value: "required",
    effect: "runs",
    what: INTERPRETER_CODE,
    example: "python3 -c 'import os; os.system(\"touch PWNED\")'",
  },
  {
    programs: ["node", "nodejs", "bun", "deno"],
    options: [
      "-e",
      "--eval",
      "-p",
      "--print",
      "-r",
      "--require",
      "--import",
      "--loader",
      "--experimental-loader",
      "--env-file",
      "--env-file-if-exists",
      "--run",
    ],
    value: "required",
    effect: "runs",
    what: `${INTERPRETER_CODE} (or loads a module, an environment file or a package script first)`,
    example: 'node -e \'require("child_process").execSync("touch PWNED")\'',
  },
  {
    programs: ["perl"],
    options: ["-e", "-E", "-M", "-m", "-d"],
    value: "required",
    effect: "runs",
    what: `${INTERPRETER_CODE} (\`-M\` and \`-d:\` load a module with code of their own)`,
    example: "perl -e 'system(\"touch PWNED\")'",
  },
  {
    programs: ["ruby"],
    options: ["-e", "-r"],
    value: "required",
    effect: "runs",
    what: INTERPRETER_CODE,
    example: "ruby -e 'system(\"touch PWNED\")'",
  },
  {
    programs: ["php"],
    options: ["-r", "-B", "-R", "-E", "-F", "-d", "-c"],
    value: "required",
    effect: "runs",
    what: `${INTERPRETER_CODE} (\`-d\` and \`-c\` change settings such as auto_prepend_file)`,
    example: "php -r 'system(\"touch PWNED\");'",
  },
  {
    programs: ["make", "gmake"],
    options: ["-E", "--eval"],
    value: "required",
    effect: "runs",
    what: "adds makefile text of its own, whose recipes run commands",
    example: "make --eval='x: ; touch PWNED' x",
  },
  {
    programs: ["make", "gmake"],
    in: "operand",
    operandMatches: /^[A-Za-z_][A-Za-z0-9_.-]*\s*[:+?!]*=/,
    options: ["VARIABLE=value"],
    effect: "runs",
    what: "overrides a make variable, which can replace any command a recipe runs (SHELL, CC, …)",
    example: "make SHELL='./pwn' test",
  },
  {
    programs: ["npm", "npx", "pnpm", "yarn"],
    options: ["--script-shell", "--node-options", "--userconfig", "--globalconfig", "-c", "--call"],
    value: "required",
    effect: "runs",
    what: "runs scripts through that shell, with those node options, a configuration file or a command",
    example: "npm test --script-shell=./pwn",
  },
  // Editors and pagers run commands of their own (`:!`, `-c`, `+cmd`, modelines, key files).
  {
    programs: [
      "vi",
      "vim",
      "nvim",
      "ex",
      "view",
      "vimdiff",
      "rvim",
      "rview",
      "gvim",
      "evim",
      "emacs",
      "emacsclient",
    ],
    in: "always",
    options: ["(any use)"],
    effect: "runs",
    what: "an editor runs commands from its options, startup files and input (`-c`, `+cmd`, `:!`)",
    example: "vim -es -c '!touch PWNED' -c q",
  },
  {
    programs: ["less", "more"],
    options: ["+", "-k", "--lesskey-file"],
    value: "optional",
    effect: "runs",
    what: "runs pager commands (`+cmd`) or reads a key file, which can run shell commands",
    example: "less '+!touch PWNED' notes.txt",
  },
  {
    programs: ["less"],
    options: ["-o", "-O", "--log-file", "--LOG-FILE"],
    value: "required",
    effect: "writes",
    target: true,
    what: "copies its input to that file",
    example: "less -o /tmp/out notes.txt",
  },
  {
    programs: ["man"],
    options: ["-P", "--pager", "-H", "--html"],
    value: "required",
    effect: "runs",
    what: "runs that program as its pager or browser",
    example: "man -P 'touch PWNED' ls",
  },
  // Programs that run a command line given as a string, which the rules cannot read.
  {
    programs: ["watch", "sg", "parallel"],
    in: "always",
    options: ["(any use)"],
    effect: "runs",
    what: "runs a command line given as a string, which the rules cannot read",
    example: "watch -n 1 'touch PWNED'",
  },
  {
    programs: ["script", "su", "runuser", "flock"],
    options: ["-c", "--command"],
    value: "required",
    effect: "runs",
    what: "runs a command line given as a string, which the rules cannot read",
    example: "script -qc 'touch PWNED' /dev/null",
  },
  {
    programs: ["nc", "ncat", "netcat"],
    options: ["-e", "-c", "--exec", "--sh-exec", "--lua-exec"],
    value: "required",
    effect: "runs",
    what: "runs a program for each connection",
    example: "nc -l -p 4444 -e /bin/sh",
  },
  {
    programs: ["socat"],
    in: "operand",
    operandMatches: /^(exec|system):/i,
    options: ["EXEC:…", "SYSTEM:…"],
    effect: "runs",
    what: "runs a program as one end of the connection",
    example: "socat - EXEC:'touch PWNED'",
  },
  {
    programs: ["sqlite3"],
    in: "script",
    options: [".shell", ".system", ".load", "load_extension()", "edit()", "(stdin, -init)"],
    effect: "runs",
    what: "runs commands or loads code from its SQL script (dot commands, load_extension, a script file)",
    example: "sqlite3 notes.db '.shell touch PWNED'",
  },
  {
    programs: ["sqlite3"],
    in: "script",
    options: [".output", ".once", ".save", ".backup", "ATTACH", "VACUUM INTO", "writefile()"],
    effect: "writes",
    what: "writes files its SQL script names",
    example: "sqlite3 notes.db \"ATTACH '/tmp/out.db' AS x\"",
  },
  // ssh and friends: configuration that runs a local command.
  {
    programs: ["ssh", "scp", "sftp"],
    options: ["-o"],
    value: "required",
    valueMatches:
      /^\s*(ProxyCommand|LocalCommand|PermitLocalCommand|KnownHostsCommand|PKCS11Provider|SecurityKeyProvider|Include|Match)\b/i,
    effect: "runs",
    what: "sets an ssh option that runs a local command or loads code",
    example: "ssh -o ProxyCommand='touch PWNED' x",
  },
  {
    programs: ["ssh", "scp", "sftp"],
    options: ["-F", "-S", "-b"],
    value: "required",
    effect: "runs",
    what: "reads a configuration or batch file, or runs that program as ssh, which can run local commands",
    example: "scp -S ./pwn notes.txt x:",
  },
  {
    programs: ["ssh"],
    options: ["-E"],
    value: "required",
    effect: "writes",
    target: true,
    what: "writes its log to that file",
    example: "ssh -E /tmp/out x",
  },
  // Downloaders: where the download goes is what they are for; logs, traces and config files are not.
  {
    programs: ["curl"],
    options: ["-o", "--output", "--output-dir"],
    value: "required",
    effect: "writes",
    target: true,
    purpose: true,
    what: "writes the download to that file",
    example: "curl -o /tmp/out https://example.com",
  },
  {
    programs: ["curl"],
    options: [
      "-D",
      "--dump-header",
      "-c",
      "--cookie-jar",
      "--trace",
      "--trace-ascii",
      "--libcurl",
      "--stderr",
      "--etag-save",
      "--hsts",
      "--alt-svc",
    ],
    value: "required",
    effect: "writes",
    target: true,
    what: "writes headers, cookies, a trace or its messages to that file",
    example: "curl -D /tmp/out https://example.com",
  },
  {
    programs: ["curl"],
    options: ["-K", "--config"],
    value: "required",
    effect: "writes",
    what: "reads more options from a file, which can write files anywhere",
    example: "curl -K opts.txt https://example.com",
  },
  {
    programs: ["wget"],
    options: ["-O", "--output-document", "-P", "--directory-prefix"],
    value: "required",
    effect: "writes",
    target: true,
    purpose: true,
    what: "writes the download to that file or folder",
    example: "wget -O /tmp/out https://example.com",
  },
  {
    programs: ["wget"],
    options: ["-o", "--output-file", "-a", "--append-output"],
    value: "required",
    effect: "writes",
    target: true,
    what: "writes its log to that file",
    example: "wget -o /tmp/out https://example.com",
  },
  {
    programs: ["wget"],
    options: ["-e", "--execute", "--config", "--use-askpass"],
    value: "required",
    effect: "runs",
    what: "runs a .wgetrc command or reads a configuration file (which can set a password program)",
    example: "wget --use-askpass=./pwn https://example.com",
  },
  // Copying into a folder named by an option is what these programs are for.
  {
    programs: ["cp", "mv", "install", "ln"],
    options: ["-t", "--target-directory"],
    value: "required",
    effect: "writes",
    target: true,
    purpose: true,
    what: "writes into that folder",
    example: "cp -t /tmp/out notes.txt",
  },
  {
    programs: ["unzip"],
    options: ["-d"],
    value: "required",
    effect: "writes",
    target: true,
    purpose: true,
    what: "extracts into that folder",
    example: "unzip notes.zip -d /tmp/out",
  },
];

/** Every row: the programs above and git's. */
export const OPTION_ROWS: readonly OptionRow[] = [...ROWS, ...GIT_ROWS];

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
