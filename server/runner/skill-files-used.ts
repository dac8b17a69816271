// Which files of a loaded skill a command used (level 3 of disclosure, issue 22 item 5). read_file reports
// its own reads (the `skill_resource_read` effect); a script the run executes never passes through
// read_file, so without this the lane called it "never read" and the catalog hinted that the SOP should
// say when to read it. The command line is read with the permission engine's shell parser (never by
// searching the text), each literal word is resolved against the directory the command runs in, and a
// word inside a loaded skill's folder is a use of that file:
// - "ran": it is the program (`<base>/scripts/x.sh`), or the script an interpreter runs (`node <base>/x.mjs`,
//   the interpreter's first argument that is not an option);
// - "named": any other argument (`cat <base>/reference.md`, a data file handed to a script).
// Words the shell would expand (`$DIR/x`, globs) cannot be resolved here and are not counted.
import path from "node:path";
import { analyzeShell, type SimpleCommand } from "../permission/shell-parse.ts";
import { isInside } from "../tools/confine.ts";
import type { SkillRoot } from "../tools/skill-roots.ts";

export interface SkillFileUse {
  skill: string;
  /** Relative to the skill's base directory, `/` separators. */
  path: string;
  how: "ran" | "named";
}

/** Programs whose first non-option argument is the script they run. */
const INTERPRETERS = new Set([
  "node",
  "nodejs",
  "bun",
  "deno",
  "tsx",
  "ts-node",
  "python",
  "python2",
  "python3",
  "pypy",
  "pypy3",
  "perl",
  "ruby",
  "php",
  "sh",
  "bash",
  "dash",
  "zsh",
  "ksh",
  "Rscript",
  "lua",
]);

function fileOf(absolute: string, roots: readonly SkillRoot[]): { skill: string; path: string } | undefined {
  for (const root of roots) {
    const base = isInside(root.root, absolute) ? root.root : isInside(root.given, absolute) ? root.given : "";
    if (!base) continue;
    const relative = path.relative(base, absolute).split(path.sep).join("/");
    return relative === "" ? undefined : { skill: root.skill, path: relative };
  }
  return undefined;
}

/** The skill files one simple command uses, its words resolved against `cwd`. */
function usesOf(command: SimpleCommand, cwd: string, roots: readonly SkillRoot[]): SkillFileUse[] {
  const uses: SkillFileUse[] = [];
  const resolve = (value: string | undefined) =>
    value === undefined || value === "" ? undefined : fileOf(path.resolve(cwd, value), roots);
  const program = command.words[command.programIndex];
  // A program without a `/` is looked up in PATH, not in the directory.
  const programFile =
    program && !program.pattern && program.value?.includes("/") ? resolve(program.value) : undefined;
  if (programFile) uses.push({ ...programFile, how: "ran" });
  let scriptSeen = !INTERPRETERS.has(command.program ?? "");
  for (const word of command.args) {
    if (word.pattern || word.value === undefined) {
      if (!scriptSeen && !word.raw.startsWith("-")) scriptSeen = true;
      continue;
    }
    const isOption = word.value.startsWith("-");
    const file = resolve(word.value);
    if (!scriptSeen && !isOption) {
      scriptSeen = true;
      if (file) uses.push({ ...file, how: "ran" });
      continue;
    }
    if (file) uses.push({ ...file, how: "named" });
  }
  return uses;
}

/**
 * The loaded skills' files a command line used, each once ("ran" wins over "named"). `cwd` is where the
 * line runs; a literal `cd DIR` in it moves the commands after it.
 */
export function skillFilesUsed(
  commandLine: string,
  cwd: string,
  roots: readonly SkillRoot[],
): SkillFileUse[] {
  if (roots.length === 0) return [];
  const uses = new Map<string, SkillFileUse>();
  let directory = cwd;
  for (const command of analyzeShell(commandLine).commands) {
    if (command.program === "cd") {
      const target = command.args[0];
      if (target?.value !== undefined && !target.pattern) directory = path.resolve(directory, target.value);
      continue;
    }
    for (const use of usesOf(command, directory, roots)) {
      const key = `${use.skill}\0${use.path}`;
      const known = uses.get(key);
      if (!known || (known.how === "named" && use.how === "ran")) uses.set(key, use);
    }
  }
  return [...uses.values()];
}
