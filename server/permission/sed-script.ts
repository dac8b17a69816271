// Reads a sed script (GNU sed 4.x) far enough to find what it runs and writes: the `e` command and the
// `e` flag of `s` run shell commands; `w`/`W` and the `w` flag of `s` write files. Every command of GNU
// sed is known; anything else (an unknown command, an unterminated regex) makes the script unreadable,
// and an unreadable script asks. Where sed takes "the rest of the line" (a/i/c text, file names, labels),
// the rest after a `;` is also read as commands, so a sed that ends the argument there hides nothing.

export interface SedConstruct {
  /** `e`, `s///e`, `w`, `W`, `s///w`, or `unreadable`. */
  construct: string;
  /** The file a `w` writes, or the command an `e` runs (may be empty: the pattern space runs). */
  argument?: string;
  detail: string;
}

const SIMPLE = new Set([..."=dDgGhHnNpPxzF"]);
const OPTIONAL_NUMBER = new Set([..."lLqQ"]);
const LABELS = new Set([..."btT:"]);
const TEXT = new Set([..."aic"]);
const FILES = new Set([..."rRwW"]);

class Unreadable extends Error {}

export function readSedScript(script: string): SedConstruct[] {
  const found: SedConstruct[] = [];
  try {
    readCommands(script, found, 0);
  } catch (error) {
    if (!(error instanceof Unreadable)) throw error;
    found.push({ construct: "unreadable", detail: error.message });
  }
  return found;
}

