// Reads a program's arguments the way its option parser does (GNU getopt_long and its neighbours), so an
// option of the table (./option-table.ts) is found however it is written: clustered (`-no FILE`), with an
// attached value (`-oFILE`, `--output=FILE`), abbreviated (`--out=FILE`: getopt_long takes any unambiguous
// prefix, so every prefix of a listed option counts as that option), after the operands (GNU permutes), or
// in tar's old style (`tar cf FILE`). What it cannot be sure of, it reads the way that finds more options.
import type { OptionRow } from "./option-table.ts";
import type { ShellWord } from "./shell-types.ts";

export interface OptionSyntax {
  /** Short options that take a value: attached (`-k2`) or the next word. */
  shortValues?: string;
  /** Short options whose value is attached only (`-i.bak`). */
  shortOptional?: string;
  /** Short options whose attached value is digits only (perl's `-l`, `-0`): `-le` is `-l -e`. */
  shortDigits?: string;
  /** Long options (or, with wholeWords, option words) that take a value. */
  longValues?: readonly string[];
  /** Options are whole words (find's `-name`, sqlite3's `-cmd`): no clusters, no abbreviations. */
  wholeWords?: boolean;
  /** Options end at the first operand (an interpreter's script and its arguments follow). */
  operandEnds?: boolean;
  /** The first word is a cluster of options even without a dash (`tar cf x`). */
  oldStyle?: boolean;
  /** After these options (and their value) the rest belongs to the program's script (`python -m mod …`). */
  ending?: readonly string[];
}

export interface OptionUse {
  /** As written, without an attached value: `-o`, `--out`, `-TT`, `+`. */
  written: string;
  /** The spelling it stands for: a row's (`--output` for `--out`) or the option itself. */
  option: string;
  value?: ShellWord;
  /** How the value was given: `=` (`--output=x`), `` (`-ox`) or ` ` (the next word). */
  joiner?: string;
  row?: OptionRow;
}

/** The option as written with its value: `--output=x`, `-ox`, `-o x`. */
export function writtenWithValue(use: OptionUse): string {
  return use.value ? `${use.written}${use.joiner ?? " "}${use.value.value ?? use.value.raw}` : use.written;
}

export interface ReadArguments {
  options: OptionUse[];
  operands: ShellWord[];
}

const shown = (word: ShellWord): string => word.value ?? word.raw;

/** A part of a word (an attached value): literal only when the word is. */
function part(word: ShellWord, text: string): ShellWord {
  return { ...(word.value !== undefined ? { value: text } : {}), raw: text, pattern: word.pattern };
}

/** What reading needs of a program's rows, built once per rows and syntax (every call reads them). */
interface Spellings {
  rowOf: Map<string, OptionRow>;
  spellings: string[];
  wordOptions: string[];
  longs: string[];
}

const spellingsCache = new WeakMap<readonly OptionRow[], WeakMap<OptionSyntax, Spellings>>();

function spellingsOf(rows: readonly OptionRow[], syntax: OptionSyntax): Spellings {
  let bySyntax = spellingsCache.get(rows);
  if (!bySyntax) spellingsCache.set(rows, (bySyntax = new WeakMap()));
  let found = bySyntax.get(syntax);
  if (found) return found;
  const optionRows = rows.filter((row) => (row.in ?? "option") === "option");
  const rowOf = new Map<string, OptionRow>();
  for (const row of optionRows)
    for (const option of row.options) if (!rowOf.has(option)) rowOf.set(option, row);
  const spellings = [...rowOf.keys()];
  found = {
    rowOf,
    spellings,
    wordOptions: spellings.filter((option) => /^-[^-].+/.test(option)),
    longs: [
      ...new Set([...spellings.filter((option) => option.startsWith("--")), ...(syntax.longValues ?? [])]),
    ],
  };
  bySyntax.set(syntax, found);
  return found;
}

