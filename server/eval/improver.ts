// The improving side of the description optimizer (issue 25). What it is shown is built here and only
// here, from train data: the SKILL.md, the current description, the train queries that failed, and the
// history of earlier descriptions with their TRAIN scores. No test query or test score is a field of
// ImproverInput, so none can reach it. It answers inside <new_description>…</new_description>; an answer
// over 1,024 characters (Agent Skills' limit) is shortened by a second call.
import { PlaygroundError, errorMessage } from "../errors/index.ts";
import type { Usage } from "../protocol/model.ts";
import type { ModelRequest, Provider } from "../providers/types.ts";

export const DESCRIPTION_LIMIT = 1024;

export interface ImproverFailure {
  query: string;
  shouldTrigger: boolean;
  /** Runs in which the skill triggered, of runs. */
  triggered: number;
  runs: number;
}

export interface ImproverInput {
  skill: string;
  skillMarkdown: string;
  description: string;
  failures: ImproverFailure[];
  /** Earlier descriptions with their train scores only. */
  history: { description: string; trainPassed: number; trainTotal: number }[];
}

export type ImproverStep = "propose" | "shorten";

/** Proposes a description; `ask` sends one prompt and resolves with the answer text (and its usage). */
export interface Improver {
  readonly label: string;
  ask(prompt: string, step: ImproverStep, signal: AbortSignal): Promise<{ text: string; usage?: Usage }>;
}

const SYSTEM = `You improve the description of an agent skill. An agent sees only each skill's name and description in its index and decides from them alone whether to load the skill for a user's message. Write descriptions that say what the skill does and when to use it, in plain text (no < or >), under ${DESCRIPTION_LIMIT} characters. Answer with the new description inside <new_description></new_description> and nothing else.`;

export function proposePrompt(input: ImproverInput): string {
  const failures = input.failures.map(
    (failure) =>
      `- ${failure.shouldTrigger ? "SHOULD trigger" : "should NOT trigger"} (triggered in ${failure.triggered} of ${failure.runs} runs): ${JSON.stringify(failure.query)}`,
  );
  const history = input.history.map(
    (entry, index) =>
      `${index + 1}. train ${entry.trainPassed}/${entry.trainTotal} passed: ${JSON.stringify(entry.description)}`,
  );
  return [
    `Skill: ${input.skill}`,
    "",
    "<skill_md>",
    input.skillMarkdown.trim(),
    "</skill_md>",
    "",
    `Current description: ${JSON.stringify(input.description)}`,
    "",
    "Queries it gets wrong:",
    ...(failures.length > 0 ? failures : ["(none)"]),
    "",
    "Descriptions tried so far, with how many of the queries they passed:",
    ...(history.length > 0 ? history : ["(none)"]),
    "",
    "Write a better description. Generalise from the failures to the kind of request; do not list the queries.",
  ].join("\n");
}

export function shortenPrompt(description: string): string {
  return `This description is ${description.length} characters; the limit is ${DESCRIPTION_LIMIT}. Shorten it, keeping what it says about when to use the skill.\n\n<description>${description}</description>`;
}

/** The text inside the last <new_description>…</new_description>, trimmed; undefined when there is none. */
export function extractDescription(answer: string): string | undefined {
  const matches = [...answer.matchAll(/<new_description>([\s\S]*?)<\/new_description>/g)];
  const last = matches[matches.length - 1]?.[1]?.trim();
  return last ? last.replace(/\s+/g, " ") : undefined;
}

/** An improver that is a provider: one request, no tools, the answer's text. */
export function providerImprover(provider: Provider): Improver {
  return {
    label: `${provider.name} / ${provider.model}`,
    async ask(prompt, _step, signal) {
      const request: ModelRequest = {
        system: { stable: SYSTEM, environment: "" },
        messages: [{ role: "user", content: prompt }],
        tools: [],
      };
      let text = "";
      let usage: Usage | undefined;
      try {
        for await (const event of provider.stream(request, signal)) {
          if (event.type === "text_delta") text += event.text;
          else if (event.type === "usage") usage = event.usage;
          else if (event.type === "error") {
            throw new PlaygroundError("provider_error", `the improving model failed: ${event.message}`);
          } else if (event.type === "done") return { text, ...(usage ? { usage } : {}) };
        }
      } catch (error) {
        if (error instanceof PlaygroundError) throw error;
        throw new PlaygroundError("provider_error", `the improving model failed: ${errorMessage(error)}`);
      }
      throw new PlaygroundError("provider_error", "the improving model's stream ended without a done event");
    },
  };
}
