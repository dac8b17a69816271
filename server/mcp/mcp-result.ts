// An MCP `tools/call` result as a tool result: text blocks are the model's text; structured content is
// added as JSON only when it adds to that text (see `repeatsText`: servers are told to put it in a text
// block too, and a file read through a filesystem server came twice, cut in the middle by the output cap);
// it is kept whole for the UI either way. The output cap applies once, to the joined text, in the Runner.
// Resource links and embedded resources are named
// with their URI; images (and audio) are described to the model in words and kept, within a budget, for
// the UI (metadata.mcp). A result with `isError` is a failure the model reads.
import { isDeepStrictEqual } from "node:util";
import type { McpResultDetails } from "../protocol/mcp.ts";
import type { ToolExecution } from "../tools/types.ts";
import { failResult, okResult } from "../tools/types.ts";

/** Base64 characters of images kept for the UI per result; more are described but dropped. */
export const IMAGE_BUDGET_CHARS = 512 * 1024;

/** A content block as the SDK's result schema admits it (loosely: servers send what they send). */
type Block = { type?: unknown; [key: string]: unknown };

export interface CallResultLike {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
  toolResult?: unknown;
}

function approximateBytes(base64: string): number {
  return Math.floor((base64.length * 3) / 4);
}

export function renderCallResult(
  registryName: string,
  origin: { server: string; tool: string },
  result: CallResultLike,
): ToolExecution {
  const blocks: Block[] = Array.isArray(result.content) ? (result.content as Block[]) : [];
  const parts: string[] = [];
  const details: McpResultDetails = {
    server: origin.server,
    tool: origin.tool,
    isError: result.isError === true,
    images: [],
    resourceLinks: [],
  };
  let imageChars = 0;
  let dropped = 0;
  for (const block of blocks) {
    const type = typeof block.type === "string" ? block.type : "unknown";
    if (type === "text") {
      parts.push(String(block.text ?? ""));
    } else if (type === "image" || type === "audio") {
      const data = typeof block.data === "string" ? block.data : "";
      const mimeType = typeof block.mimeType === "string" ? block.mimeType : "application/octet-stream";
      const kept = type === "image" && imageChars + data.length <= IMAGE_BUDGET_CHARS;
      if (kept) {
        details.images.push({ mimeType, data });
        imageChars += data.length;
      } else if (type === "image") dropped += 1;
      parts.push(
        `[${type}: ${mimeType}, ${approximateBytes(data)} bytes${type === "image" ? (kept ? " — shown to the user in the playground" : " — too large to show") : ""}; its content is not visible to you]`,
      );
    } else if (type === "resource_link") {
      const link = {
        uri: String(block.uri ?? ""),
        ...(typeof block.name === "string" ? { name: block.name } : {}),
        ...(typeof block.mimeType === "string" ? { mimeType: block.mimeType } : {}),
        ...(typeof block.description === "string" ? { description: block.description } : {}),
      };
      details.resourceLinks.push(link);
      parts.push(
        `[resource link: ${link.name ?? link.uri} <${link.uri}>${link.mimeType ? ` (${link.mimeType})` : ""}${link.description ? ` — ${link.description}` : ""}]`,
      );
    } else if (type === "resource") {
      const resource = (block.resource ?? {}) as Record<string, unknown>;
      const uri = String(resource.uri ?? "");
      if (typeof resource.text === "string") parts.push(`[resource ${uri}]\n${resource.text}`);
      else {
        const blob = typeof resource.blob === "string" ? resource.blob : "";
        parts.push(
          `[resource ${uri}: ${String(resource.mimeType ?? "binary")}, ${approximateBytes(blob)} bytes, not shown]`,
        );
      }
    } else {
      parts.push(`[${type} content not shown]`);
    }
  }
  if (dropped > 0) details.droppedImages = dropped;
  if (result.structuredContent !== undefined) {
    details.structuredContent = result.structuredContent;
    if (!repeatsText(result.structuredContent, parts))
      parts.push(`Structured content:\n${JSON.stringify(result.structuredContent, null, 2)}`);
  }
  // Old servers (protocol 2024-10-07) answer `toolResult` instead of content.
  if (blocks.length === 0 && result.toolResult !== undefined)
    parts.push(JSON.stringify(result.toolResult, null, 2));
  const text = parts.join("\n");
  const metadata = { mcp: details };
  if (details.isError) {
    return {
      result: failResult(
        registryName,
        "command_failed",
        text || `${registryName} reported an error`,
        metadata,
      ),
    };
  }
  return { result: okResult(registryName, text, metadata) };
}

/** Leaf values checked at most; structured content with more is shown (the check would cost more). */
const MAX_LEAVES_CHECKED = 2_000;

/**
 * Whether structured content adds nothing to the text blocks: one of them is the same value as JSON, or
 * every leaf value of it (string, number, boolean) already appears in the text. Key names alone are not
 * worth repeating a whole result for.
 */
export function repeatsText(structured: unknown, parts: readonly string[]): boolean {
  for (const part of parts) {
    const trimmed = part.trim();
    if (!/^[[{]/.test(trimmed)) continue;
    try {
      if (isDeepStrictEqual(JSON.parse(trimmed), structured)) return true;
    } catch {
      // Not JSON: compared by its leaf values below.
    }
  }
  const leaves: string[] = [];
  if (!collectLeaves(structured, leaves)) return false;
  const text = parts.join("\n");
  return leaves.every((leaf) => text.includes(leaf));
}

/** Adds the leaf values of `value` as text; false when there are more than MAX_LEAVES_CHECKED. */
function collectLeaves(value: unknown, leaves: string[]): boolean {
  if (typeof value === "string") {
    if (value !== "") leaves.push(value);
  } else if (typeof value === "number" || typeof value === "boolean") leaves.push(String(value));
  else if (Array.isArray(value)) return value.every((item) => collectLeaves(item, leaves));
  else if (typeof value === "object" && value !== null)
    return Object.values(value).every((item) => collectLeaves(item, leaves));
  return leaves.length <= MAX_LEAVES_CHECKED;
}
