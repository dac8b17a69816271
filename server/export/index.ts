// Exporting a saved session: as its JSONL log (format 3, as read), one self-contained HTML page, a
// scenario YAML the scripted model replays, or an OpenTelemetry trace (OTLP/JSON). Used by `cli export`
// and the browser's session menu.
import { PlaygroundError } from "../errors/index.ts";
import { sessionToHtml } from "./html-export.ts";
import { sessionToScenario } from "./scenario-export.ts";
import { sessionToOtlp, type OtlpExportOptions } from "./otlp-trace.ts";
import { redactServerTokens, type ExportedSession } from "./exported-session.ts";
import { sessionFileStem } from "../session/session-summary.ts";
import { LOG_FORMAT_VERSION } from "../session/session-log.ts";

export { readExportedSession, parseExportedLog, type ExportedSession } from "./exported-session.ts";
export { sessionToHtml } from "./html-export.ts";
export { sessionToScenario } from "./scenario-export.ts";
export { sessionToOtlp } from "./otlp-trace.ts";
export { postOtlpTrace } from "./otlp-post.ts";

export const EXPORT_FORMATS = ["jsonl", "html", "scenario", "otlp"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportedFile {
  fileName: string;
  mimeType: string;
  text: string;
}

export function isExportFormat(value: string): value is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(value);
}

/**
 * The JSONL log in format 3, whatever format it was written in: the header, then every event as the wire
 * carries it (each text and JSON value once, by its sha256: server/protocol/request-model.ts), and the
 * lines that could not be read where they stood, as written (redacted): a download drops nothing.
 */
function sessionToJsonl(session: ExportedSession): string {
  const lines = [JSON.stringify({ ...session.header, version: LOG_FORMAT_VERSION })];
  const skipped = [...session.skipped];
  const skippedAfter = (seq: number) => {
    while (skipped.length > 0 && skipped[0].afterSeq <= seq) lines.push(skipped.shift()!.text);
  };
  skippedAfter(0);
  for (const record of session.events) {
    lines.push(JSON.stringify({ kind: "event", ...record }));
    skippedAfter(record.seq);
  }
  lines.push(...skipped.map((line) => line.text));
  return redactServerTokens(`${lines.join("\n")}\n`);
}

export function exportSession(
  session: ExportedSession,
  format: ExportFormat,
  options: OtlpExportOptions = {},
): ExportedFile {
  // Named after the session (its title and short id), not the time its id starts with.
  const stem = sessionFileStem(session.header.title, session.header.id);
  switch (format) {
    case "jsonl":
      return { fileName: `${stem}.jsonl`, mimeType: "application/x-ndjson", text: sessionToJsonl(session) };
    case "html":
      return { fileName: `${stem}.html`, mimeType: "text/html", text: sessionToHtml(session) };
    case "scenario":
      return {
        fileName: `${stem}.scenario.yaml`,
        mimeType: "application/yaml",
        text: sessionToScenario(session),
      };
    case "otlp":
      return {
        fileName: `${stem}.otlp.json`,
        mimeType: "application/json",
        text: `${redactServerTokens(JSON.stringify(sessionToOtlp(session, options)))}\n`,
      };
    default: {
      const unknown: never = format;
      throw new PlaygroundError("invalid_arguments", `unknown export format "${String(unknown)}"`);
    }
  }
}
