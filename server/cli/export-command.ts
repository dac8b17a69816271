// `cli export SESSION_ID --format html|jsonl|scenario [--out FILE] [--home DIR]`: a saved session (from
// `run --save` or the browser) as one file, written to stdout or to FILE.
import { writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { PlaygroundError } from "../errors/index.ts";
import { exportSession, isExportFormat, readExportedSession } from "../export/index.ts";
import type { CliArguments } from "./args.ts";
import type { CliIo } from "./io.ts";

export async function exportCommand(args: CliArguments, io: CliIo): Promise<number> {
  const format = args.format ?? "";
  if (!isExportFormat(format)) throw new PlaygroundError("invalid_arguments", `unknown format "${format}"`);
  const home = args.home ?? homedir();
  const session = await readExportedSession(home, args.sessionId!);
  for (const warning of session.warnings) io.stderr(`warning: ${warning}\n`);
  const file = exportSession(session, format);
  const target = args.out;
  if (!target) {
    io.stdout(file.text);
    return 0;
  }
  await writeFile(target, file.text, { mode: 0o600 });
  io.stderr(`wrote ${target} (${Buffer.byteLength(file.text)} bytes, ${format})\n`);
  return 0;
}
