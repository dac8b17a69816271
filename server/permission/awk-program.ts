// Reads an awk program (POSIX awk, gawk, mawk) far enough to find what it runs and writes: `system()`,
// a pipe to or from a command (`print | "cmd"`, `"cmd" | getline`, gawk's `|&`), gawk's `@` (indirect
// calls, which reach `system` by name, and `@load`/`@include`), and output redirection (`print > file`,
// `printf … >> file`). Strings and comments are skipped; a `/` where an operand is expected starts a
// regex. Whether `[/]` ends a regex differs between awks, so the program is read both ways and what
// either reading finds counts.

export interface AwkConstruct {
  /** `system()`, `|`, `@`, `print >`, `printf >` or `unreadable`. */
  construct: string;
  /** The file a redirection writes, when it is a string literal. */
  argument?: string;
  detail: string;
}

const KEYWORDS = new Set([
  "print",
  "printf",
  "return",
  "in",
  "getline",
  "if",
  "while",
  "for",
  "do",
  "else",
  "delete",
  "exit",
  "next",
  "nextfile",
  "function",
  "func",
  "case",
  "default",
]);

class Unreadable extends Error {}

export function readAwkProgram(program: string): AwkConstruct[] {
  const found = new Map<string, AwkConstruct>();
  for (const brackets of [true, false]) {
    let constructs: AwkConstruct[];
    try {
      constructs = readOnce(program, brackets);
    } catch (error) {
      if (!(error instanceof Unreadable)) throw error;
      constructs = [{ construct: "unreadable", detail: error.message }];
    }
    for (const construct of constructs) found.set(`${construct.construct} ${construct.detail}`, construct);
  }
  return [...found.values()];
}

function readOnce(program: string, brackets: boolean): AwkConstruct[] {
  const found: AwkConstruct[] = [];
  let at = 0;
  let operandBefore = false;
  let depth = 0;
  /** Set while inside a print statement: the keyword and the parenthesis depth it was at. */
  let printing: { keyword: string; depth: number } | undefined;
  let lastSignificant = "";
  while (at < program.length) {
    const char = program[at]!;
    if (char === "\\" && program[at + 1] === "\n") {
      at += 2;
      continue;
    }
    if (char === " " || char === "\t" || char === "\r") {
      at++;
      continue;
    }
    if (char === "\n" || char === ";" || char === "{" || char === "}") {
      if (!(char === "\n" && /[,{&|]/.test(lastSignificant))) printing = undefined;
      operandBefore = false;
      lastSignificant = char;
      at++;
      continue;
    }
    if (char === "#") {
      const end = program.indexOf("\n", at);
      at = end < 0 ? program.length : end;
      continue;
    }
    if (char === '"') {
      const end = endOfString(program, at);
      lastSignificant = '"';
      operandBefore = true;
      at = end;
      continue;
    }
    if (char === "/" && !operandBefore) {
      at = endOfRegex(program, at, brackets);
      operandBefore = true;
      lastSignificant = "/";
      continue;
    }
    if (/[A-Za-z_]/.test(char)) {
      const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(program.slice(at))![0];
      at += word.length;
      if (word === "system") found.push({ construct: "system()", detail: "system(…)" });
      if (word === "print" || word === "printf") printing = { keyword: word, depth };
      operandBefore = !KEYWORDS.has(word);
      lastSignificant = word;
      continue;
    }
    if (/[0-9.]/.test(char)) {
      at += /^[0-9.]+([eE][-+]?\d+)?/.exec(program.slice(at))?.[0].length || 1;
      operandBefore = true;
      lastSignificant = "0";
      continue;
    }
    if (char === "@") found.push({ construct: "@", detail: program.slice(at, at + 20) });
    if (char === "|") {
      if (program[at + 1] === "|") {
        at += 2;
        operandBefore = false;
        lastSignificant = "|";
        continue;
      }
      found.push({ construct: "|", detail: program[at + 1] === "&" ? "|&" : "|" });
    }
    if (char === ">" && printing && depth === printing.depth) {
      let next = at + 1 + (program[at + 1] === ">" ? 1 : 0);
      while (/[ \t]/.test(program[next] ?? "")) next++;
      const argument = program[next] === '"' ? literalString(program, next) : undefined;
      found.push({
        construct: `${printing.keyword} >`,
        ...(argument !== undefined ? { argument } : {}),
        detail: program.slice(at, endOfLine(program, at)).trim(),
      });
      at += program[at + 1] === ">" ? 2 : 1;
      operandBefore = false;
      lastSignificant = ">";
      continue;
    }
    if ((char === "+" || char === "-") && program[at + 1] === char) {
      // `i++ / 2` divides: a postfix increment ends an operand, a prefix one starts one.
      at += 2;
      lastSignificant = char;
      continue;
    }
    if (char === "(" || char === "[") depth++;
    if (char === ")" || char === "]") depth = Math.max(0, depth - 1);
    operandBefore = char === ")" || char === "]";
    lastSignificant = char;
    at++;
  }
  return found;
}

function endOfString(program: string, start: number): number {
  let at = start + 1;
  while (at < program.length) {
    if (program[at] === "\\") at += 2;
    else if (program[at] === '"') return at + 1;
    else if (program[at] === "\n") break;
    else at++;
  }
  throw new Unreadable("an unterminated string");
}

/** The string literal's text without its escapes, or undefined when it has any (`"\x2e"` is not `.`). */
function literalString(program: string, start: number): string | undefined {
  const end = endOfString(program, start);
  const body = program.slice(start + 1, end - 1);
  return body.includes("\\") ? undefined : body;
}

function endOfRegex(program: string, start: number, brackets: boolean): number {
  let at = start + 1;
  while (at < program.length) {
    const char = program[at]!;
    if (char === "\\") at += 2;
    else if (char === "/") return at + 1;
    else if (char === "\n") break;
    else if (char === "[" && brackets) {
      let close = at + 1;
      if (program[close] === "^") close++;
      if (program[close] === "]") close++;
      while (close < program.length && program[close] !== "]" && program[close] !== "\n") close++;
      at = close + 1;
    } else at++;
  }
  throw new Unreadable("an unterminated regex");
}

function endOfLine(program: string, at: number): number {
  const end = program.indexOf("\n", at);
  return end < 0 ? program.length : end;
}
