// PromptSources backed by the skills module: the Catalog gives the index (and eager bodies), ActiveSkills
// gives the loaded bodies. Read live on every call, so a reload or a load_skill is seen at the next request.
import os from "node:os";
import type { ActiveSkills } from "../skills/active-skills.ts";
import type { Catalog } from "../skills/catalog.ts";
import type { SkillBody } from "../prompt/stable-system.ts";
import { renderInvocation } from "../skills/render.ts";
import type { PromptItem, Skill } from "../skills/types.ts";
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
  // The index and the eager bodies change only when the catalog's skills do (a reload makes new Skill
  // objects): while list() returns the same objects, every run gets the same arrays, so what a run
  // computes from them (the stable system, the eager comparison) can be reused by identity.
  let seen: { skills: readonly Skill[]; items: PromptItem[]; eagerBodies?: SkillBody[] } | undefined;
  const current = () => {
    const skills = options.catalog.list();
    const same =
      seen !== undefined &&
      seen.skills.length === skills.length &&
      skills.every((skill, index) => skill === seen!.skills[index]);
    if (!same) seen = { skills, items: options.catalog.promptItems() };
    return seen!;
  };
  return {
    promptItems: () => current().items,
    activeSkills: () => options.activeSkills.list().map(({ name, source, body }) => ({ name, source, body })),
    activeSkillArguments: () =>
      Object.fromEntries(options.activeSkills.list().map((skill) => [skill.name, skill.arguments])),
    eagerBodies: () => {
      const state = current();
      state.eagerBodies ??= state.skills.map((skill) => ({
        name: skill.meta.name,
        source: skill.source,
        body: renderInvocation(skill, ""),
      }));
      return state.eagerBodies;
    },
    environmentFacts: () => ({ ...facts }),
  };
}
