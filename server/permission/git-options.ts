// Reads a git command line against git's rows of the option table (./git-option-table.ts): the options
// before the subcommand (`-c`, `--git-dir`, …; one the table does not list asks), the folder git finds its
// repository in (`-C`, or the folder the line is in: outside the working directory, its settings are the
// agent's), the subcommand's options that run programs or write files, and `git config` setting a value.
import { GIT_GLOBAL, GIT_ROWS } from "./git-option-table.ts";
import { inFolder, readArguments, writtenWithValue, type OptionSyntax } from "./option-reader.ts";
import type { OptionRow, ProgramEffect } from "./option-table.ts";
import type { ShellWord } from "./shell-types.ts";

const GLOBAL_VALUES = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--super-prefix",
  "--config-env",
  "--attr-source",
]);
const GLOBAL_FLAGS = new Set([
  "-p",
  "--paginate",
  "-P",
  "--no-pager",
  "--bare",
  "--no-replace-objects",
  "--no-lazy-fetch",
  "--no-optional-locks",
  "--no-advice",
  "--literal-pathspecs",
  "--glob-pathspecs",
  "--noglob-pathspecs",
  "--icase-pathspecs",
  "-v",
  "--version",
  "-h",
  "--help",
  "--html-path",
  "--man-path",
  "--info-path",
  "--exec-path",
  "--list-cmds",
]);

/** Options of subcommands whose operands matter (where a new repository, work tree or bundle goes). */
const SUBCOMMAND_SYNTAX: Record<string, OptionSyntax> = {
  clone: {
    shortValues: "bojuc",
    longValues: [
      "--branch",
      "--origin",
      "--depth",
      "--reference",
      "--reference-if-able",
      "--shallow-since",
      "--shallow-exclude",
      "--filter",
      "--jobs",
      "--server-option",
      "--bundle-uri",
      "--template",
      "--separate-git-dir",
      "--config",
      "--upload-pack",
    ],
  },
  init: {
    shortValues: "b",
    longValues: ["--initial-branch", "--object-format", "--ref-format", "--template", "--separate-git-dir"],
  },
  "init-db": {
    shortValues: "b",
    longValues: ["--initial-branch", "--object-format", "--ref-format", "--template", "--separate-git-dir"],
  },
  worktree: { shortValues: "bB", longValues: ["--reason"] },
  "merge-file": { shortValues: "L", longValues: ["--marker-size", "--diff-algorithm"] },
  config: {
    shortValues: "f",
    longValues: ["--file", "--blob", "--type", "--default", "--comment", "--value"],
  },
};

const CONFIG_WRITES = /^--(add|unset|unset-all|replace-all|rename-section|remove-section|edit)$|^-e$/;
const CONFIG_READS =
  /^--(get|get-all|get-regexp|get-urlmatch|get-color|get-colorbool|list|show-origin|show-scope|null|name-only)$|^-l$/;
const CONFIG_ACTIONS = {
  writes: new Set(["set", "unset", "rename-section", "remove-section", "edit"]),
  reads: new Set(["get", "list"]),
};

const row = (key: string): OptionRow => GIT_ROWS.find((candidate) => candidate.key === key)!;
const globalRow = (option: string): OptionRow =>
  GIT_ROWS.find(
    (candidate) => candidate.subcommands?.includes(GIT_GLOBAL) && candidate.options.includes(option),
  )!;
const shown = (word: ShellWord): string => word.value ?? word.raw;
const literal = (value: string): ShellWord => ({ value, raw: value, pattern: false });

