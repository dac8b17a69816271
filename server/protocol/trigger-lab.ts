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
  | "provider_error"
  /** Never sent: a cap (--max-calls, --max-usd) or a stop came first. Not scored. */
  | "not_run";

/** A check beyond triggering (issue 25), as an eval query states it. */
export type ProbeCheckName = "first_tool" | "never_tool" | "max_input_tokens";

export interface ProbeCheck {
  name: ProbeCheckName;
  ok: boolean;
  /** What was expected and what the probe saw, e.g. "first tool read_file, got load_skill". */
  detail: string;
}

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
  /** Input tokens of the request: as the provider reported them, else counted here (see the source). */
  inputTokens?: number;
  inputTokensSource?: "provider" | "o200k_base (gpt-tokenizer)";
  /** USD of this probe from the price table and the provider's reported usage (absent: no price or usage). */
  costUsd?: number;
  /** The query's checks beyond triggering, when it has any. */
  checks?: ProbeCheck[];
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
  /** Probes not expecting this skill that did not load it first (absent in results before issue 25). */
  trueNegatives?: number;
  /** FP / (FP + TN); null when no probe expected anything else. */
  falsePositiveRate?: number | null;
}

export interface TriggerQueryScore {
  query: string;
  /** A skill name, or "none" for a negative. */
  expect: string;
  kind: TriggerQueryKind;
  /** Share of this query's probes whose first load is `expect` (for "none": no skill loaded first). */
  passRate: number;
  probes: ProbeRecord[];
  /** A negative from skill-creator's form: the skill it must not trigger (another one may load). */
  avoid?: string;
  /**
   * Share of the runs that ran in which the query's skill triggered (its first load_skill): for a positive
   * `expect`, for a negative `avoid` (or any skill, when the negative expects none at all).
   */
  triggerRate?: number;
  /** Runs scored (a capped lab may have fewer than asked; 0: none ran, and there is no verdict). */
  runs?: number;
  /** Share of the runs in which every check of the query held (absent: the query has no checks). */
  checksPassRate?: number;
  /**
   * The verdict at a 0.5 threshold (skill-creator's rule): a positive passes when triggerRate ≥ 0.5, a
   * negative when it is < 0.5; and, with checks, when they held in at least half the runs.
   */
  passed?: boolean;
}

/** Counted over runs, every query a yes/no question "did its skill trigger?" (skill-creator's counting). */
export interface TriggerOverall {
  truePositives: number;
  falsePositives: number;
  trueNegatives: number;
  falseNegatives: number;
  precision: number | null;
  recall: number | null;
  /** FP / (FP + TN): how often a negative triggered its skill. */
  falsePositiveRate: number | null;
  accuracy: number | null;
  queriesPassed: number;
  /** Queries with at least one run scored (a capped lab may leave some without). */
  queries: number;
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
  /** Absent in results saved before issue 25. */
  overall?: TriggerOverall;
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
  /** The arm without skills ran too. */
  withoutSkills?: boolean;
  startedAt: string;
}

export interface TriggerLabProgress {
  labId: string;
  /** "a": the eval as is; "b": the ablation side; "none": the arm without skills. */
  side: LabSide;
  done: number;
  total: number;
  queryIndex: number;
  run: number;
  probe: ProbeRecord;
}

export type LabSide = "a" | "b" | "none";

/** What a lab or an optimization will cost, said before it starts (issue 25). */
export interface CostEstimate {
  /** Model calls it will make at most. */
  calls: number;
  /** Input tokens of one probe request, counted here (o200k_base). */
  inputTokensPerCall: number;
  /** The output allowance per call that the estimate assumes. */
  outputTokensPerCall: number;
  /** USD; null when the model has no row in the price table; 0 offline. */
  usd: number | null;
  /** Where the number comes from: the price row and its source, or why there is none. */
  basis: string;
}

/** Hard caps on a lab or optimization; when one is reached it stops cleanly and says so. */
export interface SpendCaps {
  maxCalls?: number;
  maxUsd?: number;
}

/** What was spent: calls made, and USD from reported usage (estimated where the provider reported none). */
export interface Spend {
  calls: number;
  usd: number;
  /** Calls whose cost is the estimate, not the provider's reported usage. */
  estimatedCalls: number;
}

/** One query of two saved lab results, side A of each (issue 25). */
export interface QueryComparison {
  query: string;
  expect: string;
  before?: boolean;
  after?: boolean;
  /** not_run: a cap stopped either lab before this query ran, so there is nothing to compare. */
  verdict: "fixed" | "regressed" | "still_failing" | "still_passing" | "added" | "removed" | "not_run";
}

export interface LabComparison {
  before: { labId: string; startedAt: string; file?: string };
  after: { labId: string; startedAt: string; file?: string };
  queries: QueryComparison[];
  counts: Record<QueryComparison["verdict"], number>;
}

export interface TriggerLabResult {
  info: TriggerLabRunInfo;
  a: TriggerLabSummary;
  b?: TriggerLabSummary;
  /** The arm without skills: the same probes with an empty skills index. */
  none?: TriggerLabSummary;
  /** Notes on the eval itself, e.g. no near-miss negatives. */
  notes?: string[];
  estimate?: CostEstimate;
  caps?: SpendCaps;
  spend?: Spend;
  /** Set when a cap or a stop ended the lab early: why, in one sentence. The results are partial. */
  stopped?: string;
  /** Against the result this lab replaced (its `.previous.summary.json`), per query. */
  comparison?: LabComparison;
  /** Files written next to the eval file (absent when they could not be written: see `saveError`). */
  files?: { jsonl: string; summary: string };
  saveError?: string;
  durationMs: number;
}

// ---- description optimizer (issue 25) ----

/** One iteration: a description and how many train and test queries it passed (run_loop.py's names). */
export interface OptimizeIteration {
  iteration: number;
  description: string;
  train_passed: number;
  train_total: number;
  test_passed: number;
  test_total: number;
}

/** Said before the first call: the split, the calls and what they will cost. */
export interface OptimizePlan {
  estimate: CostEstimate;
  probeCalls: number;
  improverCalls: number;
  trainSize: number;
  testSize: number;
  holdout: number;
  seed: number;
  iterations: number;
  runs: number;
  /** "provider / model" of the probes, and of the improver. */
  scorer: string;
  improver: string;
}

/** `eval optimize --json` (skill-creator's field names), plus what it cost. */
export interface OptimizeResult {
  original_description: string;
  best_description: string;
  /** The best description's test score, "passed/total" (null when no iteration finished). */
  best_score: string | null;
  best_train_score: string | null;
  best_test_score: string | null;
  iterations_run: number;
  holdout: number;
  train_size: number;
  test_size: number;
  exit_reason: string;
  history: OptimizeIteration[];
  estimate: CostEstimate;
  spend: Spend;
  skill: string;
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
