// `{{skill_dir:NAME}}` in a scripted tool call's input: the base directory the environment gives for the
// loaded skill NAME (its "Skill base directory:" line), read from the request the way a model reads it.
// Not loaded (or no folder): the placeholder stays as typed, and the call fails as a model's guess would.

const PLACEHOLDER = /\{\{skill_dir:([a-z0-9][a-z0-9-]*)\}\}/gi;

/** The base directory the environment names for `skill`, if it is loaded there. */
export function skillDirIn(environment: string, skill: string): string | undefined {
  const heading = `\n### ${skill}\n`;
  const start = environment.indexOf(heading);
  if (start === -1) return undefined;
  const next = environment.indexOf("\n### ", start + heading.length);
  const section = environment.slice(start, next === -1 ? undefined : next);
  return /\nSkill base directory: (.+)\n?/.exec(section)?.[1]?.trim();
}

/** A copy of `value` with every `{{skill_dir:NAME}}` in its strings replaced where the skill is loaded. */
export function expandSkillDirs<T>(value: T, environment: string): T {
  if (typeof value === "string") {
    return value.replace(PLACEHOLDER, (whole, skill: string) => skillDirIn(environment, skill) ?? whole) as T;
  }
  if (Array.isArray(value)) return value.map((item) => expandSkillDirs(item, environment)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, expandSkillDirs(item, environment)]),
    ) as T;
  }
  return value;
}

const TOOL_STATUS = /\{\{tool_status:([A-Za-z0-9_-]+)\}\}/g;

/**
 * `{{tool_status:NAME}}` in a scripted line: whether NAME is in the tool list of the request being
 * answered, so a line about what the model can see is true whatever happened earlier in the session
 * (a skill loaded in an earlier run has its tools visible from the start of this one).
 */
export function expandToolStatus(text: string, visibleTools: readonly { name: string }[]): string {
  return text.replace(TOOL_STATUS, (_whole, name: string) =>
    visibleTools.some((tool) => tool.name === name)
      ? `\`${name}\` is in my tool list in this run`
      : `\`${name}\` is not in my tool list in this run (a tool a skill installs reaches the list with the next message)`,
  );
}
