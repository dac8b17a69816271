// The "override" prompt source: a branch's edits (server/protocol/branch.ts) applied to the prompt the
// Runner builds. A skill description edit changes the index item, so the stable system renders that
// skill's line again with the builder every request uses; a stable system edit replaces the whole text
// (and so wins over description edits); environment sections and tool definitions are replaced by name in
// every request of the branch. Message edits are not here: they change the copied conversation once.
import type { ToolDefinition } from "../protocol/model.ts";
import type { RequestEdit } from "../protocol/branch.ts";
import type { EnvironmentSection } from "../prompt/environment.ts";
import type { PromptOverrides, PromptSources } from "./types.ts";

/** What the edits replace (the last edit of a part wins). */
export function overridesFromEdits(edits: readonly RequestEdit[]): PromptOverrides {
  const overrides: PromptOverrides = {};
  for (const edit of edits) {
    if (edit.kind === "stable") overrides.stable = edit.text;
    if (edit.kind === "environment")
      overrides.environment = { ...overrides.environment, [edit.section]: edit.text };
    if (edit.kind === "tool") {
      const previous = overrides.tools?.[edit.name] ?? {};
      overrides.tools = {
        ...overrides.tools,
        [edit.name]: {
          ...previous,
          ...(edit.description !== undefined ? { description: edit.description } : {}),
          ...(edit.inputSchema !== undefined ? { inputSchema: edit.inputSchema } : {}),
        },
      };
    }
  }
  return overrides;
}

/** The prompt sources with the edits applied; sources without edits are returned as they are. */
export function withRequestEdits(base: PromptSources, edits: readonly RequestEdit[]): PromptSources {
  if (edits.length === 0) return base;
  const descriptions = new Map<string, string>();
  for (const edit of edits)
    if (edit.kind === "skill_description") descriptions.set(edit.skill, edit.description);
  const overrides = overridesFromEdits(edits);
  return {
    ...base,
    promptItems: () =>
      base.promptItems().map((item) => {
        const description = descriptions.get(item.name);
        return description === undefined ? item : { ...item, description };
      }),
    overrides: () => overrides,
  };
}

/** Environment sections with the overridden ones' text replaced (name and heading kept). */
export function overrideSections(
  sections: EnvironmentSection[],
  overrides: PromptOverrides | undefined,
): EnvironmentSection[] {
  const replaced = overrides?.environment;
  if (!replaced) return sections;
  return sections.map((section) =>
    replaced[section.name] === undefined ? section : { ...section, text: replaced[section.name] },
  );
}

/** Tool definitions with the overridden descriptions and input schemas. */
export function overrideTools(
  tools: ToolDefinition[],
  overrides: PromptOverrides | undefined,
): ToolDefinition[] {
  const replaced = overrides?.tools;
  if (!replaced) return tools;
  return tools.map((tool) => {
    const change = replaced[tool.name];
    if (!change) return tool;
    return {
      ...tool,
      ...(change.description !== undefined ? { description: change.description } : {}),
      ...(change.inputSchema !== undefined ? { inputSchema: change.inputSchema } : {}),
    };
  });
}
