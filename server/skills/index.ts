// Public API of the skills module: discoverable (Catalog), loaded (ActiveSkills), installed (skill tools
// in the Registry via load_skill).
export * from "./types.ts";
export {
  parseSkillMarkdown,
  type ParseProblem,
  type ParsedSkillFile,
  type SkillParseResult,
} from "./parse-skill.ts";
export {
  TOOLS_JSON_SCHEMA,
  checkCommand,
  isPathProgram,
  parseToolsJson,
  parseToolsJsonText,
  type CommandCheck,
  type ToolsJsonResult,
} from "./tools-json.ts";
export { BUILTIN_SKILLS_DIR, Catalog, LAYER_ORDER, defaultLayers } from "./catalog.ts";
export { lintSkill, expectedSkillName } from "./lint.ts";
export { ActiveSkills, type ActivationOutcome, type ActiveSkill } from "./active-skills.ts";
export { renderInvocation } from "./render.ts";
export {
  LOAD_SKILL_TOOL_NAME,
  createLoadSkillTool,
  type LoadSkillToolOptions,
  type SkillActivation,
} from "./load-skill-tool.ts";
export {
  DEFAULT_SKILL_TOOL_TIMEOUT_MS,
  MAX_SKILL_TOOL_TIMEOUT_MS,
  WORKDIR_ENV_VAR,
  createSkillTool,
  type SkillToolOwner,
} from "./skill-tool.ts";