export function gitEffects(args: readonly ShellWord[]): ProgramEffect[] {
  const effects: ProgramEffect[] = [];
  let folder: ShellWord | undefined;
  let index = 0;
  for (; index < args.length; index++) {
    const text = shown(args[index]!);
    if (!text.startsWith("-")) break;
    const equals = text.startsWith("--") ? text.indexOf("=") : -1;
    const name = equals < 0 ? text : text.slice(0, equals);
    if (GLOBAL_FLAGS.has(name)) {
      if (name === "--exec-path" && equals >= 0)
        effects.push({ row: globalRow("--exec-path"), use: `git ${text}` });
      continue;
    }
    if (!GLOBAL_VALUES.has(name)) {
      effects.push({ row: row("unknown global"), use: `git ${text}` });
      continue;
    }
    const value =
      equals >= 0
        ? { ...args[index]!, value: text.slice(equals + 1), raw: text.slice(equals + 1) }
        : args[++index];
    if (!value) break;
    if (name === "-C") folder = inFolder(folder, value);
    else if (name === "-c" || name === "--config-env" || name === "--git-dir")
      effects.push({ row: globalRow(name), use: `git ${name} ${shown(value)}` });
    else if (name === "--work-tree")
      effects.push({
        row: globalRow(name),
        use: `git ${name} ${shown(value)}`,
        target: inFolder(folder, value),
      });
  }
  effects.push({
    row: row("repository"),
    use: folder ? `git -C ${shown(folder)}` : "git",
    onlyOutside: folder ?? literal("."),
  });
  const subcommand = args[index]?.value;
  if (subcommand === undefined) return effects;
  const rest = args.slice(index + 1);
  const rows = subcommandRows(subcommand);
  const read = readArguments(rest, SUBCOMMAND_SYNTAX[subcommand] ?? {}, rows);
  for (const option of read.options) {
    if (!option.row) continue;
    if (option.row.value === "optional" && option.row.valueMatches && !option.value) continue;
    effects.push({
      row: option.row,
      use: `git ${subcommand} ${writtenWithValue(option)}`,
      ...(option.row.target && option.value ? { target: inFolder(folder, option.value) } : {}),
    });
  }
  for (const candidate of rows.filter((entry) => entry.in === "operand")) {
    const operand = read.operands.find((word) => candidate.operandMatches?.test(shown(word)));
    if (operand) effects.push({ row: candidate, use: `git ${subcommand} ${shown(operand)}` });
  }
  const written = writtenOperands(subcommand, read);
  for (const operand of written)
    effects.push({
      row: row("written operand"),
      use: `git ${subcommand} ${shown(operand)}`,
      target: inFolder(folder, operand),
    });
  const created = newFolder(subcommand, read.operands);
  if (created)
    effects.push({
      row: row("new folder"),
      use: `git ${subcommand} ${shown(created)}`,
      target: inFolder(folder, created),
    });
  if (subcommand === "config") {
    const target = configTarget(read);
    if (target)
      effects.push({
        row: row("config"),
        use: `git config ${rest.map(shown).join(" ")}`,
        target: inFolder(folder, target),
      });
  }
  return effects;
}

const rowsBySubcommand = new Map<string, OptionRow[]>();

/** The rows of a subcommand (and those of every subcommand), one array per subcommand. */
function subcommandRows(subcommand: string): OptionRow[] {
  let rows = rowsBySubcommand.get(subcommand);
  if (!rows) {
    rows = GIT_ROWS.filter(
      (candidate) =>
        !candidate.subcommands?.includes(GIT_GLOBAL) &&
        (candidate.subcommands === undefined || candidate.subcommands.includes(subcommand)),
    );
    // Bounded: a subcommand is a word of the command line, which the model chooses.
    if (rowsBySubcommand.size < 256) rowsBySubcommand.set(subcommand, rows);
  }
  return rows;
}

/** The files `git merge-file CURRENT …`, `git mailinfo MSG PATCH` and `git pack-objects BASE` write. */
function writtenOperands(subcommand: string, read: ReturnType<typeof readArguments>): ShellWord[] {
  const toStdout = read.options.some((option) => option.option === "--stdout" || option.option === "-p");
  if (subcommand === "merge-file") return toStdout ? [] : read.operands.slice(0, 1);
  if (subcommand === "mailinfo") return read.operands.slice(0, 2);
  if (subcommand === "pack-objects") return toStdout ? [] : read.operands.slice(0, 1);
  return [];
}

/** Where `git init DIR`, `git clone URL DIR`, `git worktree add PATH`, `git bundle create FILE` write. */
function newFolder(subcommand: string, operands: readonly ShellWord[]): ShellWord | undefined {
  if (subcommand === "init" || subcommand === "init-db") return operands[0];
  if (subcommand === "clone") return operands[1];
  if (
    (subcommand === "worktree" && operands[0]?.value === "add") ||
    (subcommand === "bundle" && operands[0]?.value === "create")
  )
    return operands[1];
  return undefined;
}

/** The settings file `git config …` writes, or undefined when it only reads. */
function configTarget(read: ReturnType<typeof readArguments>): ShellWord | undefined {
  const names = read.options.map((option) => option.option);
  const action = read.operands[0]?.value;
  const newStyle =
    action !== undefined && (CONFIG_ACTIONS.writes.has(action) || CONFIG_ACTIONS.reads.has(action));
  const writes = newStyle
    ? CONFIG_ACTIONS.writes.has(action)
    : names.some((name) => CONFIG_WRITES.test(name)) ||
      (!names.some((name) => CONFIG_READS.test(name)) && read.operands.length >= 2);
  if (!writes) return undefined;
  const file = read.options.find((option) => option.option === "--file" || option.option === "-f")?.value;
  if (file) return file;
  if (names.includes("--global")) return literal("~/.gitconfig");
  if (names.includes("--system")) return literal("/etc/gitconfig");
  return literal(names.includes("--worktree") ? ".git/config.worktree" : ".git/config");
}
