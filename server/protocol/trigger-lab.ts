// Wire types of the trigger lab (issue 14 item 3) and the catalog budget (item 4). The server computes
// both (server/eval, server/prompt/catalog-budget.ts); the pages import these types only.

/** `kind` of an eval query: how the skill is (or is not) asked for. */
export type TriggerQueryKind = "explicit" | "implicit" | "contextual" | "negative";

/** What one probe saw in the model's single response. */
export type ProbeOutcome =
  /** The response's first tool call was load_skill. */
  | "load_skill"
  /** The model answered without calling any tool. */
  | "no_tool"
  /** The response's first tool call was another tool (recorded, never executed). */
  | "other_tool_first"
  /** The request failed (what the server answered is in `error`). */
  | "provider_error";

export interface ProbeRecord {
  /** Name of the first load_skill call in the response (null: none). */
  first: string | null;
  /** Skills load_skill actually loaded during the probe, in call order (an unknown name is not loaded). */
  loaded: string[];
  outcome: ProbeOutcome;
  /** Names of every tool the model called, in order (only load_skill was executed). */
  calls?: string[];
  error?: string;
  /** Milliseconds from sending the request to the response's end (the provider's whole answer). */
  durationMs?: number;
}

export interface TriggerSkillScore {
  name: string;
  /** TP / (TP + FP); null when no probe loaded this skill first (nothing to be precise about). */
  precision: number | null;
  /** TP / (TP + FN); null when no query expects this skill. */
  recall: number | null;
  /** Share of the probes expecting this skill in which it was loaded at all (first or later in the response). */
  triggerRate: number | null;
  /** Probes expecting this skill. */
  probes: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
}

export interface TriggerQueryScore {
  query: string;
  /** A skill name, or "none" for a negative. */
  expect: string;
  kind: TriggerQueryKind;
  /** Share of this query's probes whose first load is `expect` (for "none": no skill loaded first). */
  passRate: number;
  probes: ProbeRecord[];
}

/** Things that make a probe's number less than a clean measurement, counted. */
export interface TriggerConfounds {
  /** A tool other than load_skill came first (a one-request probe cannot see what would follow). */
  other_tool_first: number;
  provider_error: number;
  /** load_skill named a skill that is not in the catalog (a decoy or a typo). */
  unknown_skill: number;
  /** More than one load_skill in one response. */
  several_loads: number;
}

/** `confusion[expect][got]`: how many probes expecting `expect` loaded `got` first ("none": nothing). */
export type TriggerConfusion = Record<string, Record<string, number>>;

/** The `--json` document of `cli eval triggers` (and one side of an ablation). */
export interface TriggerLabSummary {
  skills: TriggerSkillScore[];
  queries: TriggerQueryScore[];
  confusion: TriggerConfusion;
  confounds: TriggerConfounds;
}

/** Where a lab ran and what it varied. */
export interface TriggerLabRunInfo {
  labId: string;
  evalFile: string;
  provider: string;
  model: string;
  runs: number;
  concurrency: number;
  /** Ablation: this skill's description was replaced by `description` (the B side). */
  ablation?: { skill: string; description: string };
  /** The listing budget applied to the index, if any (see CatalogBudgetReport). */
  budget?: { profile: ClientProfileName; contextWindow?: number };
  startedAt: string;
}

export interface TriggerLabProgress {
  labId: string;
  /** "a": the eval as is; "b": the ablation side. */
  side: "a" | "b";
  done: number;
  total: number;
  queryIndex: number;
  run: number;
  probe: ProbeRecord;
}

export interface TriggerLabResult {
  info: TriggerLabRunInfo;
  a: TriggerLabSummary;
  b?: TriggerLabSummary;
  /** Files written next to the eval file (absent when they could not be written: see `saveError`). */
  files?: { jsonl: string; summary: string };
  saveError?: string;
  durationMs: number;
}

// ---- catalog budget ----

/** Client whose skill-listing rules are modelled. */
export type ClientProfileName = "claude-code" | "codex";

export type BudgetEntryStatus = "full" | "cut" | "dropped";

export interface BudgetEntry {
  name: string;
  status: BudgetEntryStatus;
  /** Whether the name still appears in the listing (Codex omits whole skills when even names overflow). */
  listed: boolean;
  /** Characters of the (whitespace-folded) description. */
  descriptionChars: number;
  /** Characters of the description that would be shown (0 when dropped). */
  shownChars: number;
  /** The description as it would be listed ("" when dropped). */
  shown: string;
  /** Why it was cut or dropped. */
  reason?: string;
}

export interface CatalogBudgetReport {
  profile: ClientProfileName;
  /** Context window in tokens, when known. */
  contextWindow?: number;
  /** The budget: a number of `unit`s. */
  limit: number;
  unit: "chars" | "approx_tokens";
  /** How the limit was derived, e.g. "1% of 200,000 tokens × 4 chars/token". */
  derivation: string;
  /** Cost of the listing as it would be shown, in `unit`s. */
  used: number;
  /** Cost of the full listing, in `unit`s. */
  fullCost: number;
  entries: BudgetEntry[];
  /** Where the rules come from (public documentation and source). */
  sources: string[];
  /** The rule used to choose which entries lose first, stated honestly. */
  note: string;
}
