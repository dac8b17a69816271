// "Why isn't it offered?" in one place (issue 21 item 7): every skill the catalog found on disk but does
// not offer to the model, with one sentence saying why. The catalog's own reasons are here; a listing
// budget's are added by the session (server/prompt/not-offered.ts), since the budget is its setting.
import path from "node:path";
import { isMcpSource } from "../protocol/catalog.ts";
import type {
  CatalogLayers,
  LintNote,
  LintProfileName,
  NotOfferedSkill,
  RemovedSkill,
  ShadowedSkill,
  Skill,
  SkillWarning,
} from "./types.ts";

export interface NotOfferedInput {
  layers: CatalogLayers;
  warnings: readonly SkillWarning[];
  shadowed: readonly ShadowedSkill[];
  refused: readonly { skill: Skill; notes: readonly LintNote[] }[];
  removed: readonly RemovedSkill[];
  profile: LintProfileName;
  /** Offered skills with `disable-model-invocation: true`. */
  disabled: readonly Skill[];
}

/** The skill a warning is about: its name when the parser got that far, else its folder (or file). */
function warnedName(warning: SkillWarning): string {
  if (warning.skill) return warning.skill;
  const file = path.basename(warning.path);
  if (/^skill\.md$/i.test(file) || file === "tools.json") return path.basename(path.dirname(warning.path));
  return file.replace(/\.md$/i, "");
}

function list(names: readonly string[]): string {
  return names.length <= 1
    ? (names[0] ?? "")
    : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** The catalog's reasons, in this order: unreadable, shadowed, refused, removed, disabled. */
export function notOfferedOnDisk(input: NotOfferedInput): NotOfferedSkill[] {
  const entries: NotOfferedSkill[] = [];
  for (const warning of input.warnings) {
    // A layer folder that cannot be read is not a skill; its warning says so on its own.
    if (!isMcpSource(warning.source) && warning.path === input.layers[warning.source]) continue;
    const at =
      warning.line !== undefined
        ? ` (line ${warning.line}${warning.column !== undefined ? `, column ${warning.column}` : ""})`
        : "";
    entries.push({
      name: warnedName(warning),
      kind: "unreadable",
      source: warning.source,
      path: warning.path,
      reason: `could not be read as a skill${at}: ${warning.reason}`,
    });
  }
  for (const entry of input.shadowed) {
    entries.push({
      name: entry.name,
      kind: "shadowed",
      source: entry.loser.source,
      path: entry.loser.path,
      reason: `shadowed by the ${entry.winner.source} layer's "${entry.name}": a later layer wins by name (project > user > builtin)`,
    });
  }
  for (const { skill, notes } of input.refused) {
    const first = notes[0]!;
    const more =
      notes.length > 1
        ? ` (and ${notes.length - 1} more: ${notes
            .slice(1)
            .map((note) => note.rule)
            .join(", ")})`
        : "";
    entries.push({
      name: skill.meta.name,
      kind: "refused",
      source: skill.source,
      path: skill.entryPath,
      reason: `refused by the ${input.profile} lint profile: ${first.message} [${first.rule}]${more}`,
    });
  }
  for (const removed of input.removed) {
    const why = removed.reasons
      ? removed.reasons.join("; ")
      : `no tool of ${removed.missing.length === 1 ? "that name" : "those names"} is registered (system tools, its own tools.json, MCP servers)`;
    entries.push({
      name: removed.name,
      kind: "removed",
      source: removed.source,
      path: removed.path,
      reason: `removed: its "tools" key names ${list(removed.missing)} as needed, and ${why}`,
    });
  }
  for (const skill of input.disabled) {
    entries.push({
      name: skill.meta.name,
      kind: "disabled",
      source: skill.source,
      path: skill.entryPath,
      reason: `disabled for the model (disable-model-invocation: true): not in the skills index and load_skill refuses it; the user can still run /${skill.meta.name}`,
    });
  }
  return entries;
}
