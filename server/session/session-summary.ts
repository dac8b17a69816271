// The one place a session's summary (the session list, session_opened) is computed: a fold over the
// session's logged events, from its log header on. A live session folds each event it emits; the hub
// folds the log of a closed one. Either way the same events give the same summary.
import type { StreamInput } from "./request-writer.ts";
import type { FolderTrust } from "../protocol/sandbox.ts";
import type { SessionSettings, SessionSummary } from "../protocol/wire.ts";
import { trustWorthShowing } from "../permission/trust.ts";
import { sandboxState } from "../tools/sandbox.ts";
import type { BranchOrigin } from "../protocol/branch.ts";

/** The title of a session before its first user message (also the log header's). */
export const UNTITLED_SESSION = "New session";
const TITLE_CHARS = 80;

/**
 * A session's title is the first line the user typed: for a slash invocation that is `/skill args`, not
 * the SOP the playground sends below it. Whitespace is collapsed; a cut is marked with "…".
 */
export function titleFrom(message: string): string {
  const line = message
    .split("\n")
    .map((text) => text.replace(/\s+/g, " ").trim())
    .find((text) => text.length > 0);
  if (!line) return UNTITLED_SESSION;
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}

/** The part of a session id a person tells sessions apart by: its random tail (ids start with a time). */
export function shortSessionId(id: string): string {
  return id.split("-").pop() || id;
}

/**
 * A file name for a session's export, after the session: its title as a slug, then its short id (titles
 * repeat), e.g. `csv-report-data-sales-csv-2e8742d9`. Never a path: only [a-z0-9-].
 */
export function sessionFileStem(title: string, id: string): string {
  const slug = title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  const short = shortSessionId(id)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "");
  return [slug || "session", short].filter(Boolean).join("-");
}

export interface SummaryHeader {
  id: string;
  createdAt: string;
  settings: SessionSettings;
  /** The log header's title; the first user message replaces the untitled one. */
  title?: string;
  /** A branch's origin (its log header's). */
  branch?: BranchOrigin;
}

export class SessionSummaryFold {
  private title: string;
  private settings: SessionSettings;
  private messageCount = 0;
  private trust: FolderTrust | undefined;
  private updatedAt: string;

  constructor(private readonly header: SummaryHeader) {
    this.title = header.title ?? UNTITLED_SESSION;
    this.settings = header.settings;
    this.updatedAt = header.createdAt;
  }

  /** One event of the session, in order; `at` (when it was emitted or logged) moves updatedAt. */
  observe(event: StreamInput, at?: string): void {
    if (at !== undefined) this.updatedAt = at;
    switch (event.type) {
      case "history_appended":
        this.messageCount++;
        if (this.title === UNTITLED_SESSION && event.message.role === "user")
          this.title = titleFrom(event.message.content);
        return;
      case "settings_changed":
        this.settings = event.settings;
        return;
      case "trust_state":
        this.trust = event.trust;
        return;
      default:
        return;
    }
  }

  /**
   * The summary now. `running` and the engine's current `trust` come from a live session (a closed one is
   * not running, and its trust is the last one logged).
   */
  summary(live: { running: boolean; trust?: FolderTrust } = { running: false }): SessionSummary {
    const trust = live.trust ?? this.trust;
    return {
      id: this.header.id,
      title: this.title,
      createdAt: this.header.createdAt,
      updatedAt: this.updatedAt,
      settings: { ...this.settings },
      messageCount: this.messageCount,
      running: live.running,
      ...(trustWorthShowing(trust) ? { trust } : {}),
      sandbox: sandboxState(this.settings.allowNetwork === true),
      ...(this.header.branch ? { branch: this.header.branch } : {}),
    };
  }
}
