// The catalog budget (issue 14 item 4): real clients trim the skill listing they put in front of the
// model. This pure function predicts, for a client profile and a context window, which descriptions of a
// catalog would be cut or dropped. It is a model of the clients' published rules, not their code: the UI
// and the stable system call it a prediction.
//
// Sources (checked with the search tool when this was written):
// - Claude Code: https://code.claude.com/docs/en/skills — the skill listing gets about 1% of the context
//   window (setting `skillListingBudgetFraction`, default 0.01; `SLASH_COMMAND_TOOL_CHAR_BUDGET` pins it),
//   8,000 characters when the window is not known, and each entry's description (+ when_to_use) is cut at
//   1,536 characters (`skillListingMaxDescChars`). Over the budget it drops descriptions, least-used
//   skills first, and keeps the names. Restated by https://pypi.org/project/claude-skills-doctor/ and
//   https://getknack.ai/blog/claude-code-skill-listing-budget.
// - Codex: openai/codex `codex-rs/core-skills/src/render.rs` (PR #18298, "Add skill metadata budget
//   handling"): `SKILL_METADATA_CONTEXT_WINDOW_PERCENT = 2` of the window in approximate tokens (UTF-8
//   bytes / 4, rounded up), `DEFAULT_SKILL_METADATA_CHAR_BUDGET = 8_000` characters when the window is
//   unknown; over the budget descriptions are shortened, and when even names do not fit, skills are
//   omitted and the listing says which.
import type { BudgetEntry, CatalogBudgetReport, ClientProfileName } from "../protocol/trigger-lab.ts";
import { byName } from "../protocol/names.ts";
import { formatCount } from "../shared/figures.ts";

export const CLIENT_PROFILES: readonly ClientProfileName[] = ["claude-code", "codex"];

export const CLAUDE_CODE_WINDOW_FRACTION = 0.01;
export const CLAUDE_CODE_FALLBACK_CHARS = 8_000;
export const CLAUDE_CODE_ENTRY_CHARS = 1_536;
/** Claude Code's budget is in characters; a window in tokens is turned into characters at this rate. */
export const CHARS_PER_TOKEN = 4;
export const CODEX_WINDOW_PERCENT = 2;
export const CODEX_FALLBACK_CHARS = 8_000;
/** Codex's approximate token: UTF-8 bytes / 4, rounded up. */
export const CODEX_BYTES_PER_TOKEN = 4;

const CLAUDE_CODE_SOURCES = [
  "https://code.claude.com/docs/en/skills (skillListingBudgetFraction 0.01, 8,000-char fallback, skillListingMaxDescChars 1,536)",
];
const CODEX_SOURCES = [
  "https://github.com/openai/codex/pull/18298 codex-rs/core-skills/src/render.rs (2% of the window in bytes/4 tokens, 8,000 chars otherwise)",
];

export interface BudgetItem {
  name: string;
  description: string;
}

export interface CatalogBudgetInput {
  items: readonly BudgetItem[];
  profile: ClientProfileName;
  /** Context window in tokens; absent or 0: unknown (the clients' character fallback applies). */
  contextWindow?: number;
}

/** The same folding the stable system's index applies (one line per skill). */
export function foldDescription(description: string): string {
  return description.replace(/\s+/g, " ").trim();
}

/** The playground's index line for a skill; a dropped description keeps the name. */
export function listingLine(name: string, shown: string): string {
  return shown === "" ? `- ${name}` : `- ${name}: ${shown}`;
}

type Cost = (text: string) => number;

const charCost: Cost = (text) => [...text].length;
const approxTokenCost: Cost = (text) => Math.ceil(Buffer.byteLength(text, "utf8") / CODEX_BYTES_PER_TOKEN);

function firstChars(text: string, count: number): string {
  return [...text].slice(0, count).join("");
}

interface Working {
  name: string;
  folded: string;
  shown: string;
  listed: boolean;
  reason?: string;
}

function lineCost(entry: Working, cost: Cost): number {
  return entry.listed ? cost(`${listingLine(entry.name, entry.shown)}\n`) : 0;
}

function total(entries: readonly Working[], cost: Cost): number {
  return entries.reduce((sum, entry) => sum + lineCost(entry, cost), 0);
}

function toEntry(entry: Working): BudgetEntry {
  const descriptionChars = [...entry.folded].length;
  const shownChars = [...entry.shown].length;
  const status =
    !entry.listed || (shownChars === 0 && descriptionChars > 0)
      ? "dropped"
      : shownChars < descriptionChars
        ? "cut"
        : "full";
  return {
    name: entry.name,
    status,
    listed: entry.listed,
    descriptionChars,
    shownChars,
    shown: entry.shown,
    ...(entry.reason ? { reason: entry.reason } : {}),
  };
}

