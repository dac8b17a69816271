// Reads a shell command line with a real parser (mvdan-sh, the JS build of mvdan.cc/sh) and returns a
// plain analysis: the simple commands it runs (resolved program, literal argv), the files it redirects to,
// and everything the rules cannot vouch for ("findings"). The line is read twice, as POSIX sh (what
// `/bin/sh -c` is on Debian: dash) and as bash (what `/bin/sh` is elsewhere); where the two readings
// differ, both sets of commands count and the line is marked, so neither shell can run a command the
// rules did not see.
//
// mvdan-sh is the deprecated GopherJS build; its maintained WASM build, sh-syntax (0.7, checked
// 2026-12-03), cannot replace it: its parse returns a JSON projection of the tree in which a statement's
// command is only a {Pos, End} pair and a word's parts carry neither kind nor value — `git status` and
// `rm -rf ~/x` come back byte-identical, as do `echo hello` and `echo $(id)` — and its one WASM export
// (`process`) gives nothing else. Move when a build exposes the whole syntax tree.
import sh from "mvdan-sh";
import type { Comment, File, ParseError } from "mvdan-sh";
import type { ParserFinding, ShellAnalysis, ShellRedirect, SimpleCommand } from "./shell-types.ts";
export type { ParserFinding, ShellAnalysis, ShellRedirect, ShellWord, SimpleCommand } from "./shell-types.ts";
import {
  Reader,
  countNode,
  TooComplex,
  clip,
  type Budget,
  type DialectReading,
  type Scope,
} from "./shell-reader.ts";

const { syntax } = sh;

/** Longer lines are not parsed (a 1 MB line costs seconds in the parser); they ask. */
export const MAX_PARSED_LENGTH = 32 * 1024;
/** What one parse costs beyond its text (a new parser, the file's wrappers), counted as characters. */
const PARSE_OVERHEAD = 256;
/**
 * Characters handed to the parser per reading of the line (POSIX, bash), re-reads and nested scripts
 * included. A parse costs about 5 µs a byte in the JS build, so a line that makes the parser read it again
 * and again (a parse error near its end, a comment ending in `\` on every line, `sh -c` scripts by the
 * hundred, `sh -c "sh -c '…'"` read in both dialects at every level) stops being read at about a third of
 * a second per dialect, and asks. Any line up to MAX_PARSED_LENGTH is read at least twice.
 */
export const MAX_PARSER_INPUT = 2 * (MAX_PARSED_LENGTH + PARSE_OVERHEAD);
/** How often a parse error is retried on the text before it (what the shell runs before failing). */
const PREFIX_RETRIES = 3;
/** Comments ending in `\` that are re-read the way sh reads them, per line. */
const MAX_COMMENT_FIXES = 16;

/**
 * Analyses by command text. A parse costs milliseconds (the parser's JS build reads each node slowly), and
 * the same lines come again and again: a skill tool's fixed argv on every call, a command the model
 * retries, an approval re-evaluated. Each caller gets its own copy. Bounded: cleared when full.
 */
const analyses = new Map<string, ShellAnalysis>();
const MAX_CACHED_ANALYSES = 512;

export function analyzeShell(source: string): ShellAnalysis {
  let analysis = analyses.get(source);
  if (!analysis) {
    analysis = analyzeScript(source, {
      depth: 0,
      where: "",
      origin: "command line",
      budget: { nodes: 0, parserInput: 0 },
    });
    if (analyses.size >= MAX_CACHED_ANALYSES) analyses.clear();
    analyses.set(source, analysis);
  }
  return structuredClone(analysis);
}

function analyzeScript(source: string, scope: Scope): ShellAnalysis {
  const analysis: ShellAnalysis = { source, commands: [], redirects: [], findings: [] };
  if (source.length > MAX_PARSED_LENGTH) {
    analysis.parseError = `the command is ${source.length} characters long; commands over ${MAX_PARSED_LENGTH} are not parsed`;
    return analysis;
  }
  // The line itself gives each dialect its own budget; a nested script shares its reader's.
  const budgetFor = () => (scope.depth === 0 ? { ...scope, budget: { nodes: 0, parserInput: 0 } } : scope);
  const posix = readDialect(source, syntax.LangPOSIX, budgetFor());
  const bash = readDialect(source, syntax.LangBash, budgetFor());
  analysis.commands.push(...posix.commands);
  const posixKeys = new Set(posix.commands.map(commandKey));
  const bashKeys = new Set(bash.commands.map(commandKey));
  const bashOnly = bash.commands.filter((command) => !posixKeys.has(commandKey(command)));
  analysis.commands.push(...bashOnly);
  const posixOnly = posix.commands.find((command) => !bashKeys.has(commandKey(command)));
  const differing = bashOnly[0] ?? posixOnly;
  if (differing && !posix.error && !bash.error) {
    analysis.findings.push({
      kind: "dialects disagree",
      at: differing.at,
      detail: `POSIX sh and bash read \`${clip(differing.text)}\` differently`,
    });
  }
  const seenRedirects = new Set<string>();
  for (const redirect of [...posix.redirects, ...bash.redirects]) {
    const key = `${redirect.operator} ${redirect.target.raw} ${redirect.at}`;
    if (!seenRedirects.has(key)) analysis.redirects.push(redirect);
    seenRedirects.add(key);
  }
  const seenFindings = new Set<string>();
  for (const finding of [...posix.findings, ...bash.findings]) {
    const key = `${finding.kind} ${finding.at} ${finding.detail}`;
    if (!seenFindings.has(key)) analysis.findings.push(finding);
    seenFindings.add(key);
  }
  if (posix.error && bash.error) analysis.parseError = posix.error;
  else if (posix.error) analysis.parseError = `as POSIX sh (/bin/sh): ${posix.error}`;
  else if (bash.error) analysis.parseError = `as bash: ${bash.error}`;
  return analysis;
}