export function readArguments(
  args: readonly ShellWord[],
  syntax: OptionSyntax,
  rows: readonly OptionRow[],
): ReadArguments {
  const known = spellingsOf(rows, syntax);
  const rowOf = (spelling: string) => known.rowOf.get(spelling);
  const { spellings, wordOptions, longs } = known;
  const takes = (option: string): OptionRow["value"] =>
    rowOf(option)?.value ??
    (option.startsWith("--") || syntax.wholeWords
      ? syntax.longValues?.includes(option)
        ? "required"
        : undefined
      : syntax.shortValues?.includes(option[1]!)
        ? "required"
        : syntax.shortOptional?.includes(option[1]!)
          ? "optional"
          : undefined);

  const options: OptionUse[] = [];
  const operands: ShellWord[] = [];
  let ended = false;
  let index = 0;
  const use = (written: string, option: string, value?: ShellWord, joiner?: string): void => {
    const row = rowOf(option);
    options.push({
      written,
      option,
      ...(value ? { value, joiner: joiner ?? " " } : {}),
      ...(row ? { row } : {}),
    });
    if (syntax.ending?.includes(option)) ended = true;
  };

  if (syntax.oldStyle && args[0]?.value !== undefined && /^[A-Za-z]+$/.test(args[0].value)) {
    // `tar cvfC ARCHIVE DIR`: each letter that takes a value takes the next word, in order.
    let next = 1;
    for (const letter of args[0].value) {
      const option = `-${letter}`;
      use(option, option, takes(option) === "required" ? args[next++] : undefined);
    }
    index = next;
  }

  for (; index < args.length; index++) {
    const word = args[index]!;
    const text = shown(word);
    if (ended) {
      operands.push(word);
      continue;
    }
    if (text === "--" && !syntax.wholeWords) {
      ended = true;
      continue;
    }
    if (text.startsWith("+") && rowOf("+")) {
      use("+", "+", part(word, text.slice(1)), "");
      continue;
    }
    if (text.startsWith("--") && text.length > 2 && !syntax.wholeWords) {
      const equals = text.indexOf("=");
      const name = equals < 0 ? text : text.slice(0, equals);
      const option = resolveLong(name, longs, spellings);
      const value =
        equals >= 0
          ? part(word, text.slice(equals + 1))
          : takes(option) === "required"
            ? args[++index]
            : undefined;
      use(name, option, value, equals >= 0 ? "=" : " ");
      continue;
    }
    if (text.startsWith("-") && text.length > 1) {
      const whole = wordOptions
        .filter((option) => text === option || (text.startsWith(option) && rowOf(option)?.value))
        .sort((a, b) => b.length - a.length)[0];
      if (whole !== undefined || syntax.wholeWords) {
        const option = whole ?? text;
        const attached = text.slice(option.length);
        const value = attached
          ? part(word, attached)
          : takes(option) === "required"
            ? args[++index]
            : undefined;
        use(option, option, value, attached ? "" : " ");
        continue;
      }
      index = readCluster(args, index, { takes, digits: syntax.shortDigits ?? "", wordOptions, use });
      continue;
    }
    operands.push(word);
    if (syntax.operandEnds) ended = true;
  }
  return { options, operands };
}

/** `-abc`: each letter an option until one takes a value (the rest of the word, or the next word). */
function readCluster(
  args: readonly ShellWord[],
  at: number,
  reader: {
    takes: (option: string) => OptionRow["value"];
    digits: string;
    wordOptions: readonly string[];
    use: (written: string, option: string, value?: ShellWord, joiner?: string) => void;
  },
): number {
  const word = args[at]!;
  const text = shown(word);
  let index = at;
  for (let position = 1; position < text.length; position++) {
    // A two-letter option inside a cluster (zip's `-qTT cmd`).
    const inner = reader.wordOptions.find((option) => text.startsWith(option.slice(1), position));
    if (inner !== undefined) {
      reader.use(inner, inner, args[++index]);
      return index;
    }
    const option = `-${text[position]}`;
    const takes = reader.takes(option);
    if (reader.digits.includes(text[position]!)) {
      const digits = /^(x[0-9a-fA-F]*|[0-9]*)/.exec(text.slice(position + 1))![0];
      reader.use(option, option, digits ? part(word, digits) : undefined, "");
      position += digits.length;
      continue;
    }
    if (takes) {
      const rest = text.slice(position + 1);
      reader.use(
        option,
        option,
        rest ? part(word, rest) : takes === "required" ? args[++index] : undefined,
        rest ? "" : " ",
      );
      return index;
    }
    reader.use(option, option);
  }
  return index;
}

