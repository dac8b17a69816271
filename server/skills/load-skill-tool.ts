// load_skill: the system tool that moves a skill from discoverable (Catalog) to loaded (ActiveSkills)
// and installs its tools.json tools (Registry). Registered is not visible: the Runner's per-run snapshot
// of definitions decides when the model can see those tools.
import { LOAD_SKILL_TOOL_NAME } from "../protocol/model.ts";
import type { Registry } from "../tools/registry.ts";
import {
  defineTool,
  failResult,
  okResult,
  type Tool,
  type ToolContext,
  type ToolExecution,
  type ToolResult,
  type ToolTarget,
} from "../tools/types.ts";
import type { ActiveSkills } from "./active-skills.ts";
import type { Catalog } from "./catalog.ts";
import { buildSkillManifest } from "./manifest.ts";
import { renderInvocation } from "./render.ts";
import { hasOwnFolder } from "./resource-lint.ts";
import { createSkillTool } from "./skill-tool.ts";
import type { McpSkillLoader } from "./mcp-skill-loader.ts";
import { expandPlaceholders } from "./plugin-bundle.ts";
import { modelInvocable, type CatalogSource, type Skill } from "./types.ts";

export { LOAD_SKILL_TOOL_NAME };

/** What load_skill did, for the Runner's `skill_activated` / `tools_registered` events. */
export interface SkillActivation {
  skill: string;
  source: CatalogSource;
  /** 0-based position in ActiveSkills. */
  position: number;
  /** Tools placed into the Registry (register-or-replace). */
  registered_tools: string[];
  /** tools.json tools whose name belongs to a protected system tool, so they were not installed. */
  skipped_tools: string[];
  /** False when the body could not be re-read and the catalog snapshot was used. */
  bodyFromDisk: boolean;
  /** Realpath of the skill's folder (absent for a loose `*.md` skill). */
  baseDir?: string;
}

export interface LoadSkillToolOptions {
  catalog: Catalog;
  activeSkills: ActiveSkills;
  registry: Registry;
  /** Called after each successful activation (the result metadata carries the same data). */
  onActivated?: (activation: SkillActivation) => void;
  /** Fetches and verifies skills MCP servers serve (absent: such a skill cannot be loaded). */
  mcpSkills?: McpSkillLoader;
}

/** The consent an MCP skill's load needs (SEP-2640): bound to its server, URI and file set. */
export function mcpSkillConsent(skill: Skill): NonNullable<ToolTarget["consent"]> | undefined {
  const origin = skill.mcp;
  if (!origin) return undefined;
  const files = origin.files;
  const what = files
    ? `${files.length} files, ${files.reduce((sum, file) => sum + file.size, 0)} bytes, file set ${origin.contentKey.slice(0, 19)}…`
    : `"dynamic": its files are generated and cannot be verified`;
  return {
    key: `${skill.source} ${origin.uri} ${origin.contentKey}`,
    anyAllowHolds: true,
    reason:
      `skill "${skill.meta.name}" is served by MCP server ${origin.server} (${origin.uri}; ${what}): its text comes ` +
      `from that server and is untrusted. Approving covers these files for this session; if the server changes them, loading asks again`,
  };
}

export interface LoadSkillInput {
  name: string;
  arguments?: string;
}

/**
 * Creates the `load_skill` tool. Input `{name, arguments?}`. Semantics (DESIGN.md §1):
 * unknown name → failure `unknown_skill` (`unknown skill "<name>"`); the body is re-read from disk
 * (falling back to the catalog snapshot), rendered with `arguments`, activated into ActiveSkills
 * (same name: updated in place), and every tools.json tool is register-or-replaced into the Registry.
 * Result text: `loaded skill "<name>" (<n> specialized tools registered)`; effects `skill_activated`
 * (with the arguments) and `tools_registered`, which the Runner turns into its events; metadata
 * `{skill, registered_tools, source, position, skipped_tools, bodyFromDisk}` for the UI and JSON readers.
 * No enum of names in the schema: the catalog can reload while the Registry keeps the compiled schema.
 */
/**
 * Contexts of calls a person made (a slash command, the catalog's Load button, a restore): they may load
 * a skill with `disable-model-invocation: true`, which the model may not. Only `runLoadSkill` adds to it,
 * with a context object it made itself, so nothing a model sends can put a call here.
 */
const personCalls = new WeakSet<ToolContext>();

