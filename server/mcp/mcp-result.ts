// An MCP `tools/call` result as a tool result: text blocks are the model's text; structured content is
// added as JSON when no text block already carries it; resource links and embedded resources are named
// with their URI; images (and audio) are described to the model in words and kept, within a budget, for
// the UI (metadata.mcp). A result with `isError` is a failure the model reads.
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
    const json = JSON.stringify(result.structuredContent, null, 2);
    // Servers should also put it in a text block (the spec's advice); when they did, do not repeat it.
    const compact = JSON.stringify(result.structuredContent);
    if (!parts.some((part) => part.trim() === json.trim() || part.trim() === compact))
      parts.push(`Structured content:\n${json}`);
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
