// The environment is regathered before every request (DESIGN §1): its inputs are read again each time,
// and rendered again only when one of them changed. Most requests of a run see the same date, model and
// active skills, so their environment is the previous request's, object for object — which also lets
// the session's hooks reuse what they computed from it (figures by object identity).
import type { ModelRequest } from "../providers/types.ts";
import {
  buildEnvironmentSections,
  type EnvironmentInput,
  type EnvironmentSection,
} from "../prompt/environment.ts";
import type { SkillBody } from "../prompt/stable-system.ts";
import { overrideSections } from "./request-overrides.ts";
import type { PromptOverrides } from "./types.ts";

export interface GatheredEnvironment {
  input: EnvironmentInput;
  /** The sections as sent (a branch's edits applied). */
  sections: EnvironmentSection[];
  /** The sections joined: the environment system block. */
  text: string;
  /** The sections as the provider request carries them. */
  requestSections: NonNullable<ModelRequest["environmentSections"]>;
}

function sameSkill(left: SkillBody, right: SkillBody): boolean {
  return (
    left.name === right.name &&
    left.source === right.source &&
    left.body === right.body &&
    left.arguments === right.arguments
  );
}

/** Every field the rendering reads, compared (strings by value; the same string object compares at once). */
function sameInput(left: EnvironmentInput, right: EnvironmentInput): boolean {
  return (
    left.version === right.version &&
    left.provider === right.provider &&
    left.model === right.model &&
    left.cwd === right.cwd &&
    left.date === right.date &&
    left.platform === right.platform &&
    left.disclosure === right.disclosure &&
    left.skillPlacement === right.skillPlacement &&
    left.activeSkills.length === right.activeSkills.length &&
    left.activeSkills.every((skill, index) => sameSkill(skill, right.activeSkills[index]))
  );
}

/** `input` rendered, or `previous` itself when `input` renders the same. */
export function gatherEnvironment(
  input: EnvironmentInput,
  overrides: PromptOverrides | undefined,
  previous: GatheredEnvironment | undefined,
): GatheredEnvironment {
  if (previous && sameInput(previous.input, input)) return previous;
  const sections = overrideSections(buildEnvironmentSections(input), overrides);
  return {
    input,
    sections,
    text: sections.map((section) => section.text).join(""),
    requestSections: sections.map(({ name, text }) => ({ name, text })),
  };
}