function readCommands(script: string, found: SedConstruct[], depth: number): void {
  if (depth > 8) throw new Unreadable("too many nested re-readings");
  let at = 0;
  const peek = () => script[at];
  const skipBlanks = () => {
    while (at < script.length && /[ \t]/.test(script[at]!)) at++;
  };
  /** The rest of the line; the part after a `;` is read again as commands. */
  const restOfLine = (): string => {
    const end = script.indexOf("\n", at);
    const text = script.slice(at, end < 0 ? undefined : end);
    at = end < 0 ? script.length : end;
    const semicolon = text.indexOf(";");
    if (semicolon >= 0) readCommands(text.slice(semicolon + 1), found, depth + 1);
    return text;
  };
  while (at < script.length) {
    while (at < script.length && /[\s;]/.test(script[at]!)) at++;
    if (at >= script.length) break;
    if (peek() === "#") {
      const end = script.indexOf("\n", at);
      at = end < 0 ? script.length : end;
      continue;
    }
    at = readAddress(script, at);
    skipBlanks();
    if (peek() === ",") {
      at++;
      skipBlanks();
      if (peek() === "+" || peek() === "~") at++;
      at = readAddress(script, at);
      skipBlanks();
    }
    while (peek() === "!" || peek() === " " || peek() === "\t") at++;
    const command = script[at++];
    if (command === undefined) throw new Unreadable("an address without a command");
    if (command === "{" || command === "}") continue;
    if (SIMPLE.has(command)) {
      // nothing more
    } else if (OPTIONAL_NUMBER.has(command)) {
      skipBlanks();
      while (/\d/.test(peek() ?? "")) at++;
    } else if (LABELS.has(command) || command === "v") {
      skipBlanks();
      while (at < script.length && !/[;\n]/.test(script[at]!)) at++;
    } else if (TEXT.has(command)) {
      let text = restOfLine();
      while (/(^|[^\\])(\\\\)*\\$/.test(text) && at < script.length) {
        at++;
        text = restOfLine();
      }
    } else if (FILES.has(command)) {
      skipBlanks();
      const file = restOfLine();
      if (command === "w" || command === "W")
        found.push({ construct: command, argument: file, detail: `${command} ${file}` });
    } else if (command === "e") {
      skipBlanks();
      const line = restOfLine();
      found.push({ construct: "e", argument: line, detail: `e ${line}`.trim() });
    } else if (command === "s") {
      const from = at - 1;
      const substitute = readSubstitute(script, at);
      at = substitute.at;
      const text = script.slice(from, at);
      if (substitute.flags.includes("e")) found.push({ construct: "s///e", detail: text });
      if (substitute.writes) {
        skipBlanks();
        const file = restOfLine();
        found.push({ construct: "s///w", argument: file, detail: `${text} ${file}` });
      }
    } else if (command === "y") {
      const delimiter = script[at++];
      if (delimiter === undefined || delimiter === "\n" || delimiter === "\\")
        throw new Unreadable("y without a delimiter");
      at = readDelimited(script, at, delimiter, false);
      at = readDelimited(script, at, delimiter, false);
    } else {
      throw new Unreadable(`\`${command}\` is not a sed command`);
    }
    skipBlanks();
    const next = peek();
    if (next !== undefined && !/[;\n}#]/.test(next))
      throw new Unreadable(`unexpected \`${next}\` after \`${command}\``);
  }
}

/** `s/regex/replacement/flags`: the offset after the flags, and whether the last flag is `w FILE`. */
function readSubstitute(script: string, start: number): { at: number; flags: string; writes: boolean } {
  const delimiter = script[start];
  if (delimiter === undefined || delimiter === "\n" || delimiter === "\\")
    throw new Unreadable("s without a delimiter");
  let at = readDelimited(script, start + 1, delimiter, true);
  at = readDelimited(script, at, delimiter, false);
  const flagsFrom = at;
  while (at < script.length && /[gpiImMe0-9]/.test(script[at]!)) at++;
  const flags = script.slice(flagsFrom, at);
  return script[at] === "w" ? { at: at + 1, flags, writes: true } : { at, flags, writes: false };
}

/** Reads up to the closing delimiter; a regex honours bracket expressions (`[/]`) as GNU sed does. */
function readDelimited(script: string, start: number, delimiter: string, regex: boolean): number {
  let at = start;
  while (at < script.length) {
    const char = script[at]!;
    if (char === "\\") {
      at += 2;
      continue;
    }
    if (char === delimiter) return at + 1;
    if (char === "\n" && regex) throw new Unreadable("a newline inside a regex");
    if (char === "[" && regex) {
      at = closingBracket(script, at);
      continue;
    }
    at++;
  }
  throw new Unreadable(`unterminated \`${delimiter}\``);
}

/** The offset after the `]` that closes the bracket expression at `start`. */
function closingBracket(script: string, start: number): number {
  let at = start + 1;
  if (script[at] === "^") at++;
  if (script[at] === "]") at++;
  while (at < script.length) {
    if (script[at] === "[" && /[:.=]/.test(script[at + 1] ?? "")) {
      const kind = script[at + 1]!;
      const close = script.indexOf(`${kind}]`, at + 2);
      if (close < 0) throw new Unreadable("unterminated character class");
      at = close + 2;
      continue;
    }
    if (script[at] === "]") return at + 1;
    if (script[at] === "\n") throw new Unreadable("a newline inside a bracket expression");
    at++;
  }
  throw new Unreadable("unterminated bracket expression");
}

/** A line number, `$`, `first~step`, `/regex/` or `\cregexc` with its I/M flags; absent is fine. */
function readAddress(script: string, start: number): number {
  let at = start;
  const char = script[at];
  if (char === undefined) return at;
  if (/\d/.test(char)) {
    while (/[\d~]/.test(script[at] ?? "")) at++;
    return at;
  }
  if (char === "$") return at + 1;
  if (char === "/" || char === "\\") {
    const delimiter = char === "/" ? "/" : script[at + 1];
    if (delimiter === undefined || delimiter === "\n") throw new Unreadable("an address without a delimiter");
    at = readDelimited(script, at + (char === "/" ? 1 : 2), delimiter, true);
    while (/[IM]/.test(script[at] ?? "")) at++;
  }
  return at;
}
