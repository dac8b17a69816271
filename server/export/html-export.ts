// Session → one self-contained HTML file: inline style and one inline script, no network, no server. The
// chat, the inspector timeline, the disclosure lane and the settings are rendered here with the `markup`
// tag (html-markup.ts), which escapes every value it inserts, numbers included; the selected request's
// panes are drawn by the page's script from the JSON data block (textContent only).
// A strict CSP allows only that script and style (by hash): model text is untrusted, and an exported file
// is opened by people who never ran the playground.
import { createHash } from "node:crypto";
import type { ExportedSession } from "./exported-session.ts";
import { buildHtmlModel, type ChatEntry, type HtmlModel } from "./html-model.ts";
import { PAGE_SCRIPT } from "./html-script.ts";
import { PAGE_STYLE } from "./html-style.ts";
import { jsonForScript, markup, trusted, type Markup } from "./html-markup.ts";
import { markdownMarkup } from "./markdown.ts";

export { escapeHtml, jsonForScript } from "./html-markup.ts";

const PANES: [string, string][] = [
  ["stable", "Stable system"],
  ["environment", "Environment"],
  ["messages", "Messages"],
  ["tools", "Tools"],
  ["raw", "Raw"],
  ["diffs", "Diffs"],
  ["tokens", "Tokens & cache"],
];

function cspHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

function chatEntry(entry: ChatEntry): Markup {
  switch (entry.kind) {
    case "user":
      return markup`<li class="chat user"><div class="who">user${entry.detail && markup` · ${entry.detail}`}</div><pre>${entry.text}</pre></li>`;
    case "assistant": {
      const calls = (entry.calls ?? []).map(
        (call) => markup`<pre class="call">→ ${call.name}(${JSON.stringify(call.input)})</pre>`,
      );
      const link =
        entry.requestIndex !== undefined &&
        markup` <button type="button" class="link" data-request="${entry.requestIndex}" data-testid="export-chat-request-${entry.requestIndex}">request #${entry.requestIndex}</button>`;
      // The answer as Markdown (markdown.ts: every tag is marked's own formatting, nothing from the text).
      const answer = entry.text && markup`<div class="md">${markdownMarkup(entry.text)}</div>`;
      return markup`<li class="chat assistant"><div class="who">assistant${link}</div>${answer}${calls}</li>`;
    }
    case "tool": {
      // What the command wrote, as its tool card says it (shown outside the collapsed output).
      const written = entry.writes;
      const writes =
        written &&
        (written.why !== undefined
          ? markup`<p class="writes" data-testid="export-tool-writes-unknown">${written.summary}: ${written.why}</p>`
          : markup`<details class="writes" data-testid="export-tool-writes"><summary>${written.summary}</summary><ul>${written.rows.map((row) => markup`<li>${row}</li>`)}</ul></details>`);
      return markup`<li class="chat tool${entry.ok === false && " failed"}"><details><summary>${entry.detail ?? "tool result"}</summary><pre>${entry.text}</pre></details>${writes}</li>`;
    }
    default:
      return markup`<li class="chat ${entry.kind}">${entry.text}${entry.detail && markup` — ${entry.detail}`}</li>`;
  }
}

/** The request's tokens as the server counted them: prompt parts plus the conversation's messages. */
export function requestTokens(model: HtmlModel, index: number): number | undefined {
  const request = model.requests[index];
  if (!request.segments) return undefined;
  const parts = request.segments.reduce((sum, segment) => sum + (segment.tokens ?? 0), 0);
  // An isolated run's own messages have no figures in the log: only the prompt parts are counted then.
  if (request.messages) return parts;
  const messages = model.conversationTokens.slice(0, request.historyLength ?? 0);
  return parts + messages.reduce<number>((sum, tokens) => sum + (tokens ?? 0), 0);
}

