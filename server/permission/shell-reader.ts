// The walk over one parsed shell line (mvdan-sh's syntax tree): what it means for the rules — the simple
// commands it runs (resolved program, literal argv), the files it redirects to, and everything the rules
// cannot vouch for ("findings"). Parsing, dialects and retries are ./shell-parse.ts's.
import sh from "mvdan-sh";
import type {
  Assign,
  CallExpr,
  BinaryCmd,
  DblQuoted,
  Lit,
  Node,
  Redirect,
  SglQuoted,
  Stmt,
  Word,
  CmdSubst,
} from "mvdan-sh";
import { baseName, locateProgram, SHELLS, shellReadsStdin, shellScriptIndex } from "./shell-programs.ts";
import {
  ASSIGNING_BUILTINS,
  ENVIRONMENT_CHANGERS,
  EXPANSIONS,
  NOT_UNDERSTOOD,
  OUTPUT_OPERATORS,
  PIPE_OPERATORS,
  REDIRECT_OPERATORS,
} from "./shell-vocabulary.ts";
import type {
  FindingKind,
  ParserFinding,
  ShellAnalysis,
  ShellRedirect,
  ShellWord,
  SimpleCommand,
} from "./shell-types.ts";

const { syntax } = sh;

/**
 * Syntax nodes read per reading of the line (POSIX, bash), nested scripts and the search for comments
 * that end in `\` included. Reading a node through GopherJS costs about 45 µs (each access builds a JS
 * wrapper, and the garbage collector then doubles it), so this bounds the walk to a few hundred
 * milliseconds; the parse itself is bounded by MAX_PARSER_INPUT (./shell-parse.ts). bench/ measures the
 * worst 30 KB line (figure permission-evaluate).
 */
export const MAX_SYNTAX_NODES = 3_000;
/** `sh -c "sh -c '…'"` and `eval` are read this deep; deeper nesting is a finding of its own. */
export const MAX_NESTED_SCRIPTS = 4;
const DETAIL_LENGTH = 60;

export interface Scope {
  depth: number;
  /** "" for the line itself; else e.g. `sh -c script at 1:1`. */
  where: string;
  origin: string;
  budget: Budget;
}

/** What one reading of the line (POSIX, bash) has spent, nested scripts included. */
export interface Budget {
  nodes: number;
  /** Characters handed to the parser: the line, its re-reads and nested scripts (see MAX_PARSER_INPUT). */
  parserInput: number;
}

export class TooComplex extends Error {}

/** Counts one more syntax node read through the parser's JS build; past MAX_SYNTAX_NODES, TooComplex. */
export function countNode(budget: Budget): void {
  if (++budget.nodes > MAX_SYNTAX_NODES) throw tooManyNodes();
}

function tooManyNodes(): TooComplex {
  return new TooComplex(`the command has more than ${MAX_SYNTAX_NODES} syntax nodes; it is not checked`);
}

/** Reads a nested script with the scope it was found in (given by ./shell-parse.ts: no import cycle). */
export type NestedReader = (script: string, scope: Scope) => ShellAnalysis;

/** What one reading of the line found. */
export interface DialectReading {
  commands: SimpleCommand[];
  redirects: ShellRedirect[];
  findings: ParserFinding[];
  error?: string;
}

interface HereInput {
  /** The text a here-document or here-string feeds, when it is literal. */
  body?: string;
  at: string;
}

export class Reader {
  private readonly bytes: Buffer;
  private readonly commands: SimpleCommand[] = [];
  private readonly redirects: ShellRedirect[] = [];
  private readonly findings: ParserFinding[] = [];
  private origin: string;

  constructor(
    source: string,
    private readonly scope: Scope,
    /** Reads a script found in the line (`sh -c`, `eval`, a here-doc fed to a shell) as a line of its own. */
    private readonly readNested: NestedReader,
  ) {
    this.bytes = Buffer.from(source, "utf8");
    this.origin = scope.origin;
  }

  noteContinuedComment(at: string): void {
    this.findAt("line continuation in a comment", at, "sh ends the comment at the newline");
  }

  result(): DialectReading {
    return { commands: this.commands, redirects: this.redirects, findings: this.findings };
  }

  statements(statements: Stmt[], upstream: SimpleCommand[]): void {
    for (const statement of statements) this.statement(statement, upstream);
  }

