// How a tool result's truncation flags read, for the chat's tool-call cards and the tool console alike
// (a module of its own, so a chat card does not pull the console and its form into the first-load JS).
import type { ToolResultMetadata } from "../../server/protocol/index.ts";

/** The truncation flags the process runner and output cap put in a result's metadata, as readable notes. */
export function truncationNotes(metadata: ToolResultMetadata | undefined): string[] {
  if (!metadata) return [];
  const notes: string[] = [];
  if (metadata.stdoutTruncated)
    notes.push(`stdout truncated (${String(metadata.stdoutBytes ?? "?")} bytes produced)`);
  if (metadata.stderrTruncated)
    notes.push(`stderr truncated (${String(metadata.stderrBytes ?? "?")} bytes produced)`);
  if (metadata.modelTruncated)
    notes.push(`model's copy capped (${String(metadata.omittedChars ?? "?")} chars omitted)`);
  if (metadata.truncated) notes.push("output truncated");
  return notes;
}