function timeline(model: HtmlModel): Markup {
  if (model.requests.length === 0) return markup`<p>No model request in this session.</p>`;
  const items = model.requests.map((request, position) => {
    const calls = request.calls.map((call) => call.name).join(", ");
    const tokens = requestTokens(model, position);
    const usage = request.usage.find((entry) => entry.source !== "estimate");
    const figures = [
      tokens !== undefined ? `${tokens} tokens (${request.tokenizer ?? "tokenizer"})` : "",
      usage?.inputTokens !== undefined ? `provider: ${usage.inputTokens} in` : "",
      usage?.cacheReadInputTokens ? `${usage.cacheReadInputTokens} cache read` : "",
    ].filter(Boolean);
    if (request.cacheCheck?.verdict === "disagree") figures.push("reason ≠ provider");
    // A boolean, never a count: `markup` prints a 0 as "0" (it is a figure elsewhere), so a length used
    // as a condition would be glued to the iteration number.
    const prefixChanged =
      request.diff !== undefined &&
      (request.diff.stable !== undefined ||
        request.diff.toolsAdded.length > 0 ||
        request.diff.toolsRemoved.length > 0);
    const changed = prefixChanged && markup` <span class="warn">prefix changed</span>`;
    return markup`<li><button type="button" data-request="${request.index}" data-testid="export-request-${request.index}">#${request.index} · it. ${request.iteration}${changed}<br><small>${calls || (request.answer ? "answer" : "no answer")}${figures.length > 0 && ` · ${figures.join(" · ")}`}${request.stop && ` · stop: ${request.stop.reason}`}</small></button></li>`;
  });
  return markup`<ol class="timeline" data-testid="export-timeline">${items}</ol>`;
}

function lane(model: HtmlModel): Markup {
  if (model.lane.length === 0) return markup`<p>No skills in this session.</p>`;
  const rows = model.lane.map((row) => {
    const loaded = row.loadedAt !== undefined ? `loaded at request #${row.loadedAt}` : "never loaded";
    const visible =
      row.visibleFrom !== undefined
        ? `visible from request #${row.visibleFrom}`
        : row.tools.length
          ? "registered, not visible yet"
          : "—";
    return markup`<tr data-testid="export-lane-${row.skill}"><td>${row.skill}</td><td>${row.listed ? "listed" : "—"}</td><td>${loaded}</td><td>${row.tools.join(", ") || "—"}</td><td>${visible}</td><td>${row.resources.join(", ") || "—"}</td></tr>`;
  });
  return markup`<table class="lane" data-testid="export-lane"><thead><tr><th>skill</th><th>index</th><th>SOP</th><th>tools registered</th><th>tools visible</th><th>files read</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The session's cache figures after its last run, in Claude Code's terms (cache_stats). */
function cacheStatsSection(model: HtmlModel): Markup | undefined {
  const stats = model.cacheStats;
  if (!stats) return undefined;
  const cause = stats.last_miss_cause;
  const rows: [string, string][] = [
    [
      "figures from",
      stats.source === "mixed"
        ? `${stats.figures.reported} provider reports, ${stats.figures.predicted} predictions`
        : stats.source,
    ],
    ["hit_ratio", stats.hit_ratio === null ? "—" : `${(stats.hit_ratio * 100).toFixed(1)} %`],
    ["misses", `${stats.misses} of ${stats.requests} requests`],
    [
      "last_miss_cause",
      cause
        ? `${cause.causes.join("+")} at request #${cause.request} (${cause.source}; tools +${cause.tools_added} −${cause.tools_removed}, system ${cause.system_char_delta} chars)`
        : "—",
    ],
    ["expected_rebuilds", String(stats.expected_rebuilds)],
    ["disagreements", String(stats.disagreements)],
    ["recache_tokens_if_cold", String(stats.recache_tokens_if_cold ?? "—")],
    ["expires_at", stats.expires_at ? `${stats.expires_at} (${stats.ttl} TTL)` : "nothing cached"],
  ];
  const cells = rows.map(([key, value]) => markup`<tr><th>${key}</th><td>${value}</td></tr>`);
  return markup`<section><h2>Prompt cache (session)</h2><table data-testid="export-cache-stats">${cells}</table></section>`;
}