  /** Reads one statement; returns the commands found in it. */
  private statement(statement: Stmt, upstream: SimpleCommand[]): SimpleCommand[] {
    this.count();
    const before = this.commands.length;
    const hereInputs: HereInput[] = [];
    for (const redirect of this.list<Redirect>(statement, "Redirs")) this.redirect(redirect, hereInputs);
    const command = statement.Cmd;
    if (command) {
      const kind = syntax.NodeType(command);
      if (kind === "CallExpr") this.call(command as CallExpr, upstream, hereInputs);
      else if (kind === "BinaryCmd") {
        const binary = command as BinaryCmd;
        const left = this.statement(binary.X, upstream);
        this.statement(binary.Y, PIPE_OPERATORS.has(binary.Op) ? [...upstream, ...left] : upstream);
      } else {
        const finding = NOT_UNDERSTOOD[kind];
        if (finding) this.find(finding, command, kind === "ForClause" ? "for loop variable" : undefined);
        this.generic(command, upstream);
      }
    }
    return this.commands.slice(before);
  }

  /** Any other node: statements inside it are read as statements, expansions as findings. */
  private generic(node: Node, upstream: SimpleCommand[]): void {
    syntax.Walk(node, (child) => {
      if (!child || child === node) return true;
      this.count();
      const kind = syntax.NodeType(child);
      if (kind === "Stmt") {
        this.statement(child as Stmt, upstream);
        return false;
      }
      if (EXPANSIONS[kind]) {
        this.expansion(child, []);
        return false;
      }
      if (kind === "SglQuoted" && (child as SglQuoted).Dollar) this.find("ANSI-C quoting", child);
      if (kind === "DblQuoted" && (child as DblQuoted).Dollar) this.find("locale quoting", child);
      return true;
    });
  }

  private call(call: CallExpr, upstream: SimpleCommand[], hereInputs: HereInput[]): void {
    const inner: SimpleCommand[] = [];
    const assignments = this.list<Assign>(call, "Assigns").map((assign) => this.assignment(assign, inner));
    const words = this.list<Word>(call, "Args").map((word) => this.word(word, inner));
    if (words.length === 0) {
      if (assignments.length > 0) this.find("assignment", call);
      return;
    }
    this.addCommand(words, {
      assignments,
      upstream,
      inner,
      hereInputs,
      at: this.position(call),
    });
  }

  private assignment(assign: Assign, inner: SimpleCommand[]): string {
    this.count();
    if (assign.Value) this.word(assign.Value, inner);
    else this.generic(assign, []);
    return this.raw(assign);
  }

  private addCommand(
    words: ShellWord[],
    context: {
      assignments: string[];
      upstream: SimpleCommand[];
      inner: SimpleCommand[];
      hereInputs: HereInput[];
      at: string;
      origin?: string;
    },
  ): SimpleCommand {
    const located = locateProgram(words);
    if (located.opaque) this.findAt("unreadable script", context.at, located.opaque);
    const programWord = located.index >= 0 ? words[located.index] : undefined;
    const program =
      programWord?.value !== undefined && !programWord.pattern ? baseName(programWord.value) : undefined;
    const args = located.index >= 0 ? words.slice(located.index + 1) : [];
    const shown = (word: ShellWord) => word.value ?? word.raw;
    const assignments = [...context.assignments, ...located.environment];
    const command: SimpleCommand = {
      words,
      assignments,
      wrappers: located.wrappers,
      programIndex: located.index,
      ...(program !== undefined ? { program } : {}),
      args,
      text: words.map(shown).join(" "),
      ...(program !== undefined ? { resolvedText: [program, ...args.map(shown)].join(" ") } : {}),
      literal: assignments.length === 0 && words.every((word) => word.value !== undefined),
      upstream: context.upstream,
      inner: context.inner,
      argsFromInput: located.argsFromInput,
      origin: context.origin ?? this.origin,
      at: context.at,
    };
    this.commands.push(command);
    if (program !== undefined) this.special(command, program, context.hereInputs);
    return command;
  }