/**
 * The long option a name stands for: itself when listed; else, as getopt_long reads an abbreviation, the
 * listed option it begins (a row's first, so an ambiguous prefix is read as the option that matters).
 */
function resolveLong(name: string, longs: readonly string[], spellings: readonly string[]): string {
  if (longs.includes(name)) return name;
  const candidates = longs.filter((option) => option.startsWith(name));
  return (
    candidates.find((option) => spellings.includes(option)) ??
    (candidates.length === 1 ? candidates[0]! : name)
  );
}

/** How each program of the table reads its arguments (options taking values, where options end). */
export const SYNTAX: Record<string, OptionSyntax> = {
  sed: { shortValues: "efl", shortOptional: "i", longValues: ["--expression", "--file", "--line-length"] },
  awk: {
    shortValues: "fvFWeEil",
    shortOptional: "opdDL",
    longValues: ["--file", "--assign", "--field-separator", "--source", "--exec", "--include", "--load"],
    operandEnds: true,
  },
  find: {
    wholeWords: true,
    longValues: [
      "-name",
      "-iname",
      "-path",
      "-ipath",
      "-wholename",
      "-iwholename",
      "-regex",
      "-iregex",
      "-lname",
      "-ilname",
      "-type",
      "-xtype",
      "-user",
      "-group",
      "-perm",
      "-size",
      "-newer",
      "-printf",
      "-maxdepth",
      "-mindepth",
      "-mtime",
      "-mmin",
      "-atime",
      "-amin",
      "-ctime",
      "-cmin",
      "-uid",
      "-gid",
      "-inum",
      "-links",
      "-samefile",
      "-fstype",
      "-context",
      "-used",
      "-files0-from",
    ],
  },
  sort: {
    shortValues: "kotST",
    longValues: [
      "--key",
      "--output",
      "--field-separator",
      "--buffer-size",
      "--temporary-directory",
      "--compress-program",
      "--files0-from",
      "--random-source",
      "--sort",
      "--parallel",
      "--batch-size",
    ],
  },
  tar: {
    shortValues: "bCfFgHIKLNTVX",
    longValues: [
      "--file",
      "--directory",
      "--exclude",
      "--files-from",
      "--exclude-from",
      "--use-compress-program",
      "--to-command",
      "--rsh-command",
      "--info-script",
      "--new-volume-script",
      "--index-file",
      "--checkpoint-action",
      "--transform",
      "--xform",
      "--owner",
      "--group",
      "--mode",
      "--mtime",
      "--format",
      "--label",
      "--blocking-factor",
      "--newer",
      "--after-date",
      "--listed-incremental",
      "--starting-file",
      "--tape-length",
      "--volno-file",
      "--strip-components",
    ],
    oldStyle: true,
  },
  env: { shortValues: "uCS", longValues: ["--unset", "--chdir", "--split-string"], operandEnds: true },
  time: { shortValues: "fo", longValues: ["--format", "--output"], operandEnds: true },
  sudo: { shortValues: "ugCDhprtUT", longValues: ["--user", "--group", "--chdir"], operandEnds: true },
  rsync: {
    shortValues: "eTBfM",
    longValues: ["--rsh", "--rsync-path", "--log-file", "--exclude", "--include", "--filter", "--files-from"],
  },
  zip: { shortValues: "bnstxiP", longValues: ["--temp-path", "--output-file", "--logfile-path"] },
  python: { shortValues: "cmWX", operandEnds: true, ending: ["-c", "-m"] },
  node: { shortValues: "eprC", operandEnds: true },
  perl: { shortValues: "eEMmIdx", shortOptional: "i", shortDigits: "l0C", operandEnds: true },
  ruby: { shortValues: "erICEF", shortOptional: "i", operandEnds: true },
  php: { shortValues: "rBREFdcfz", operandEnds: true },
  make: { shortValues: "CfEIjlWoe", longValues: ["--eval", "--file", "--directory", "--include-dir"] },
  npm: {},
  less: { shortValues: "bhjkoOpPtTxyz", longValues: ["--log-file", "--LOG-FILE", "--lesskey-file"] },
  man: { shortValues: "PHMSCEmLsr", longValues: ["--pager", "--html", "--manpath"] },
  script: { shortValues: "cEeIOBT", longValues: ["--command", "--log-out", "--log-in"] },
  su: { shortValues: "cgGsw", longValues: ["--command", "--group", "--shell"] },
  flock: { shortValues: "cwEs", longValues: ["--command", "--timeout"] },
  nc: { shortValues: "ecpswiIOqTxX", longValues: ["--exec", "--sh-exec", "--lua-exec"] },
  ssh: { shortValues: "bBcDeEFiIJlLmoOpPQRSwW", operandEnds: true },
  curl: {
    shortValues: "AbcCdDeEFHKmoPQrtTuUwxXyYz",
    longValues: ["--output", "--output-dir", "--config", "--header", "--data", "--user", "--url"],
  },
  wget: {
    shortValues: "oaeiOPBUTtwlAXIRDQ",
    longValues: ["--output-file", "--append-output", "--execute", "--output-document", "--directory-prefix"],
  },
  cp: { shortValues: "tS", longValues: ["--target-directory", "--suffix"] },
  sqlite3: {
    wholeWords: true,
    longValues: [
      "-cmd",
      "-init",
      "-separator",
      "-newline",
      "-nullvalue",
      "-mmap",
      "-vfs",
      "-heap",
      "-lookaside",
    ],
  },
  unzip: { shortValues: "dxP" },
};

