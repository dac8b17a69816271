// A lab's results, saved next to its eval file: `<name>.results.jsonl` (one line per probe: side,
// query, expectation, run, what the probe saw) and `<name>.summary.json` (the whole result). Each lab run
// replaces both; the summary it replaces is kept as `<name>.previous.summary.json`, and the new result
// carries the per-query comparison with it (compare.ts). A file that cannot be written is reported in the
// result, never thrown: the numbers are still shown.
import { randomBytes } from "node:crypto";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { errorMessage } from "../errors/index.ts";
import type { LabSide, TriggerLabResult, TriggerLabSummary } from "../protocol/trigger-lab.ts";
import { compareLabResults } from "./compare.ts";

export function resultPaths(evalFile: string): { jsonl: string; summary: string; previous: string } {
  const directory = path.dirname(evalFile);
  const base = path.basename(evalFile).replace(/\.(ya?ml|json)$/i, "");
  return {
    jsonl: path.join(directory, `${base}.results.jsonl`),
    summary: path.join(directory, `${base}.summary.json`),
    previous: path.join(directory, `${base}.previous.summary.json`),
  };
}

/** A saved summary (`*.summary.json`), or a reason it cannot be read as one. */
export async function readSavedResult(
  file: string,
): Promise<{ result?: TriggerLabResult; problem?: string }> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    return { problem: `${file}: cannot read it: ${errorMessage(error)}` };
  }
  try {
    const value = JSON.parse(text) as TriggerLabResult;
    if (!value?.info?.labId || !Array.isArray(value.a?.queries)) {
      return { problem: `${file}: not a trigger lab summary (no info.labId or a.queries)` };
    }
    return { result: value };
  } catch (error) {
    return { problem: `${file}: not valid JSON: ${errorMessage(error)}` };
  }
}

function probeLines(labId: string, side: LabSide, summary: TriggerLabSummary): string[] {
  return summary.queries.flatMap((query) =>
    query.probes.map((probe, index) =>
      JSON.stringify({
        labId,
        side,
        query: query.query,
        expect: query.expect,
        kind: query.kind,
        run: index + 1,
        ...probe,
      }),
    ),
  );
}

/**
 * Temp file + rename. The folder may belong to an untrusted workdir: the temp name is unguessable and is
 * created exclusively (`wx`), so a symlink planted there is never followed; rename replaces a link itself.
 */
export async function writeAtomically(file: string, text: string): Promise<void> {
  const temporary = `${file}.${randomBytes(8).toString("hex")}.tmp`;
  try {
    await writeFile(temporary, text, { encoding: "utf8", flag: "wx" });
    await rename(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") await rm(temporary, { force: true });
    throw error;
  }
}

export async function saveLabResult(result: TriggerLabResult): Promise<TriggerLabResult> {
  const { previous, ...files } = resultPaths(result.info.evalFile);
  const lines = [
    ...probeLines(result.info.labId, "a", result.a),
    ...(result.b ? probeLines(result.info.labId, "b", result.b) : []),
    ...(result.none ? probeLines(result.info.labId, "none", result.none) : []),
  ];
  try {
    const before = await readSavedResult(files.summary);
    let comparison = {};
    if (before.result) {
      const { comparison: _older, ...kept } = before.result;
      await writeAtomically(previous, `${JSON.stringify(kept, null, 2)}\n`);
      comparison = {
        comparison: compareLabResults(kept, result, { before: previous, after: files.summary }),
      };
    }
    await writeAtomically(files.jsonl, `${lines.join("\n")}\n`);
    const saved: TriggerLabResult = { ...result, ...comparison, files };
    await writeAtomically(files.summary, `${JSON.stringify(saved, null, 2)}\n`);
    return saved;
  } catch (error) {
    return {
      ...result,
      saveError: `could not save the results next to ${result.info.evalFile}: ${errorMessage(error)}`,
    };
  }
}