  /** Programs that run a script given as a string, change the shell, or run other commands (find -exec). */
  private special(command: SimpleCommand, program: string, hereInputs: HereInput[]): void {
    const { args, at } = command;
    const literalArgs = args.every((word) => word.value !== undefined);
    if (program === "eval") {
      this.findAt("eval", at, clip(command.text));
      if (literalArgs) this.nested(args.map((word) => word.value).join(" "), "eval", at);
      else this.findAt("unreadable script", at, `eval of ${clip(args.map((word) => word.raw).join(" "))}`);
    } else if (SHELLS.has(program)) {
      const scriptIndex = shellScriptIndex(command.words, command.programIndex);
      if (scriptIndex >= 0) {
        const script = command.words[scriptIndex]!;
        this.findAt("shell script", at, `${program} -c ${clip(script.raw)}`);
        if (script.value !== undefined) this.nested(script.value, `${program} -c script`, at);
        else this.findAt("unreadable script", at, `${program} -c ${clip(script.raw)}`);
      } else if (shellReadsStdin(command.words, command.programIndex)) {
        for (const input of hereInputs) {
          this.findAt("shell script", input.at, `${program} reads its script from a here-document`);
          if (input.body !== undefined) this.nested(input.body, `${program} here-document`, input.at);
          else this.findAt("unreadable script", input.at, `${program} reads an expanded here-document`);
        }
        if (command.upstream.length > 0) {
          this.findAt("shell script", at, `${program} reads its script from a pipe`);
          this.findAt("unreadable script", at, `the script ${program} reads from a pipe`);
        }
      }
    } else if (program === "trap") {
      this.findAt("trap", at, clip(command.text));
      const action = args[0];
      if (args.length >= 2 && action?.value !== undefined) this.nested(action.value, "trap action", at);
    } else if (program === "alias") {
      this.findAt("alias", at, clip(command.text));
      // An alias joins with the words after it where it is used: its commands cannot be matched alone.
      this.findAt("unreadable script", at, `the alias ${clip(command.text)}`);
      for (const word of args) {
        const equals = word.value?.indexOf("=") ?? -1;
        if (equals > 0) this.nested(word.value!.slice(equals + 1), "alias", at);
      }
    } else if (program === "find") {
      this.findActions(command);
    } else if (ENVIRONMENT_CHANGERS.has(program)) {
      this.findAt("environment change", at, clip(command.text));
    } else if (
      ASSIGNING_BUILTINS.has(program) ||
      (program === "printf" && args.some((word) => word.value === "-v"))
    ) {
      this.findAt("assignment", at, clip(command.text));
    }
  }