export function createLoadSkillTool(options: LoadSkillToolOptions): Tool<LoadSkillInput> {
  const { catalog, activeSkills, registry } = options;
  return defineTool<LoadSkillInput>({
    definition: {
      name: LOAD_SKILL_TOOL_NAME,
      description:
        "Load a skill from the skills index by name: its full instructions (SOP) are added to the " +
        "environment, and its specialized tools are installed at once but become visible to you from the " +
        "user's next message on. Call it when a listed skill fits the task, before doing the task.",
      inputSchema: {
        type: "object",
        properties: {
          name: { type: "string", minLength: 1, description: "Exact skill name from the skills index." },
          arguments: {
            type: "string",
            description: "Optional arguments substituted into the skill's instructions.",
          },
        },
        required: ["name"],
        additionalProperties: false,
      },
      safety: "read_only",
      category: "read",
      origin: "system",
    },

    describe(input) {
      // Loading a skill an MCP server serves needs the person's consent, bound to its content.
      const skill = catalog.get(input.name);
      const consent = skill ? mcpSkillConsent(skill) : undefined;
      return consent ? { cwd: "", consent } : { cwd: "" };
    },

    async execute({ name, arguments: args = "" }, context): Promise<ToolExecution> {
      const skill = catalog.get(name);
      if (!skill) {
        return { result: failResult(LOAD_SKILL_TOOL_NAME, "unknown_skill", `unknown skill "${name}"`) };
      }
      if (!modelInvocable(skill.meta) && !personCalls.has(context)) {
        const message =
          `skill "${name}" is not offered to the model (its disable-model-invocation is true); ` +
          `only the user can run it, as /${name}`;
        return { result: failResult(LOAD_SKILL_TOOL_NAME, "unknown_skill", message) };
      }
      // An MCP server's skill: fetched now (never before) from its own server, and verified.
      const served = skill.mcp ? await loadServedSkill(skill, options.mcpSkills) : undefined;
      if (typeof served === "string") return { result: failResult(LOAD_SKILL_TOOL_NAME, "io_error", served) };
      const freshBody = served ? served.body : await catalog.reloadSkillBody(skill.meta.name);
      // A plugin's skill: Claude Code's ${CLAUDE_PLUGIN_ROOT} / ${CLAUDE_PLUGIN_DATA} are its folders.
      const body = skill.plugin
        ? expandPlaceholders(freshBody ?? skill.body, {
            CLAUDE_PLUGIN_ROOT: skill.plugin.root,
            CLAUDE_PLUGIN_DATA: skill.plugin.dataDir,
          })
        : (freshBody ?? skill.body);
      // Level 3: where the skill lives and what it ships, listed now (never at catalog load). A folder
      // that cannot be listed (removed since the scan) leaves the SOP without them.
      const resources = served
        ? served.resources
        : hasOwnFolder(skill)
          ? await buildSkillManifest(skill.rootDir, skill.entryPath, body).catch(() => undefined)
          : undefined;
      const rootDir = served ? served.resources.baseDir : skill.rootDir;
      let rendered = renderInvocation({ meta: skill.meta, body, rootDir }, args, resources);
      if (skill.mcp)
        rendered += `\n\nThis skill is served by MCP server ${skill.mcp.server} (${skill.mcp.uri}); each of its files is fetched from that server and checked against its listed digest when you read it.`;
      const { position } = activeSkills.activate({
        name: skill.meta.name,
        source: skill.source,
        body: rendered,
        arguments: args,
        rootDir,
        ...(resources ? { resources } : {}),
        ...(served ? { prepare: served.prepare } : {}),
      });

      const registered: string[] = [];
      const skipped: string[] = [];
      for (const spec of skill.tools) {
        if (
          registry.registerOrReplace(createSkillTool({ name: skill.meta.name, rootDir: skill.rootDir }, spec))
        ) {
          registered.push(spec.name);
        } else {
          skipped.push(spec.name);
        }
      }
      const activation: SkillActivation = {
        skill: skill.meta.name,
        source: skill.source,
        position,
        registered_tools: registered,
        skipped_tools: skipped,
        bodyFromDisk: freshBody !== null,
        ...(resources ? { baseDir: resources.baseDir } : {}),
      };
      options.onActivated?.(activation);
      const warnings = served?.warnings ?? [];
      const text =
        `loaded skill "${skill.meta.name}" (${registered.length} specialized tools registered)` +
        warnings.map((warning) => `\nwarning: ${warning}`).join("");
      return {
        result: okResult(LOAD_SKILL_TOOL_NAME, text, { ...activation }, [
          {
            type: "skill_activated",
            skill: skill.meta.name,
            source: skill.source,
            position,
            arguments: args,
            ...(resources ? { resources } : {}),
          },
          { type: "tools_registered", skill: skill.meta.name, names: registered },
        ]),
      };
    },
  });
}

/**
 * Runs the Registry's load_skill for a caller other than the model loop (a slash command, a reopened
 * session, the catalog's Load button; `by: "model"` for the trigger lab's probes, which stand in for the
 * model): validated against its schema like any call, so it meets the same input.
 */
export async function runLoadSkill(
  registry: Registry,
  input: LoadSkillInput,
  context: ToolContext,
  by: "person" | "model" = "person",
): Promise<ToolResult> {
  const prepared = registry.prepare(LOAD_SKILL_TOOL_NAME, input);
  if (!prepared.ok) return prepared.result;
  const own = { ...context };
  if (by === "person") personCalls.add(own);
  return (await prepared.call.execute(own)).result;
}

/** The MCP skill fetched and verified, or why it cannot be loaded. */
async function loadServedSkill(skill: Skill, loader: McpSkillLoader | undefined) {
  if (!loader)
    return `skill "${skill.meta.name}" is served by an MCP server, and this session cannot fetch MCP skills`;
  try {
    return await loader.load(skill);
  } catch (error) {
    return `skill "${skill.meta.name}" could not be fetched from MCP server ${skill.mcp?.server}: ${error instanceof Error ? error.message : String(error)}`;
  }
}
