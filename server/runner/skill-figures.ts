// What listing a skill and loading it cost, in tokens, counted where the requests' own figures are
// counted: its line of the skills index (the text the stable system carries), and the environment
// section load_skill gives it — found by loading it, without arguments, into a throwaway set of active
// skills and building the environment exactly as the Runner does. So the skill detail shows the figures
// the inspector will show for that segment (the base directory and file list included), whatever
// renders the section.
import type { SkillFigures } from "../protocol/catalog.ts";
import { buildEnvironmentSections } from "../prompt/environment.ts";
import { TOKENIZER_NAME, type TokenCounter } from "../prompt/segments.ts";
import { indexLineTexts, type ListingBudget } from "../prompt/stable-system.ts";
import { ActiveSkills } from "../skills/active-skills.ts";
import type { Catalog } from "../skills/catalog.ts";
import { createLoadSkillTool, runLoadSkill } from "../skills/load-skill-tool.ts";
import { Registry } from "../tools/registry.ts";
import { createPromptSources } from "./prompt-sources.ts";

export interface SkillFiguresOptions {
  /** The token counter the requests' figures come from (the composition root's). */
  tokens: TokenCounter;
  catalog: Catalog;
  /** Realpath of the workdir (the environment names it, so it counts). */
  workdir: string;
  version: string;
  name: string;
  listingBudget?: ListingBudget;
}

export async function skillFigures(options: SkillFiguresOptions): Promise<SkillFigures> {
  const { catalog, workdir, name } = options;
  const line = indexLineTexts(catalog.promptItems(), options.listingBudget).find(
    (entry) => entry.name === name,
  );
  const figures: SkillFigures = {
    name,
    tokenizer: TOKENIZER_NAME,
    ...(line ? { indexTokens: options.tokens.textFigures(line.line).tokens } : {}),
  };
  const activeSkills = new ActiveSkills();
  const registry = new Registry();
  registry.register(createLoadSkillTool({ catalog, activeSkills, registry }), { protected: true });
  const loaded = await runLoadSkill(
    registry,
    { name },
    {
      workdir,
      callId: `figures_${name}`,
      signal: new AbortController().signal,
      sandbox: { network: false, homes: [] },
    },
  );
  if (!loaded.ok) return { ...figures, loadError: loaded.content };
  const prompt = createPromptSources({ catalog, activeSkills, workdir, version: options.version });
  const sections = buildEnvironmentSections({
    ...prompt.environmentFacts(),
    provider: "",
    model: "",
    date: new Date(),
    activeSkills: prompt.activeSkills(),
  });
  const section = options.tokens.environmentSegments(sections).find((segment) => segment.name === name);
  return section ? { ...figures, loadTokens: section.tokens } : figures;
}
