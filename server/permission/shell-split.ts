/**
 * Splits a shell command line into the simple commands it runs and the files it redirects to, so a rule
 * like `allow run_command(git status*)` cannot be stretched to `git status && curl x | sh`. This is a
 * conservative reading of POSIX sh, not a full parser: anything it does not understand becomes a part of
 * its own, which no narrow allow rule matches, so the call asks.
 */

export interface SimpleCommand {
  /** Words as written (quotes kept), joined by one space, without redirections. Rules match this. */
  text: string;
  /** Words with quotes removed (for the dangerous-command checks). */
  words: string[];
  /** True when this command reads the previous command's output through `|`. */
  pipedFromPrevious: boolean;
}

export interface Redirect {
  operator: string;
  /** Target as written, quotes removed. */
  target: string;
  /** `2>&1`, `>&2`: a file descriptor, not a file. */
  isDescriptor: boolean;
  /** Writes (`>`, `>>`, `&>`, `>|`) as opposed to reads (`<`). */
  isOutput: boolean;
}

export interface ShellAnalysis {
  commands: SimpleCommand[];
  redirects: Redirect[];
  /** `$(…)`, backticks, `<(…)` or `>(…)` were present; their insides are listed in `commands` too. */
  hasSubstitution: boolean;
  /** Unclosed quote or substitution: the text cannot be split reliably. */
  problem?: string;
}

interface Word {
  raw: string;
  plain: string;
}

/** `$( $( $( … ) ) )` deeper than this is not split further (it would overflow the stack); it asks. */
const MAX_SUBSTITUTION_DEPTH = 32;

export function splitShellCommand(command: string, depth = 0): ShellAnalysis {
  const analysis: ShellAnalysis = { commands: [], redirects: [], hasSubstitution: false };
  if (depth > MAX_SUBSTITUTION_DEPTH) {
    analysis.problem = `substitutions nested deeper than ${MAX_SUBSTITUTION_DEPTH} levels`;
    analysis.commands.push({ text: command, words: [command], pipedFromPrevious: false });
    return analysis;
  }
  new Splitter(command, analysis, depth).run();
  return analysis;
}

class Splitter {
  private index = 0;
  private words: Word[] = [];
  private raw = "";
  private plain = "";
  private inWord = false;
  private pipedFromPrevious = false;
  private pendingRedirect: { operator: string } | undefined;
  /** Here-documents opened on the current line; their bodies start after its newline. */
  private pendingHeredocs: { delimiter: string; stripTabs: boolean }[] = [];

  constructor(
    private readonly text: string,
    private readonly analysis: ShellAnalysis,
    private readonly depth: number,
  ) {}

  run(): void {
    const text = this.text;
    while (this.index < text.length) {
      const char = text[this.index]!;
      const next = text[this.index + 1];
      if (char === " " || char === "\t") {
        this.endWord();
        this.index++;
      } else if (char === "#" && !this.inWord) {
        // A comment runs to the end of the line; quotes inside it open nothing (`echo hi #'` + newline +
        // `rm x` + `'` runs rm). The newline itself still ends the command.
        const newline = text.indexOf("\n", this.index);
        this.index = newline < 0 ? text.length : newline;
      } else if (char === "\n") {
        // Ending the command ends the delimiter word too, so the bodies are known before they start.
        this.endCommand(false);
        this.index++;
        this.heredocBodies();
      } else if (char === ";") {
        this.endCommand(false);
        this.index++;
      } else if (char === "|") {
        const isOr = next === "|";
        this.endCommand(!isOr);
        this.index += isOr || next === "&" ? 2 : 1;
      } else if (char === "&" && next === ">") {
        this.startRedirect(text[this.index + 2] === ">" ? "&>>" : "&>");
      } else if (char === "&") {
        this.endCommand(false);
        this.index += next === "&" ? 2 : 1;
      } else if ((char === "<" || char === ">") && next === "(") {
        this.substitution(this.index + 2, ")");
      } else if (char === ">" || char === "<") {
        this.redirectOperator(char, next);
      } else if (char === "(" && !this.inWord) {
        // A subshell `( … )` is a group of commands; its parts are checked one by one like the rest.
        this.endCommand(false);
        this.index++;
      } else if (char === ")") {
        this.endCommand(false);
        this.index++;
      } else if (char === "'") {
        this.singleQuoted();
      } else if (char === '"') {
        this.doubleQuoted();
      } else if (char === "\\") {
        this.append(text.slice(this.index, this.index + 2), next ?? "");
        this.index += 2;
      } else if (char === "$" && next === "(") {
        this.substitution(this.index + 2, ")");
      } else if (char === "`") {
        this.substitution(this.index + 1, "`");
      } else {
        this.append(char, char);
        this.index++;
      }
    }
    this.endCommand(false);
    if (this.pendingRedirect) this.problem(`redirection ${this.pendingRedirect.operator} has no target`);
  }

  /**
   * Consumes the bodies of the here-documents opened on the line just ended, each up to its delimiter
   * line, so a quote inside a body cannot swallow the commands after it. A body is analysed as a script
   * of its own (it is one when it feeds a shell), which may only make the call ask, never allow more.
   */
  private heredocBodies(): void {
    for (const { delimiter, stripTabs } of this.pendingHeredocs.splice(0)) {
      const lines: string[] = [];
      let closed = false;
      while (this.index < this.text.length) {
        const newline = this.text.indexOf("\n", this.index);
        const end = newline < 0 ? this.text.length : newline;
        const line = this.text.slice(this.index, end);
        this.index = newline < 0 ? this.text.length : newline + 1;
        if ((stripTabs ? line.replace(/^\t+/, "") : line) === delimiter) {
          closed = true;
          break;
        }
        lines.push(line);
      }
      if (!closed) this.problem(`here-document ${delimiter} has no end line`);
      if (lines.length > 0) this.addInner(lines.join("\n"));
    }
  }

