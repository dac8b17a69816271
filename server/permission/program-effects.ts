// What a simple command does beyond what its program is named for, read against the option table
// (./option-table.ts): the rows it uses (options, script constructs, operands, arguments from stdin) and
// the files they write. The wrappers before the program are read too (`env -S`, `time -o FILE`), and a
// wrapper that changes the folder (`env -C DIR`, `sudo -D DIR`) moves the command's relative targets.
import { readAwkProgram } from "./awk-program.ts";
import { gitEffects } from "./git-options.ts";
import {
  inFolder,
  readArguments,
  writtenWithValue,
  syntaxOf,
  type OptionUse,
  type ReadArguments,
} from "./option-reader.ts";
import { inTable, rowsOf, type OptionRow, type ProgramEffect } from "./option-table.ts";
import { readSedScript } from "./sed-script.ts";
import type { ShellWord, SimpleCommand } from "./shell-types.ts";

export type { ProgramEffect } from "./option-table.ts";

const shown = (word: ShellWord): string => word.value ?? word.raw;
const literal = (value: string): ShellWord => ({ value, raw: value, pattern: false });

/** Effects by command: one evaluation reads a command for its writes and for its options. */
const read = new WeakMap<SimpleCommand, ProgramEffect[]>();

/** Every row the command uses, with what each writes (relative targets as seen from the line's folder). */
export function programEffects(command: SimpleCommand): ProgramEffect[] {
  let effects = read.get(command);
  if (!effects) {
    effects = readEffects(command);
    read.set(command, effects);
  }
  return effects;
}

function readEffects(command: SimpleCommand): ProgramEffect[] {
  const effects: ProgramEffect[] = [];
  for (const wrapper of command.wrappers) {
    const words = command.words.slice(wrapper.index + 1, wrapper.end);
    const rows = rowsOf(wrapper.name);
    effects.push(...optionEffects(wrapper.name, readArguments(words, syntaxOf(wrapper.name), rows), rows));
  }
  const program = command.program;
  if (program !== undefined && inTable(program)) {
    if (command.argsFromInput) {
      const xargs = rowsOf("xargs").find((row) => row.in === "input")!;
      effects.push({ row: xargs, use: `xargs ${program}` });
    }
    effects.push(...(program === "git" ? gitEffects(command.args) : ownEffects(program, command.args)));
  }
  const folder = folderOf(command);
  return folder ? effects.map((effect) => moved(effect, folder)) : effects;
}

/** The folder a wrapper runs the command in (`env -C DIR`, `sudo -D DIR`), if any. */
export function folderOf(command: SimpleCommand): ShellWord | undefined {
  let folder: ShellWord | undefined;
  for (const wrapper of command.wrappers) {
    if (wrapper.name !== "env" && wrapper.name !== "sudo") continue;
    const words = command.words.slice(wrapper.index + 1, wrapper.end);
    for (const option of readArguments(words, syntaxOf(wrapper.name), []).options) {
      const moves =
        ["-C", "--chdir"].includes(option.option) || (wrapper.name === "sudo" && option.option === "-D");
      if (moves && option.value && !(wrapper.name === "sudo" && option.option === "-C"))
        folder = inFolder(folder, option.value);
    }
  }
  return folder;
}

function moved(effect: ProgramEffect, folder: ShellWord): ProgramEffect {
  return {
    ...effect,
    ...(effect.target ? { target: inFolder(folder, effect.target) } : {}),
    ...(effect.onlyOutside ? { onlyOutside: inFolder(folder, effect.onlyOutside) } : {}),
  };
}

function ownEffects(program: string, args: readonly ShellWord[]): ProgramEffect[] {
  const rows = rowsOf(program);
  const read = readArguments(args, syntaxOf(program), rows);
  const effects = optionEffects(program, read, rows);
  for (const row of rows) {
    if (row.in === "always") effects.push({ row, use: program });
    if (row.in === "operand") {
      const operand = read.operands.find((word) => row.operandMatches?.test(shown(word)));
      if (operand) effects.push({ row, use: `${program} ${shown(operand)}` });
    }
  }
  if (rows.some((row) => row.in === "script")) effects.push(...scriptEffects(program, read, rows));
  return effects;
}

function optionEffects(program: string, read: ReadArguments, rows: readonly OptionRow[]): ProgramEffect[] {
  const given = new Set(read.options.map((option) => option.option));
  const effects: ProgramEffect[] = [];
  for (const option of read.options) {
    if (!option.row) continue;
    // A spelling may have several rows (tar -f: a remote archive, or the archive it creates).
    for (const row of rows.filter(
      (candidate) => (candidate.in ?? "option") === "option" && candidate.options.includes(option.option),
    )) {
      if (!applies(row, option, given)) continue;
      effects.push({
        row,
        use: `${program} ${writtenWithValue(option)}`,
        ...(row.target && option.value ? { target: option.value } : {}),
      });
    }
  }
  return effects;
}

