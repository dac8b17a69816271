// Environment variables that act like options: they name a program to run, code to load, or settings
// that run programs. A rule never allows a command with an assignment (`X=1 cmd`, `env X=1 cmd`); for the
// variables below the question also says what the assignment can do. Data; one test per row.

export interface EnvironmentRow {
  /** The variable names it covers: exact, or a prefix ending in `*`. */
  names: readonly string[];
  what: string;
  /** A command that sets one; its test checks a rule for the program does not allow it. */
  example: string;
}

export const ENVIRONMENT_ROWS: readonly EnvironmentRow[] = [
  {
    names: ["GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_*", "GIT_CONFIG_VALUE_*", "GIT_CONFIG_PARAMETERS"],
    what: "sets git settings, many of which run programs (core.fsmonitor, core.sshCommand, alias.NAME=!…)",
    example: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='touch PWNED' git status",
  },
  {
    names: [
      "GIT_CONFIG",
      "GIT_CONFIG_GLOBAL",
      "GIT_CONFIG_SYSTEM",
      "GIT_DIR",
      "GIT_WORK_TREE",
      "GIT_EXEC_PATH",
      "GIT_TEMPLATE_DIR",
    ],
    what: "makes git read another settings file, repository or program folder, which can run programs",
    example: "GIT_CONFIG_GLOBAL=/tmp/evil.cfg git status",
  },
  {
    names: [
      "GIT_SSH",
      "GIT_SSH_COMMAND",
      "GIT_PROXY_COMMAND",
      "GIT_ASKPASS",
      "SSH_ASKPASS",
      "SUDO_ASKPASS",
      "GIT_EXTERNAL_DIFF",
      "GIT_PAGER",
      "GIT_EDITOR",
      "GIT_SEQUENCE_EDITOR",
      "PAGER",
      "MANPAGER",
      "EDITOR",
      "VISUAL",
      "BROWSER",
      "LESSOPEN",
      "LESSCLOSE",
      "RSYNC_RSH",
      "RSYNC_CONNECT_PROG",
    ],
    what: "names a program the command runs (as its pager, editor, ssh, password prompt or diff)",
    example: "GIT_SSH_COMMAND='touch PWNED' git fetch origin",
  },
  {
    names: ["LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_*"],
    what: "loads a library into every program the command starts",
    example: "LD_PRELOAD=./evil.so ls",
  },
  {
    names: [
      "NODE_OPTIONS",
      "NODE_PATH",
      "PYTHONSTARTUP",
      "PYTHONPATH",
      "PYTHONHOME",
      "PYTHONINSPECT",
      "PERL5OPT",
      "PERL5LIB",
      "PERL5DB",
      "RUBYOPT",
      "RUBYLIB",
      "AWKPATH",
      "npm_config_*",
      "NPM_CONFIG_*",
      "MAKEFLAGS",
      "MAKEFILES",
    ],
    what: "makes an interpreter or build tool load code or options of the variable's choosing",
    example: "NODE_OPTIONS='--require ./evil.js' node --version",
  },
  {
    names: ["BASH_ENV", "ENV", "PROMPT_COMMAND", "SHELL", "SHELLOPTS", "BASHOPTS", "IFS", "PATH", "CDPATH"],
    what: "changes which program runs, how the shell reads words, or makes a shell run a file first",
    example: "PATH=.:/usr/bin ls",
  },
  {
    names: [
      "TAR_OPTIONS",
      "ZIPOPT",
      "UNZIP",
      "GZIP",
      "LESS",
      "GREP_OPTIONS",
      "CURL_HOME",
      "WGETRC",
      "XDG_CONFIG_HOME",
      "HOME",
    ],
    what: "gives the command options or a configuration folder of the variable's choosing",
    example:
      "TAR_OPTIONS='--checkpoint=1 --checkpoint-action=exec=touch\\ PWNED' tar -cf /dev/null notes.txt",
  },
];

/** What setting the variable can do, or undefined for one the table does not list. */
export function environmentEffect(name: string): string | undefined {
  return ENVIRONMENT_ROWS.find((row) =>
    row.names.some((pattern) =>
      pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern,
    ),
  )?.what;
}
