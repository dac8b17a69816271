// What an MCP tool result carried besides its text (metadata.mcp): images shown as images (the model got
// a description in words), resource links with their URI, structured content as JSON.
"use client";
import type { McpResultDetails, ToolResultMetadata } from "../../server/protocol/index.ts";
import { Pre, formatJson } from "./ui.tsx";

/** Only data URLs of image types are rendered (the CSP allows `img-src data:`), never anything else. */
const IMAGE_TYPE = /^image\/(png|jpeg|gif|webp)$/;

export function mcpDetails(metadata: ToolResultMetadata | undefined): McpResultDetails | undefined {
  const details = metadata?.mcp as Partial<McpResultDetails> | undefined;
  return details && Array.isArray(details.images) ? (details as McpResultDetails) : undefined;
}

export function McpResultView({ metadata }: { metadata: ToolResultMetadata | undefined }) {
  const details = mcpDetails(metadata);
  if (!details) return null;
  const images = details.images.filter((image) => IMAGE_TYPE.test(image.mimeType));
  if (images.length === 0 && details.resourceLinks.length === 0 && details.structuredContent === undefined)
    return null;
  return (
    <div className="mt-1 space-y-1 text-xs" data-testid="mcp-result">
      {images.length > 0 && (
        <div className="flex flex-wrap gap-1">
          {images.map((image, index) => (
            <img
              key={index}
              src={`data:${image.mimeType};base64,${image.data}`}
              alt={`image ${index + 1} from ${details.server} (${image.mimeType}); the model was told it exists, not what it shows`}
              title="The model gets a description of this image, not the image"
              className="max-h-32 rounded border border-slate-200 bg-white"
              data-testid="mcp-result-image"
            />
          ))}
        </div>
      )}
      {details.droppedImages ? (
        <p className="text-amber-800">{details.droppedImages} more image(s) too large to show</p>
      ) : null}
      {details.resourceLinks.length > 0 && (
        <ul className="list-disc pl-4" data-testid="mcp-result-links">
          {details.resourceLinks.map((link) => (
            <li key={link.uri}>
              <span className="font-semibold">{link.name ?? link.uri}</span>{" "}
              <span className="font-mono break-all text-slate-600">{link.uri}</span>
              {link.mimeType ? ` (${link.mimeType})` : ""}
              {link.description ? ` — ${link.description}` : ""}
            </li>
          ))}
        </ul>
      )}
      {details.structuredContent !== undefined && (
        <details>
          <summary className="cursor-pointer">structured content</summary>
          <Pre text={formatJson(details.structuredContent)} testId="mcp-result-structured" />
        </details>
      )}
    </div>
  );
}