function settingsTable(model: HtmlModel): Markup {
  const entries: [string, unknown][] = [
    ["session", model.id],
    ["created", model.createdAt],
    ...Object.entries(model.settings),
    ...(model.sandbox !== undefined ? [["sandbox", model.sandbox] as [string, unknown]] : []),
    ...(model.trust !== undefined ? [["folder trust", model.trust] as [string, unknown]] : []),
  ];
  const rows = entries.map(
    ([key, value]) =>
      markup`<tr><th>${key}</th><td>${typeof value === "string" ? value : JSON.stringify(value)}</td></tr>`,
  );
  const changes = model.settingsChanges.map(
    (change) => markup`<li>${change.at}: ${JSON.stringify(change.settings)}</li>`,
  );
  return markup`<table data-testid="export-settings">${rows}</table>${changes.length > 0 && markup`<p>Changed during the session:</p><ul>${changes}</ul>`}`;
}

/**
 * What the page's script needs to draw the panes. The chat, the lane, the settings and each request's
 * calls are already in the page as HTML, so they are left out here: the file does not carry them twice.
 */
export function paneData(model: HtmlModel) {
  return {
    id: model.id,
    title: model.title,
    blobs: model.blobs,
    conversation: model.conversation,
    conversationTokens: model.conversationTokens,
    requests: model.requests.map(({ calls: _calls, answer: _answer, listedSkills: _listed, ...request }) => ({
      ...request,
      // A hash prefix tells segments apart on screen; the full hashes are in the JSONL export.
      ...(request.segments
        ? { segments: request.segments.map((segment) => ({ ...segment, hash: segment.hash.slice(0, 12) })) }
        : {}),
    })),
  };
}

/** The whole page for a saved session. `exportedAt` is a parameter so the output is reproducible. */
export function sessionToHtml(session: ExportedSession, exportedAt = new Date().toISOString()): string {
  const model = buildHtmlModel(session);
  const csp = [
    "default-src 'none'",
    `script-src ${cspHash(PAGE_SCRIPT)}`,
    `style-src ${cspHash(PAGE_STYLE)}`,
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
  const replay =
    model.settings.provider !== "scripted"
      ? ""
      : model.settings.replayOf
        ? " (replay of a recorded session)"
        : " (scripted model)";
  const warnings =
    model.warnings.length > 0 &&
    markup`<section class="warnings"><h2>Damaged parts of the log</h2><ul>${model.warnings.map((warning) => markup`<li>${warning}</li>`)}</ul></section>`;
  const tabs = PANES.map(
    ([pane, label]) =>
      markup`<button type="button" role="tab" data-pane="${pane}" data-testid="export-pane-tab-${pane}">${label}</button>`,
  );
  return markup`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${model.title} — PseudoClaude Playground session</title>
<style>${trusted(PAGE_STYLE)}</style>
</head>
<body>
<header data-testid="export-header"><strong>PseudoClaude Playground</strong> · <span data-testid="export-title">${model.title}</span>
· ${model.settings.provider}/${model.settings.model}${replay} · ${model.requests.length} request(s)
<small>exported ${exportedAt}; keys and the server token redacted</small></header>
${warnings}
<main>
<section class="chat-column"><h2>Chat</h2><ol class="chat-list" data-testid="export-chat">${model.chat.map(chatEntry)}</ol></section>
<section class="inspector"><h2>Inspector</h2>${timeline(model)}
<nav class="tabs" role="tablist">${tabs}</nav>
<div id="pane" data-testid="export-pane"><noscript>The panes need JavaScript; the data is in the session-data block of this file.</noscript></div>
</section>
</main>
${cacheStatsSection(model)}
<section><h2>Disclosure lane</h2>${lane(model)}</section>
<section><h2>Run settings</h2>${settingsTable(model)}</section>
<script type="application/json" id="session-data">${trusted(jsonForScript(paneData(model)))}</script>
<script>${trusted(PAGE_SCRIPT)}</script>
</body>
</html>
`.text;
}
