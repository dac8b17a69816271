// What mvdan-sh's syntax tree means to the permission rules: its operator numbers (learnt by parsing
// samples, so a new version of the package cannot shift them), the builtins that change what later words
// mean, and the node kinds the rules cannot vouch for. ./shell-reader.ts walks a tree with these.
import sh from "mvdan-sh";
import type { BinaryCmd } from "mvdan-sh";
import type { FindingKind } from "./shell-types.ts";

const { syntax } = sh;

export const REDIRECT_OPERATORS = learnOperators(
  ": >a >>b <c <>d >&e <&f >|g <<h <<-i <<<j &>k &>>l\nh\n\ti\n",
  [">", ">>", "<", "<>", ">&", "<&", ">|", "<<", "<<-", "<<<", "&>", "&>>"],
);
export const OUTPUT_OPERATORS = new Set([">", ">>", ">|", "<>", "&>", "&>>"]);
export const PIPE_OPERATORS = new Set([opOf("a | b"), opOf("a |& b")]);

/** Learns mvdan-sh's token numbers by parsing a sample, so a new version of the package cannot shift them. */
function learnOperators(sample: string, names: string[]): Map<number, string> {
  const redirects = syntax.NewParser().Parse(sample, "").Stmts[0]!.Redirs;
  if (redirects.length !== names.length) throw new Error("mvdan-sh: unexpected redirect sample");
  return new Map(redirects.map((redirect, index) => [redirect.Op, names[index]!]));
}

function opOf(sample: string): number {
  return (syntax.NewParser().Parse(sample, "").Stmts[0]!.Cmd as BinaryCmd).Op;
}

/** Programs whose use changes what later words mean (functions, aliases, PATH, sourced files). */
export const ENVIRONMENT_CHANGERS = new Set([
  "export",
  "readonly",
  "declare",
  "typeset",
  "local",
  "hash",
  "enable",
  "source",
  ".",
  "shopt",
]);
export const ASSIGNING_BUILTINS = new Set(["read", "getopts", "mapfile", "readarray"]);
/** Compound commands the rules cannot vouch for even when every word is literal. */
export const NOT_UNDERSTOOD: Record<string, FindingKind> = {
  FuncDecl: "function definition",
  ArithmCmd: "bash-only syntax",
  TestClause: "bash-only syntax",
  LetClause: "bash-only syntax",
  CoprocClause: "bash-only syntax",
  DeclClause: "environment change",
  ForClause: "assignment",
};
export const EXPANSIONS: Record<string, FindingKind> = {
  CmdSubst: "command substitution",
  ProcSubst: "process substitution",
  ParamExp: "parameter expansion",
  ArithmExp: "arithmetic expansion",
  ExtGlob: "extended glob",
  BraceExp: "bash-only syntax",
  ArrayExpr: "bash-only syntax",
  CStyleLoop: "bash-only syntax",
};