  /** `find -exec CMD … ;` runs CMD; `find -delete` deletes like `rm` (rules on `rm` apply to both). */
  private findActions(command: SimpleCommand): void {
    const { args, at } = command;
    const firstExpression = args.findIndex((word) => /^[-(!]/.test(word.value ?? word.raw));
    const starts = args.slice(0, firstExpression < 0 ? undefined : firstExpression);
    const startWords = starts.length > 0 ? starts : [literalWord(".")];
    const derived = { assignments: [], upstream: [], inner: [], hereInputs: [], at };
    for (let index = 0; index < args.length; index++) {
      const value = args[index]!.value;
      if (value === "-delete") {
        this.addCommand([literalWord("rm"), ...startWords], { ...derived, origin: "find -delete" });
      } else if (value === "-exec" || value === "-execdir" || value === "-ok" || value === "-okdir") {
        const end = args.findIndex(
          (word, position) => position > index && (word.value === ";" || word.value === "+"),
        );
        const words = args.slice(index + 1, end < 0 ? undefined : end);
        if (words.length > 0) this.addCommand(words, { ...derived, origin: `find ${value}` });
        if (end > index) index = end;
      }
    }
  }

  private nested(script: string, origin: string, at: string): void {
    const where = `${origin} at ${at}${this.scope.where ? ` in ${this.scope.where}` : ""}`;
    if (this.scope.depth + 1 > MAX_NESTED_SCRIPTS) {
      this.findAt("nesting", at, `scripts nested deeper than ${MAX_NESTED_SCRIPTS} levels are not read`);
      return;
    }
    const inner = this.readNested(script, {
      depth: this.scope.depth + 1,
      where,
      origin,
      budget: this.scope.budget,
    });
    this.commands.push(...inner.commands);
    this.redirects.push(...inner.redirects);
    this.findings.push(...inner.findings);
    if (inner.parseError)
      this.findAt("unreadable script", at, `the ${origin} does not parse: ${inner.parseError}`);
  }

  private redirect(redirect: Redirect, hereInputs: HereInput[]): void {
    this.count();
    const operator = REDIRECT_OPERATORS.get(redirect.Op) ?? `operator ${redirect.Op}`;
    const at = this.position(redirect);
    if (operator === "<<" || operator === "<<-") {
      const body = redirect.Hdoc ? this.hereDocument(redirect.Hdoc) : "";
      hereInputs.push({ ...(body !== undefined ? { body } : {}), at });
      return;
    }
    const target = redirect.Word ? this.word(redirect.Word, []) : literalWord("");
    if (operator === "<<<") {
      hereInputs.push({ ...(target.value !== undefined ? { body: target.value } : {}), at });
      return;
    }
    const descriptorTarget = /^(\d+|-)$/.test(target.value ?? "");
    const isDescriptor = (operator === ">&" || operator === "<&") && descriptorTarget;
    const isOutput = OUTPUT_OPERATORS.has(operator) || operator === ">&";
    this.redirects.push({ operator, target, isOutput, isDescriptor, at });
  }

  /** The body of a here-document when it is literal; expansions in it are findings (sh runs them). */
  private hereDocument(body: Word): string | undefined {
    let text = "";
    let literal = true;
    for (const part of this.list<Node>(body, "Parts")) {
      this.count();
      if (syntax.NodeType(part) === "Lit") text += (part as Lit).Value;
      else {
        literal = false;
        this.find("here-document with expansion", part);
        this.expansion(part, []);
      }
    }
    return literal ? text : undefined;
  }

  private word(word: Word, inner: SimpleCommand[]): ShellWord {
    this.count();
    let value = "";
    let literal = true;
    let pattern = false;
    for (const part of this.list<Node>(word, "Parts")) {
      this.count();
      const kind = syntax.NodeType(part);
      if (kind === "Lit") {
        const raw = (part as Lit).Value;
        if (isPattern(raw)) pattern = true;
        value += unescapeUnquoted(raw);
      } else if (kind === "SglQuoted") {
        const quoted = part as SglQuoted;
        if (quoted.Dollar) {
          literal = false;
          this.find("ANSI-C quoting", part);
        } else value += quoted.Value;
      } else if (kind === "DblQuoted") {
        const quoted = part as DblQuoted;
        if (quoted.Dollar) {
          literal = false;
          this.find("locale quoting", part);
        }
        for (const innerPart of this.list<Node>(quoted, "Parts")) {
          this.count();
          if (syntax.NodeType(innerPart) === "Lit") value += unescapeDoubleQuoted((innerPart as Lit).Value);
          else {
            literal = false;
            this.expansion(innerPart, inner);
          }
        }
      } else {
        literal = false;
        this.expansion(part, inner);
      }
    }
    return { ...(literal ? { value } : {}), raw: this.raw(word), pattern };
  }

  /** A finding for the expansion; the commands inside substitutions are read (and listed in `inner`). */
  private expansion(part: Node, inner: SimpleCommand[]): void {
    const kind = syntax.NodeType(part);
    this.find(EXPANSIONS[kind] ?? "bash-only syntax", part);
    if (kind === "CmdSubst" || kind === "ProcSubst") {
      const before = this.commands.length;
      const saved = this.origin;
      this.origin = kind === "CmdSubst" ? "command substitution" : "process substitution";
      this.statements(this.list<Stmt>(part, "Stmts"), []);
      this.origin = saved;
      inner.push(...this.commands.slice(before));
      return;
    }
    syntax.Walk(part, (child) => {
      if (!child || child === part) return true;
      this.count();
      const childKind = syntax.NodeType(child);
      if (childKind === "CmdSubst" || childKind === "ProcSubst") {
        this.expansion(child, inner);
        return false;
      }
      return true;
    });
  }

  private find(kind: FindingKind, node: Node, detail?: string): void {
    this.findAt(kind, this.position(node), detail ?? clip(this.raw(node)));
  }

  private findAt(kind: FindingKind, at: string, detail: string): void {
    this.findings.push({ kind, at: this.scope.where ? `${at} in ${this.scope.where}` : at, detail });
  }

  private position(node: Node): string {
    return node.Pos().String();
  }

  private raw(node: Node): string {
    return this.bytes.subarray(node.Pos().Offset(), node.End().Offset()).toString("utf8");
  }

  /**
   * A list field of a node. GopherJS converts the whole Go slice on access, so its length is checked
   * against the node budget first (read from the Go value behind the wrapper, where there is one).
   */
  list<T>(owner: Node, field: "Stmts" | "Redirs" | "Assigns" | "Args" | "Parts"): T[] {
    const internal = (owner as unknown as { __internal_object__?: Record<string, { $length?: unknown }> })
      .__internal_object__;
    const length = internal?.[field]?.$length;
    if (typeof length === "number" && this.scope.budget.nodes + length > MAX_SYNTAX_NODES)
      throw tooManyNodes();
    return (owner as unknown as Record<string, T[]>)[field]!;
  }

  private count(): void {
    countNode(this.scope.budget);
  }
}

function literalWord(value: string): ShellWord {
  return { value, raw: value, pattern: false };
}

/** Unquoted text: a backslash quotes the next character (line continuations are already removed). */
function unescapeUnquoted(text: string): string {
  return text.replace(/\\(.)/gs, "$1");
}

/** Inside double quotes a backslash quotes only `$`, `` ` ``, `"`, `\` and newline. */
function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, char: string) => (char === "\n" ? "" : char));
}

/** Unquoted glob characters or a brace list: the shell may replace the word with file names. */
function isPattern(raw: string): boolean {
  const unescaped = raw.replace(/\\./gs, "");
  return /[*?[]/.test(unescaped) || /\{[^}]*(,|\.\.)[^}]*\}/.test(unescaped);
}

export function clip(text: string): string {
  const oneLine = text.replace(/\n/g, "\\n");
  return oneLine.length > DETAIL_LENGTH ? `${oneLine.slice(0, DETAIL_LENGTH)}…` : oneLine;
}
