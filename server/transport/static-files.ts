// Serves the static export of the pages (out/) after the Host check has passed. GET/HEAD only, paths
// confined to the export folder (after realpath), content type by extension, and headers that keep the
// token-carrying page from leaking it (no Referer) or being framed.
import { createReadStream } from "node:fs";
import { readFile, readdir, realpath, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { isInside } from "../tools/confine.ts";
import { earlyScriptFirst } from "./page-html.ts";

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

/** A body sent whole, with its exact length (nothing for HEAD), its type by extension and its caching. */
function sendWhole(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  extension: string,
  body: Buffer,
  cacheControl: string,
  headers: Record<string, string>,
): void {
  response.writeHead(status, {
    "Content-Type": CONTENT_TYPES[extension.toLowerCase()] ?? "application/octet-stream",
    "Content-Length": body.length,
    "Cache-Control": cacheControl,
    ...headers,
  });
  response.end(request.method === "HEAD" ? undefined : body);
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

/**
 * The build's content-addressed files (`/_next/static/…`: a file's name changes with its content, so a
 * name's bytes never change) are kept in memory once read, up to this much in all: such a request is
 * answered in the turn it arrives, while a file from disk takes several turns (realpath, stat, open,
 * reads) that each wait behind whatever else the server is doing — a page's chunks queued behind the
 * reopen of its session. The export is about 1.3 MB.
 */
const IMMUTABLE_PREFIX = "/_next/static/";
const IMMUTABLE_MAX_BYTES = 64 * 1024 * 1024;
const IMMUTABLE_MAX_FILE_BYTES = 8 * 1024 * 1024;

export class StaticFiles {
  private rootReal: string | undefined;
  /** URL path under IMMUTABLE_PREFIX → its file's bytes (only files whose real path is inside the root). */
  private readonly immutable = new Map<string, Buffer>();
  private immutableBytes = 0;

  constructor(private readonly root: string) {}

  private keep(urlPath: string, body: Buffer): void {
    if (body.length > IMMUTABLE_MAX_FILE_BYTES || this.immutableBytes + body.length > IMMUTABLE_MAX_BYTES)
      return;
    if (!this.immutable.has(urlPath)) this.immutableBytes += body.length;
    this.immutable.set(urlPath, body);
  }

  /**
   * Reads the build's content-addressed files into memory (a server calls it once it listens, so a
   * page's first load is served from memory too). Regular files in real folders below the root's
   * `_next/static` only (no symlink is followed); what is not kept here is served from disk as before.
   * `stopped` ends the walk early.
   */
  async keepBuildFiles(stopped: () => boolean = () => false): Promise<void> {
    const root = await this.realRoot();
    if (!root) return;
    // A file or folder gone meanwhile (a rebuild, a test's temp folder removed) is not kept: served
    // from disk, or not found, as a request finds it.
    const unlessGone = async <T>(read: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await read();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
    };
    const walk = async (folder: string, urlPrefix: string): Promise<void> => {
      const entries = await unlessGone(() => readdir(folder, { withFileTypes: true }));
      for (const entry of entries ?? []) {
        if (stopped()) return;
        const full = path.join(folder, entry.name);
        const urlPath = `${urlPrefix}${entry.name}`;
        // Dirents of symlinks are neither: only the build's own files and folders are read.
        if (entry.isDirectory()) await walk(full, `${urlPath}/`);
        else if (entry.isFile() && !this.immutable.has(urlPath)) {
          const body = await unlessGone(() => readFile(full));
          if (body && !stopped()) this.keep(urlPath, body);
        }
      }
    };
    // The folder itself confined like a request's file: a `_next` that leads outside the export is not read.
    const folder = await unlessGone(() => realpath(path.join(root, "_next", "static")));
    if (folder && isInside(root, folder)) await walk(folder, IMMUTABLE_PREFIX);
  }

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
    const kept = this.immutable.get(urlPath);
    if (kept) return this.sendBody(request, response, path.extname(urlPath), kept, headers);
    const file = await resolveFile(root, urlPath);
    if (!file) {
      const notFound = await resolveFile(root, "/404.html");
      if (!notFound) return sendText(response, 404, "not found", headers);
      return this.sendFile(request, response, notFound, 404, headers);
    }
    if (urlPath.startsWith(IMMUTABLE_PREFIX) && isInside(path.join(root, "_next", "static"), file)) {
      const { size } = await stat(file);
      if (size <= IMMUTABLE_MAX_FILE_BYTES) {
        const body = await readFile(file);
        this.keep(urlPath, body);
        return this.sendBody(request, response, path.extname(file), body, headers);
      }
    }
    return this.sendFile(request, response, file, 200, headers);
  }

  /** A content-addressed file from memory: cached by the browser for good, like from disk. */
  private sendBody(
    request: IncomingMessage,
    response: ServerResponse,
    extension: string,
    body: Buffer,
    headers: Record<string, string>,
  ): void {
    sendWhole(request, response, 200, extension, body, "public, max-age=31536000, immutable", headers);
  }

  /**
   * A page, read whole and sent as the browser should run it (./page-html.ts: the early socket first).
   * HTML names the hashed chunks of the current build, so it is never cached.
   */
  private async sendPage(
    request: IncomingMessage,
    response: ServerResponse,
    file: string,
    status: number,
    headers: Record<string, string>,
  ): Promise<void> {
    const body = Buffer.from(earlyScriptFirst(await readFile(file, "utf8")));
    sendWhole(request, response, status, ".html", body, "no-store", headers);
  }

  private async sendFile(
    request: IncomingMessage,
    response: ServerResponse,
    file: string,
    status: number,
    headers: Record<string, string>,
  ): Promise<void> {
    const extension = path.extname(file).toLowerCase();
    if (extension === ".html") return this.sendPage(request, response, file, status, headers);
    const { size } = await stat(file);
    // The chunks are content-addressed and may be cached; anything else outside them may change.
    const cacheControl = !file.includes(`${path.sep}_next${path.sep}static${path.sep}`)
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