function applies(row: OptionRow, option: OptionUse, given: ReadonlySet<string>): boolean {
  if (row.modes && !row.modes.some((mode) => given.has(mode))) return false;
  if (row.valueMatches) {
    // A value the line only knows when it runs may be anything: the row applies.
    if (!option.value) return row.value !== "optional" && row.value !== "required";
    if (option.value.value !== undefined && !row.valueMatches.test(option.value.value)) return false;
  }
  return true;
}

/** sed, awk and sqlite3: the script given on the command line, read for what it runs and writes. */
function scriptEffects(program: string, read: ReadArguments, rows: readonly OptionRow[]): ProgramEffect[] {
  const names = new Set(read.options.map((option) => option.option));
  const rowFor = (construct: string) =>
    rows.find((row) => row.in === "script" && (row.options.includes(construct) || row.key === construct));
  const effects: ProgramEffect[] = [];
  const add = (construct: string, detail: string, argument?: string) => {
    const row = rowFor(construct);
    if (!row) return;
    effects.push({
      row,
      use: `${program} ${detail}`,
      ...(row.target && argument !== undefined ? { target: targetWord(argument) } : {}),
    });
  };
  const values = (...options: string[]) =>
    read.options.filter((option) => options.includes(option.option)).map((option) => option.value);
  if (program === "sed") {
    if (names.has("--sandbox")) return effects;
    const given = values("-e", "--expression");
    const scripts = given.length > 0 || names.has("-f") || names.has("--file") ? given : [read.operands[0]];
    for (const script of scripts) {
      if (!script) continue;
      if (script.value === undefined) add("unreadable", `script ${script.raw}`);
      else
        for (const found of readSedScript(script.value)) add(found.construct, found.detail, found.argument);
    }
  } else if (program === "sqlite3") {
    for (const found of readSqlite(read)) add(found.construct, found.detail, found.argument);
  } else {
    if (names.has("-S") || names.has("--sandbox")) return effects;
    const given = values("-e", "--source");
    const fromFile = ["-f", "--file", "-E", "--exec"].some((option) => names.has(option));
    const programs = given.length > 0 || fromFile ? given : [read.operands[0]];
    for (const text of programs) {
      if (!text) continue;
      if (text.value === undefined) add("unreadable", `program ${text.raw}`);
      else for (const found of readAwkProgram(text.value)) add(found.construct, found.detail, found.argument);
    }
  }
  return effects;
}

/** A file a script names: `/dev/stdout` and friends are no files. */
function targetWord(argument: string): ShellWord {
  const text = argument.trim();
  return text === "" ? { raw: "(a file named by the program)", pattern: false } : literal(text);
}

const SAFE_DOT_COMMANDS = new Set(
  "headers mode schema tables indexes indices dump databases help show width separator nullvalue print timer echo bail changes stats eqp explain fullschema dbinfo limit quit exit version".split(
    " ",
  ),
);
const SQL_WRITES = /\b(attach\b|vacuum\s+into\b|writefile\s*\()/i;
const SQL_RUNS = /\b(load_extension|edit)\s*\(/i;

/** sqlite3's SQL and dot commands (the operands after the database, `-cmd`), `-init` and stdin. */
function readSqlite(read: ReadArguments): { construct: string; detail: string; argument?: string }[] {
  const found: { construct: string; detail: string; argument?: string }[] = [];
  const option = (name: string) =>
    read.options.filter((use) => use.option === name || use.option === `-${name}`);
  if (option("-init").length > 0) found.push({ construct: "(stdin, -init)", detail: "-init FILE" });
  if (read.options.some((use) => /^-A/.test(use.option)))
    found.push({ construct: ".backup", detail: "-A (archive)" });
  const texts = [...option("-cmd").map((use) => use.value), ...read.operands.slice(1)];
  if (read.operands.length < 2)
    found.push({ construct: "(stdin, -init)", detail: "reads its script from stdin" });
  for (const text of texts) {
    if (!text) continue;
    if (text.value === undefined) {
      found.push({ construct: "(stdin, -init)", detail: `script ${text.raw}` });
      continue;
    }
    for (const line of text.value.split(/\n|;(?=\s*\.)/)) {
      const dot = /^\s*\.(\w+)\s*(.*)$/.exec(line);
      if (dot && !SAFE_DOT_COMMANDS.has(dot[1]!.toLowerCase())) {
        const name = `.${dot[1]!.toLowerCase()}`;
        const writes = [".output", ".once", ".save", ".backup"].includes(name);
        found.push({
          construct: writes ? name : ".shell",
          detail: line.trim(),
          ...(writes ? { argument: dot[2]! } : {}),
        });
      }
    }
    if (SQL_WRITES.test(text.value))
      found.push({ construct: "ATTACH", detail: SQL_WRITES.exec(text.value)![0] });
    if (SQL_RUNS.test(text.value))
      found.push({ construct: "load_extension()", detail: SQL_RUNS.exec(text.value)![0] });
  }
  return found;
}
