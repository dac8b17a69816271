// The fetch of a Streamable HTTP MCP server with the stdio transport's message limit (S19). The SDK reads a
// JSON answer whole and an event stream event by event, with no limit on either: a server that sent a
// gigabyte, or an event without end, would have held it all in this process's memory until it ran out.
// Here the body is counted as it arrives — a JSON body as one message, an event stream per event (bytes
// since the last blank line) — and past the limit the body fails with the reason, which `onLimit` hears
// once, so the connection stops that server.
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";

export interface BoundedFetchOptions {
  maxMessageBytes: number;
  /** Called once, the first time a body passes the limit. */
  onLimit(reason: string): void;
  fetch?: FetchLike;
}

export function boundedFetch(options: BoundedFetchOptions): FetchLike {
  const base = options.fetch ?? fetch;
  let reported = false;
  const limitText = `${options.maxMessageBytes / (1024 * 1024)} MiB`;
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.body) return response;
    const perEvent = (response.headers.get("content-type") ?? "").includes("text/event-stream");
    let count = 0;
    /** Line feeds in a row at the end of what was read (an event ends at a blank line). */
    let feeds = 0;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (!perEvent) count += chunk.length;
        else
          for (const byte of chunk) {
            if (byte === 0x0a) {
              feeds++;
              if (feeds >= 2) count = 0;
            } else if (byte !== 0x0d) {
              feeds = 0;
              count++;
            }
          }
        if (count > options.maxMessageBytes) {
          const reason = `it sent a message over ${limitText} (more than ${options.maxMessageBytes} bytes in one ${perEvent ? "event" : "answer"}); the limit is ${limitText} per message, so the server was stopped`;
          if (!reported) {
            reported = true;
            options.onLimit(reason);
          }
          controller.error(new Error(reason));
          return;
        }
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(counter), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
