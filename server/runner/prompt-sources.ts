// PromptSources backed by the skills module: the Catalog gives the index (and eager bodies), ActiveSkills
// gives the loaded bodies. Read live on every call, so a reload or a load_skill is seen at the next request.
import os from "node:os";
import type { ActiveSkills } from "../skills/active-skills.ts";
import type { Catalog } from "../skills/catalog.ts";
import { renderInvocation } from "../skills/render.ts";
import type { EnvironmentFacts, PromptSources } from "./types.ts";

export interface SkillPromptSourceOptions {
  catalog: Pick<Catalog, "promptItems" | "list">;
  activeSkills: Pick<ActiveSkills, "list">;
  /** Realpath of the working directory. */
  workdir: string;
  version: string;
  platform?: string;
}

export function platformLabel(): string {
  return `${os.platform()} (${os.arch()})`;
}

export function createPromptSources(options: SkillPromptSourceOptions): PromptSources {
  const facts: EnvironmentFacts = {
    version: options.version,
    cwd: options.workdir,
    platform: options.platform ?? platformLabel(),
  };
  return {
    promptItems: () => options.catalog.promptItems(),
    activeSkills: () => options.activeSkills.list().map(({ name, source, body }) => ({ name, source, body })),
    activeSkillArguments: () =>
      Object.fromEntries(options.activeSkills.list().map((skill) => [skill.name, skill.arguments])),
    eagerBodies: () =>
      options.catalog.list().map((skill) => ({
        name: skill.meta.name,
        source: skill.source,
        body: renderInvocation(skill, ""),
      })),
    environmentFacts: () => ({ ...facts }),
  };
}
