// Serves the static export of the pages (out/) after the Host check has passed. GET/HEAD only, paths
// confined to the export folder (after realpath), content type by extension, and headers that keep the
// token-carrying page from leaking it (no Referer) or being framed.
import { createReadStream } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { isInside } from "../tools/confine.ts";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
};

/**
 * Headers on every response. Next's static export bootstraps with inline scripts, so script-src needs
 * 'unsafe-inline'; everything else is same-origin only. connect-src names the ws:// origin explicitly
 * because older browsers do not count ws: as 'self'.
 */
export function securityHeaders(host: string): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Content-Security-Policy": [
      "default-src 'self'",
      "script-src 'self' 'unsafe-inline'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      `connect-src 'self' ws://${host}`,
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join("; "),
  };
}

export function sendText(
  response: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
    ...headers,
  });
  response.end(text);
}

const MISSING_BUILD_PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>PseudoClaude Playground</title></head>
<body style="font-family:sans-serif;max-width:40rem;margin:3rem auto">
<h1>The pages are not built yet</h1>
<p>Run <code>npm run build</code> (or start the server with <code>npm start</code>, which builds them when needed),
then reload this page. The WebSocket server is already running.</p></body></html>`;

/** Maps a URL path to a candidate file: `/` → index.html, `/x` → x.html or x/index.html. */
function candidates(urlPath: string): string[] {
  if (urlPath.endsWith("/")) return [`${urlPath}index.html`];
  if (path.posix.extname(urlPath)) return [urlPath];
  return [`${urlPath}.html`, `${urlPath}/index.html`];
}

async function resolveFile(root: string, urlPath: string): Promise<string | undefined> {
  for (const candidate of candidates(urlPath)) {
    const joined = path.join(root, candidate);
    if (!isInside(root, joined)) return undefined;
    try {
      const real = await realpath(joined);
      if (!isInside(root, real)) return undefined;
      if ((await stat(real)).isFile()) return real;
    } catch (error) {
      if (
        (error as NodeJS.ErrnoException).code !== "ENOENT" &&
        (error as NodeJS.ErrnoException).code !== "ENOTDIR"
      )
        throw error;
    }
  }
  return undefined;
}

export class StaticFiles {
  private rootReal: string | undefined;

  constructor(private readonly root: string) {}

  private async realRoot(): Promise<string | undefined> {
    if (this.rootReal) return this.rootReal;
    try {
      this.rootReal = await realpath(this.root);
      return this.rootReal;
    } catch {
      return undefined; // not built yet: checked again on the next request
    }
  }

  async serve(request: IncomingMessage, response: ServerResponse, host: string): Promise<void> {
    const headers = securityHeaders(host);
    const root = await this.realRoot();
    if (!root) {
      response.writeHead(503, {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
        ...headers,
      });
      response.end(request.method === "HEAD" ? undefined : MISSING_BUILD_PAGE);
      return;
    }
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(new URL(request.url ?? "/", "http://placeholder").pathname);
    } catch {
      return sendText(response, 400, "malformed URL path", headers);
    }
    if (urlPath.includes("\0")) return sendText(response, 400, "malformed URL path", headers);
    const file = await resolveFile(root, urlPath);
    if (!file) {
      const notFound = await resolveFile(root, "/404.html");
      if (!notFound) return sendText(response, 404, "not found", headers);
      return this.sendFile(request, response, notFound, 404, headers);
    }
    return this.sendFile(request, response, file, 200, headers);
  }

  private async sendFile(
    request: IncomingMessage,
    response: ServerResponse,
    file: string,
    status: number,
    headers: Record<string, string>,
  ): Promise<void> {
    const extension = path.extname(file).toLowerCase();
    const { size } = await stat(file);
    // HTML names the hashed chunks of the current build, so it must never be cached; the chunks are
    // content-addressed and may be.
    const cacheControl =
      extension === ".html" || !file.includes(`${path.sep}_next${path.sep}static${path.sep}`)
        ? "no-store"
        : "public, max-age=31536000, immutable";
    response.writeHead(status, {
      "Content-Type": CONTENT_TYPES[extension] ?? "application/octet-stream",
      "Content-Length": size,
      "Cache-Control": cacheControl,
      ...headers,
    });
    if (request.method === "HEAD") {
      response.end();
      return;
    }
    await new Promise<void>((resolve) => {
      const stream = createReadStream(file);
      stream.on("error", (error) => {
        response.destroy(error);
        resolve();
      });
      stream.on("end", resolve);
      stream.pipe(response);
    });
  }
}