function commandKey(command: SimpleCommand): string {
  return `${command.at} ${command.origin} ${command.text}`;
}

/** Parses one dialect; on a parse error, reads the text before the error (what the shell runs first). */
function readDialect(source: string, language: number, scope: Scope): DialectReading {
  let text = source;
  let error: string | undefined;
  for (let attempt = 0; attempt <= PREFIX_RETRIES; attempt++) {
    const reader = new Reader(text, scope, analyzeScript);
    try {
      const parser = syntax.NewParser(syntax.KeepComments(true), syntax.Variant(language));
      const parse = (input: string): File => {
        scope.budget.parserInput += input.length + PARSE_OVERHEAD;
        if (scope.budget.parserInput > MAX_PARSER_INPUT)
          throw new TooComplex(
            `reading the command means parsing more than ${MAX_PARSER_INPUT} characters (re-reads and nested scripts included); it is not checked`,
          );
        return parser.Parse(input, "");
      };
      let file = parse(text);
      for (let fixes = 0; ; fixes++) {
        const continued = continuedComment(file, text, scope.budget);
        if (continued === undefined) break;
        if (fixes >= MAX_COMMENT_FIXES) throw new TooComplex("too many comments that end in a backslash");
        // sh ends a comment at the newline; mvdan-sh lets `\` + newline continue it into the next line's
        // command. Blanking that backslash gives the parser the line sh reads.
        reader.noteContinuedComment(continued.at);
        const bytes = Buffer.from(text, "utf8");
        bytes[continued.backslash] = 0x20;
        text = bytes.toString("utf8");
        file = parse(text);
      }
      reader.statements(reader.list(file, "Stmts"), []);
      return { ...reader.result(), ...(error !== undefined ? { error } : {}) };
    } catch (thrown) {
      if (thrown instanceof TooComplex) {
        return { ...reader.result(), error: thrown.message };
      }
      if (thrown instanceof RangeError) {
        return { commands: [], redirects: [], findings: [], error: "nested too deeply to be parsed" };
      }
      const parseError = thrown as ParseError;
      if (typeof parseError?.Error !== "function") throw thrown;
      error ??= parseError.Error();
      const offset = parseError.Pos?.Offset?.() ?? 0;
      const prefix = Buffer.from(text, "utf8").subarray(0, offset).toString("utf8");
      if (offset <= 0 || prefix.length >= text.length) break;
      text = prefix;
    }
  }
  return { commands: [], redirects: [], findings: [], error: error ?? "unparsable" };
}

/**
 * A comment whose text runs over `\` + newline: where it is and the byte offset of that backslash. The
 * search walks the whole tree, so its nodes count against the budget like the reader's: a walk costs about
 * 40 µs a node (each one wrapped for JS), and a 30 KB line of `a # c \` lines has 16,000 of them.
 */
function continuedComment(
  file: File,
  text: string,
  budget: Budget,
): { at: string; backslash: number } | undefined {
  if (!text.includes("#") || !text.includes("\\\n")) return undefined;
  let found: { at: string; backslash: number } | undefined;
  syntax.Walk(file, (node) => {
    if (found || !node) return !found;
    countNode(budget);
    if (syntax.NodeType(node) !== "Comment") return true;
    const comment = node as unknown as Comment;
    const continuation = comment.Text.indexOf("\\\n");
    if (continuation >= 0) {
      const before = Buffer.byteLength(comment.Text.slice(0, continuation), "utf8");
      found = { at: comment.Hash.String(), backslash: comment.Hash.Offset() + 1 + before };
    }
    return false;
  });
  return found;
}
