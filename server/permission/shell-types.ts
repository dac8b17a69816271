// The plain analysis of a shell command line that the permission engine and the dangerous list work on.
// No parser object leaves shell-parse.ts; everything here is data.

export interface ShellWord {
  /** The word after quote removal, when it is a plain literal (no expansion of any kind). */
  value?: string;
  /** The word as written in the source. */
  raw: string;
  /** Unquoted `*`, `?`, `[` or `{a,b}`: the shell may turn the word into other words (file names). */
  pattern: boolean;
}

/** One wrapper before the program: `words[index]` is its name, `words[index + 1 .. end)` its own words. */
export interface WrapperUse {
  name: string;
  index: number;
  end: number;
}

export interface SimpleCommand {
  /** Every word as written (assignments excluded). */
  words: ShellWord[];
  /**
   * `X=1` words before the command, and those a wrapper puts into its environment (`env X=1 cmd`), as
   * written: either way the program runs with them.
   */
  assignments: string[];
  /** The wrappers before the program (`sudo`, `env`, `xargs`, `time -o FILE`, …), outermost first. */
  wrappers: WrapperUse[];
  /** Index in `words` of the program after wrappers (`sudo`, `env`, `command`, …); -1 for none. */
  programIndex: number;
  /**
   * The program that runs: the base name of the word at programIndex (`/bin/rm`, `\rm`, `'rm'` are `rm`);
   * undefined when that word is not a plain literal or is a pattern (then no rule can match it).
   */
  program?: string;
  /** The words after the program. */
  args: ShellWord[];
  /** The words (values, or as written where not literal) joined by single spaces. */
  text: string;
  /** `program args…` joined by single spaces (deny and ask rules match it); undefined without a program. */
  resolvedText?: string;
  /** Every word a plain literal and no assignments: only such a command can be allowed by a rule. */
  literal: boolean;
  /** Commands of the same pipeline that feed this one (`curl x | tee log | sh`: curl and tee for sh). */
  upstream: SimpleCommand[];
  /** Commands inside this command's words (`$(…)`, backticks, `<(…)`). */
  inner: SimpleCommand[];
  /** More arguments arrive on stdin (`xargs rm`): the full argument list is unknown. */
  argsFromInput: boolean;
  /** Where the command was found: the line itself, a substitution, an `sh -c` script, `find -exec`, … */
  origin: string;
  /** line:column in the command line (for nested scripts, in that script). */
  at: string;
}

export interface ShellRedirect {
  /** `>`, `>>`, `<`, `<>`, `>&`, `<&`, `>|`, `<<`, `<<-`, `<<<`, `&>`, `&>>`. */
  operator: string;
  target: ShellWord;
  /** Writes a file (`>`, `>>`, `>|`, `<>`, `&>`, `>& file`). */
  isOutput: boolean;
  /** `2>&1`, `>&-`: a file descriptor, not a file. */
  isDescriptor: boolean;
  at: string;
}

export type FindingKind =
  | "command substitution"
  | "process substitution"
  | "parameter expansion"
  | "arithmetic expansion"
  | "ANSI-C quoting"
  | "locale quoting"
  | "extended glob"
  | "here-document with expansion"
  | "eval"
  | "shell script"
  | "function definition"
  | "alias"
  | "trap"
  | "assignment"
  | "environment change"
  | "bash-only syntax"
  | "dialects disagree"
  | "line continuation in a comment"
  | "unreadable script"
  | "nesting";

/** Something the parser read but the rules cannot vouch for: a rule never allows a command with one. */
export interface ParserFinding {
  kind: FindingKind;
  /** line:column, prefixed by the nested script it was found in. */
  at: string;
  /** A short quote of what was found. */
  detail: string;
}

export interface ShellAnalysis {
  source: string;
  /** Every simple command, including those inside substitutions, readable `sh -c` scripts and `find -exec`. */
  commands: SimpleCommand[];
  redirects: ShellRedirect[];
  findings: ParserFinding[];
  /**
   * The line could not be parsed (or was too large to): `commands` then hold what the shell would run
   * before it reaches the error, as far as that can be read.
   */
  parseError?: string;
}
