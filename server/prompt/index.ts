export { buildStableSystem, type SkillBody, type StableSystemInput } from "./stable-system.ts";
export { buildEnvironment, type EnvironmentInput } from "./environment.ts";
export { sha256Hex } from "./hash.ts";
export { buildEnvironmentSections, type EnvironmentSection } from "./environment.ts";