  private redirectOperator(char: string, next: string | undefined): void {
    // A word made only of digits right before the operator is a file descriptor number (`2>`).
    if (this.inWord && /^\d+$/.test(this.raw)) this.resetWord();
    else this.endWord();
    let operator = char;
    if (char === ">" && (next === ">" || next === "|" || next === "&")) operator += next;
    if (char === "<" && (next === "<" || next === "&")) {
      operator += next;
      if (next === "<" && this.text[this.index + 2] === "<") operator += "<";
    }
    this.startRedirect(operator);
  }

  private startRedirect(operator: string): void {
    this.endWord();
    this.index += operator.length;
    this.pendingRedirect = { operator };
  }

  private singleQuoted(): void {
    const close = this.text.indexOf("'", this.index + 1);
    if (close < 0) {
      this.problem("unclosed single quote");
      this.append(this.text.slice(this.index), this.text.slice(this.index + 1));
      this.index = this.text.length;
      return;
    }
    this.append(this.text.slice(this.index, close + 1), this.text.slice(this.index + 1, close));
    this.index = close + 1;
  }

  private doubleQuoted(): void {
    let cursor = this.index + 1;
    let plain = "";
    while (cursor < this.text.length && this.text[cursor] !== '"') {
      const char = this.text[cursor]!;
      if (char === "\\" && cursor + 1 < this.text.length) {
        plain += this.text[cursor + 1];
        cursor += 2;
      } else if (char === "$" && this.text[cursor + 1] === "(") {
        cursor = this.extractSubstitution(cursor + 2, ")");
        plain += "$(…)";
      } else if (char === "`") {
        cursor = this.extractSubstitution(cursor + 1, "`");
        plain += "`…`";
      } else {
        plain += char;
        cursor++;
      }
    }
    if (cursor >= this.text.length) this.problem("unclosed double quote");
    const end = Math.min(cursor + 1, this.text.length);
    this.append(this.text.slice(this.index, end), plain);
    this.index = end;
  }

  private substitution(innerStart: number, closer: string): void {
    const end = this.extractSubstitution(innerStart, closer);
    const rawText = this.text.slice(this.index, end);
    this.append(rawText, rawText);
    this.index = end;
  }

  /** Analyses the inside of `$(…)` / backticks as commands of their own; returns the index after the closer. */
  private extractSubstitution(innerStart: number, closer: string): number {
    this.analysis.hasSubstitution = true;
    const close = closer === "`" ? this.text.indexOf("`", innerStart) : matchingParen(this.text, innerStart);
    if (close < 0) {
      this.problem("unclosed command substitution");
      this.addInner(this.text.slice(innerStart));
      return this.text.length;
    }
    this.addInner(this.text.slice(innerStart, close));
    return close + 1;
  }

  private addInner(inner: string): void {
    const nested = splitShellCommand(inner, this.depth + 1);
    this.analysis.commands.push(...nested.commands);
    this.analysis.redirects.push(...nested.redirects);
    if (nested.problem) this.problem(nested.problem);
  }

  private append(raw: string, plain: string): void {
    this.raw += raw;
    this.plain += plain;
    this.inWord = true;
  }

  private resetWord(): void {
    this.raw = "";
    this.plain = "";
    this.inWord = false;
  }

  private endWord(): void {
    if (!this.inWord) return;
    const word = { raw: this.raw, plain: this.plain };
    this.resetWord();
    if (this.pendingRedirect) {
      const { operator } = this.pendingRedirect;
      this.pendingRedirect = undefined;
      const isDescriptor =
        (operator.endsWith("&") && /^(\d+|-)$/.test(word.plain)) || operator === "<<" || operator === "<<<";
      const isOutput = operator.includes(">");
      this.analysis.redirects.push({ operator, target: word.plain, isDescriptor, isOutput });
      if (operator === "<<") {
        const stripTabs = word.plain.startsWith("-");
        this.pendingHeredocs.push({ delimiter: stripTabs ? word.plain.slice(1) : word.plain, stripTabs });
      }
      return;
    }
    // `{ a; b; }` grouping braces carry no command of their own.
    if (word.raw === "{" || word.raw === "}") return;
    this.words.push(word);
  }

  private endCommand(pipeToNext: boolean): void {
    this.endWord();
    if (this.words.length > 0) {
      this.analysis.commands.push({
        text: this.words.map((word) => word.raw).join(" "),
        words: this.words.map((word) => word.plain),
        pipedFromPrevious: this.pipedFromPrevious,
      });
    }
    this.words = [];
    this.pipedFromPrevious = pipeToNext;
  }

  private problem(description: string): void {
    this.analysis.problem ??= description;
  }
}

/** Index of the `)` closing a `$(` whose inside starts at `start`, honouring nesting and quotes; -1 if none. */
function matchingParen(text: string, start: number): number {
  let depth = 1;
  for (let cursor = start; cursor < text.length; cursor++) {
    const char = text[cursor];
    if (char === "\\") cursor++;
    else if (char === "'") {
      const close = text.indexOf("'", cursor + 1);
      if (close < 0) return -1;
      cursor = close;
    } else if (char === "(") depth++;
    else if (char === ")" && --depth === 0) return cursor;
  }
  return -1;
}
