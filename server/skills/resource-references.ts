// What a skill body says about its own folder: the file names it mentions and the `${…}` variables it
// uses. Pure text functions, shared by the manifest (which files the SOP points to) and the lint.

/** Variables replaced with the skill's base directory (Claude Code's name kept so its skills work). */
export const SKILL_DIR_VARIABLES: readonly string[] = ["SKILL_DIR", "CLAUDE_SKILL_DIR"];

/** Extensions of files a body plausibly points to; a bare `e.g.` or `v1.2` is not a file name. */
const FILE_EXTENSIONS =
  "md|markdown|txt|py|sh|bash|js|mjs|cjs|ts|json|ya?ml|toml|ini|cfg|csv|tsv|html?|xml|xsd|pdf|sql|rb|pl|ps1|j2|tmpl|tpl|docx|xlsx|pptx";

/**
 * A file name or relative path, optionally after `${SKILL_DIR}/` or `./`, not part of a URL or a longer
 * path (no `/`, `.`, `:` or word character right before it).
 */
const FILE_REFERENCE = new RegExp(
  String.raw`(?<![\w/.:$\\-])((?:\$\{(?:SKILL_DIR|CLAUDE_SKILL_DIR)\}/)?(?:\./)?(?:[\w-][\w.-]*/)*[\w-][\w.-]*\.(?:${FILE_EXTENSIONS}))(?![\w/-])`,
  "gi",
);
/** A cheap first look: most bodies name no file at all, and then the full pattern never runs. */
const ANY_EXTENSION = new RegExp(String.raw`\.(?:${FILE_EXTENSIONS})(?![\w-])`, "i");
const DIR_PREFIX = /^\$\{(?:SKILL_DIR|CLAUDE_SKILL_DIR)\}\//;
const MARKDOWN_LINK_TARGET = /\]\(\s*<?([^)\s>]+)>?\s*\)/g;
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export interface FileReference {
  /** Relative to the skill folder, without `${SKILL_DIR}/` or `./`. */
  path: string;
  /** 1-based line of the text it was found in. */
  line: number;
  /** Written as `${SKILL_DIR}/…` or as a Markdown link target: surely a file of the skill's own folder. */
  explicit: boolean;
  /** Written as `${SKILL_DIR}/…` (or `${CLAUDE_SKILL_DIR}/…`): a claim about the folder even inside code. */
  viaSkillDir?: boolean;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (
    let cursor = text.indexOf("\n");
    cursor !== -1 && cursor < index;
    cursor = text.indexOf("\n", cursor + 1)
  ) {
    line++;
  }
  return line;
}

/** Every distinct file a text names, first mention first. */
export function namedFiles(text: string): FileReference[] {
  const found = new Map<string, FileReference>();
  const add = (raw: string, index: number, explicit: boolean) => {
    const viaSkillDir = DIR_PREFIX.test(raw);
    const cleaned = raw.replace(DIR_PREFIX, "").replace(/^\.\//, "");
    if (cleaned === "" || cleaned.includes("..") || cleaned.startsWith("/")) return;
    const known = found.get(cleaned);
    if (known) {
      known.explicit ||= explicit;
      if (viaSkillDir) known.viaSkillDir = true;
      return;
    }
    found.set(cleaned, {
      path: cleaned,
      line: lineAt(text, index),
      explicit,
      ...(viaSkillDir ? { viaSkillDir } : {}),
    });
  };
  if (text.includes("](")) {
    for (const match of text.matchAll(MARKDOWN_LINK_TARGET)) {
      const target = match[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#")) continue;
      add(target.split("#")[0]!, match.index, true);
    }
  }
  if (!ANY_EXTENSION.test(text)) return [...found.values()];
  for (const match of text.matchAll(FILE_REFERENCE)) {
    add(match[1]!, match.index, DIR_PREFIX.test(match[1]!));
  }
  return [...found.values()];
}

export interface VariableUse {
  name: string;
  line: number;
}

/** `${NAME}` uses other than the skill-directory variables. */
export function unknownVariables(text: string): VariableUse[] {
  const uses: VariableUse[] = [];
  if (!text.includes("${")) return uses;
  for (const match of text.matchAll(VARIABLE)) {
    if (SKILL_DIR_VARIABLES.includes(match[1]!)) continue;
    uses.push({ name: match[1]!, line: lineAt(text, match.index) });
  }
  return uses;
}

/** Replaces `${SKILL_DIR}` and `${CLAUDE_SKILL_DIR}` with the base directory (a function replacer: no `$` patterns). */
export function substituteSkillDir(text: string, baseDir: string): string {
  return text.replace(/\$\{(?:SKILL_DIR|CLAUDE_SKILL_DIR)\}/g, () => baseDir);
}