const ALIASES: Record<string, string> = {
  gawk: "awk",
  mawk: "awk",
  nawk: "awk",
  "busybox-awk": "awk",
  python2: "python",
  python3: "python",
  pypy: "python",
  pypy3: "python",
  nodejs: "node",
  bun: "node",
  deno: "node",
  gmake: "make",
  npx: "npm",
  pnpm: "npm",
  yarn: "npm",
  more: "less",
  runuser: "su",
  ncat: "nc",
  netcat: "nc",
  scp: "ssh",
  sftp: "ssh",
  mv: "cp",
  install: "cp",
  ln: "cp",
};

export function syntaxOf(program: string): OptionSyntax {
  const name = program.replace(/[\d.]+$/, "") || program;
  return (
    SYNTAX[program] ?? SYNTAX[ALIASES[program] ?? ""] ?? SYNTAX[name] ?? SYNTAX[ALIASES[name] ?? ""] ?? {}
  );
}

/**
 * `target` as seen from the folder `folder` names (`git -C dir`, `env -C dir`): joined when both are
 * literal, as written when the target is absolute or in a home, unknown (non-literal) otherwise.
 */
export function inFolder(folder: ShellWord | undefined, target: ShellWord): ShellWord {
  if (!folder) return target;
  const text = target.value ?? target.raw;
  if (target.value !== undefined && (text.startsWith("/") || text.startsWith("~"))) return target;
  const raw = `${folder.raw}/${target.raw}`;
  if (folder.value === undefined || target.value === undefined) return { raw, pattern: false };
  const joined = folder.value.endsWith("/") ? `${folder.value}${text}` : `${folder.value}/${text}`;
  return { value: joined, raw, pattern: folder.pattern || target.pattern };
}
