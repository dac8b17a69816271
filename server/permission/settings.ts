import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseRule, type CompiledRule, type RuleEffect } from "./rules.ts";

/**
 * Permission rules from `$HOME/.PseudoClaude/settings.json` and `<workdir>/.PseudoClaude/settings.json`:
 * `{"permissions":{"allow":[...],"ask":[...],"deny":[...]}}`. A missing file is normal; anything wrong is
 * reported as a problem naming the file (and the rule), and the rest still loads. Never throws.
 */
export interface LoadedRules {
  rules: CompiledRule[];
  problems: string[];
  /** Files that were read (existing and parsed). */
  files: string[];
}

const EFFECTS: readonly RuleEffect[] = ["allow", "ask", "deny"];

export function settingsPaths(workdir: string, homeDir: string | undefined): string[] {
  const paths: string[] = [];
  if (homeDir) paths.push(path.join(homeDir, ".PseudoClaude", "settings.json"));
  const projectPath = path.join(workdir, ".PseudoClaude", "settings.json");
  if (!paths.includes(projectPath)) paths.push(projectPath);
  return paths;
}

export async function loadPermissionRules(options: {
  workdir: string;
  homeDir?: string;
}): Promise<LoadedRules> {
  const loaded: LoadedRules = { rules: [], problems: [], files: [] };
  for (const file of settingsPaths(options.workdir, options.homeDir)) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR")
        loaded.problems.push(`${file}: cannot be read (${code ?? String(error)})`);
      continue;
    }
    loaded.files.push(file);
    const parsed = parseSettingsText(text, file);
    loaded.rules.push(...parsed.rules);
    loaded.problems.push(...parsed.problems);
  }
  return loaded;
}

export function parseSettingsText(text: string, file: string): { rules: CompiledRule[]; problems: string[] } {
  const rules: CompiledRule[] = [];
  const problems: string[] = [];
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return {
      rules,
      problems: [`${file}: invalid JSON (${(error as Error).message}); its rules were ignored`],
    };
  }
  if (!isRecord(document)) return { rules, problems: [`${file}: expected a JSON object at the top level`] };
  const permissions = document.permissions;
  if (permissions === undefined) return { rules, problems };
  if (!isRecord(permissions))
    return { rules, problems: [`${file}: "permissions" must be an object with allow/ask/deny lists`] };
  for (const key of Object.keys(permissions)) {
    if (!EFFECTS.includes(key as RuleEffect) && key !== "defaultMode") {
      problems.push(`${file}: unknown key permissions.${key} (expected allow, ask or deny)`);
    }
  }
  for (const effect of EFFECTS) {
    const list = permissions[effect];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      problems.push(`${file}: permissions.${effect} must be a list of rule strings`);
      continue;
    }
    list.forEach((entry: unknown, index) => {
      const rule = parseRule(effect, entry as string, file);
      if (typeof rule === "string") problems.push(`${file}: permissions.${effect}[${index}]: ${rule}`);
      else rules.push(rule);
    });
  }
  return { rules, problems };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