function claudeCode(working: Working[], contextWindow: number | undefined) {
  const limit = contextWindow
    ? Math.floor(contextWindow * CLAUDE_CODE_WINDOW_FRACTION * CHARS_PER_TOKEN)
    : CLAUDE_CODE_FALLBACK_CHARS;
  const derivation = contextWindow
    ? `1% of ${formatCount(contextWindow)} tokens × ${CHARS_PER_TOKEN} chars/token`
    : "8,000-character fallback (context window unknown)";
  for (const entry of working) {
    if ([...entry.folded].length > CLAUDE_CODE_ENTRY_CHARS) {
      entry.shown = firstChars(entry.folded, CLAUDE_CODE_ENTRY_CHARS);
      entry.reason = `description over ${formatCount(CLAUDE_CODE_ENTRY_CHARS)} characters per entry`;
    }
  }
  // Over the budget: descriptions go, names stay. Claude Code drops the least-used skills first; the
  // playground has no usage history, so it drops from the end of the name-sorted listing.
  for (let index = working.length - 1; index >= 0 && total(working, charCost) > limit; index -= 1) {
    const entry = working[index];
    if (entry.shown === "") continue;
    entry.shown = "";
    entry.reason = "listing over budget: description dropped, name kept";
  }
  return {
    limit,
    unit: "chars" as const,
    derivation,
    cost: charCost,
    sources: CLAUDE_CODE_SOURCES,
    note: "Claude Code drops the descriptions of the least-used skills first; without a usage history this prediction drops from the end of the name-sorted listing.",
  };
}

function codex(working: Working[], contextWindow: number | undefined) {
  const tokens = Boolean(contextWindow);
  const limit = contextWindow
    ? Math.max(1, Math.floor((contextWindow * CODEX_WINDOW_PERCENT) / 100))
    : CODEX_FALLBACK_CHARS;
  const cost = tokens ? approxTokenCost : charCost;
  const derivation = contextWindow
    ? `2% of ${formatCount(contextWindow)} tokens (a token ≈ ${CODEX_BYTES_PER_TOKEN} UTF-8 bytes)`
    : "8,000-character fallback (context window unknown)";
  const full = total(working, cost);
  if (full > limit) {
    const minimum = working.reduce((sum, entry) => sum + cost(`${listingLine(entry.name, "")}\n`), 0);
    if (minimum <= limit) {
      // Shorten every description by the same proportion until the listing fits.
      let ratio = Math.min(1, (limit - minimum) / Math.max(1, full - minimum));
      for (let step = 0; step < 200; step += 1) {
        for (const entry of working) {
          const length = [...entry.folded].length;
          entry.shown = firstChars(entry.folded, Math.floor(length * ratio)).trimEnd();
          entry.reason =
            entry.shown.length < entry.folded.length
              ? "listing over budget: every description shortened"
              : undefined;
        }
        if (total(working, cost) <= limit || ratio <= 0) break;
        ratio = Math.max(0, ratio - 0.01);
      }
    } else {
      // Not even the names fit: descriptions go, and skills past the budget are not listed at all.
      let used = 0;
      for (const entry of working) {
        entry.shown = "";
        const line = cost(`${listingLine(entry.name, "")}\n`);
        if (used + line <= limit) {
          used += line;
          entry.reason = "names alone fill the budget: description removed";
        } else {
          entry.listed = false;
          entry.reason = "over budget: not listed at all";
        }
      }
    }
  }
  return {
    limit,
    unit: tokens ? ("approx_tokens" as const) : ("chars" as const),
    derivation,
    cost,
    sources: CODEX_SOURCES,
    note: "Codex orders skills by scope before trimming; this prediction keeps the playground's name order.",
  };
}

/** Which descriptions a client would cut or drop from this catalog's listing (a prediction from its rules). */
export function catalogBudget(input: CatalogBudgetInput): CatalogBudgetReport {
  const contextWindow = input.contextWindow && input.contextWindow > 0 ? input.contextWindow : undefined;
  const working: Working[] = [...input.items].sort(byName).map((item) => {
    const folded = foldDescription(item.description);
    return { name: item.name, folded, shown: folded, listed: true };
  });
  const fullCopy = working.map((entry) => ({ ...entry }));
  const rules =
    input.profile === "codex" ? codex(working, contextWindow) : claudeCode(working, contextWindow);
  return {
    profile: input.profile,
    ...(contextWindow ? { contextWindow } : {}),
    limit: rules.limit,
    unit: rules.unit,
    derivation: rules.derivation,
    used: total(working, rules.cost),
    fullCost: total(fullCopy, rules.cost),
    entries: working.map(toEntry),
    sources: rules.sources,
    note: rules.note,
  };
}

/** One line for the stable system and the CLI: what the budget did, naming every skill it touched. */
export function describeBudget(report: CatalogBudgetReport): string {
  const unit = report.unit === "chars" ? "characters" : "approximate tokens";
  const head = `Listing budget (${report.profile} rules, ${report.derivation}): ${formatCount(report.limit)} ${unit}; the full listing needs ${formatCount(report.fullCost)}.`;
  const cut = report.entries.filter((entry) => entry.status === "cut").map((entry) => entry.name);
  const dropped = report.entries
    .filter((entry) => entry.status === "dropped" && entry.listed)
    .map((entry) => entry.name);
  const unlisted = report.entries.filter((entry) => !entry.listed).map((entry) => entry.name);
  const parts: string[] = [];
  if (cut.length > 0) parts.push(`descriptions cut: ${cut.join(", ")}`);
  if (dropped.length > 0) parts.push(`descriptions dropped: ${dropped.join(", ")}`);
  if (unlisted.length > 0) parts.push(`not listed: ${unlisted.join(", ")}`);
  return parts.length === 0 ? `${head} Nothing was trimmed.` : `${head} Trimmed — ${parts.join("; ")}.`;
}
