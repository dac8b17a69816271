// `cli export SESSION_ID --format html|jsonl|scenario|otlp [--out FILE] [--home DIR] [--include-content]
// [--endpoint URL]`: a saved session (from `run --save` or the browser) as one file, written to stdout or
// to FILE; an OTLP trace may instead be posted to a collector.
import { writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { PlaygroundError } from "../errors/index.ts";
import {
  exportSession,
  isExportFormat,
  postOtlpTrace,
  readExportedSession,
  sessionToOtlp,
} from "../export/index.ts";
import type { CliArguments } from "./args.ts";
import type { CliIo, CliRoot } from "./io.ts";

export async function exportCommand(args: CliArguments, io: CliIo, root: CliRoot): Promise<number> {
  const format = args.format ?? "";
  if (!isExportFormat(format)) throw new PlaygroundError("invalid_arguments", `unknown format "${format}"`);
  const home = args.home ?? homedir();
  const session = await readExportedSession(home, args.sessionId!, root.secrets);
  for (const warning of session.warnings) io.stderr(`warning: ${warning}\n`);
  const options = { includeContent: args.includeContent === true };
  if (args.endpoint) {
    const trace = sessionToOtlp(session, options);
    const spans = trace.resourceSpans.reduce(
      (sum, resource) => sum + resource.scopeSpans.reduce((count, scope) => count + scope.spans.length, 0),
      0,
    );
    const posted = await postOtlpTrace(args.endpoint, trace, io.env);
    io.stderr(
      `posted ${spans} spans (${posted.bytes} bytes) to ${posted.url}: ${posted.status}${posted.partial ? ` (${posted.partial})` : ""}\n`,
    );
    return 0;
  }
  const file = exportSession(session, format, options);
  const target = args.out;
  if (!target) {
    io.stdout(file.text);
    return 0;
  }
  await writeFile(target, file.text, { mode: 0o600 });
  io.stderr(`wrote ${target} (${Buffer.byteLength(file.text)} bytes, ${format})\n`);
  return 0;
}
