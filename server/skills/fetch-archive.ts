// Downloads a skill .zip from an https:// URL into memory: https only (redirects too), a size cap checked
// against Content-Length and again while the bytes arrive, one overall timeout, and an error that says
// what the server answered. Certificates are Node's defaults (plus NODE_EXTRA_CA_CERTS).
import { get } from "node:https";
import type { IncomingMessage } from "node:http";
import { MAX_INSTALL_BYTES } from "./install-tree.ts";

/** A zip holds its files compressed plus headers; 30 MiB of content never needs a larger archive. */
export const MAX_DOWNLOAD_BYTES = MAX_INSTALL_BYTES + 2 * 1024 * 1024;
export const DOWNLOAD_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 5;

export class DownloadFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DownloadFailed";
  }
}

export interface FetchOptions {
  maxBytes?: number;
  timeoutMs?: number;
}

function httpsUrl(text: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new DownloadFailed(`${what} ${JSON.stringify(text)} is not a URL`);
  }
  if (url.protocol !== "https:")
    throw new DownloadFailed(`${what} ${url.href} is not https:// (only https URLs are fetched)`);
  return url;
}

export async function fetchArchive(source: string, options: FetchOptions = {}): Promise<Buffer> {
  const maxBytes = options.maxBytes ?? MAX_DOWNLOAD_BYTES;
  const timeoutMs = options.timeoutMs ?? DOWNLOAD_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    let url = httpsUrl(source, "the source");
    for (let redirects = 0; ; redirects++) {
      const response = await request(url, controller.signal, timeoutMs);
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        if (redirects >= MAX_REDIRECTS)
          throw new DownloadFailed(`${source}: more than ${MAX_REDIRECTS} redirects`);
        url = httpsUrl(new URL(response.headers.location, url).href, `${url.href} redirected to`);
        continue;
      }
      if (status !== 200) {
        response.resume();
        throw new DownloadFailed(
          `GET ${url.href} answered ${status} ${response.statusMessage ?? ""}`.trimEnd() +
            " (expected 200 with the .zip)",
        );
      }
      return await readBody(response, url, maxBytes, controller.signal, timeoutMs);
    }
  } finally {
    clearTimeout(timer);
  }
}

function timedOut(url: URL, timeoutMs: number): DownloadFailed {
  return new DownloadFailed(`GET ${url.href} timed out after ${timeoutMs / 1000} s`);
}

function request(url: URL, signal: AbortSignal, timeoutMs: number): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const outgoing = get(url, { signal, headers: { accept: "application/zip, */*" } }, resolve);
    outgoing.on("error", (error: Error) =>
      reject(
        signal.aborted
          ? timedOut(url, timeoutMs)
          : new DownloadFailed(`GET ${url.href} failed: ${error.message}`),
      ),
    );
  });
}

function readBody(
  response: IncomingMessage,
  url: URL,
  maxBytes: number,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<Buffer> {
  const tooLarge = () =>
    new DownloadFailed(
      `GET ${url.href}: the archive is larger than ${Math.round(maxBytes / (1024 * 1024))} MiB`,
    );
  return new Promise((resolve, reject) => {
    const declared = Number(response.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxBytes) {
      response.destroy();
      return reject(tooLarge());
    }
    const chunks: Buffer[] = [];
    let total = 0;
    let done = false;
    response.on("data", (chunk: Buffer) => {
      if (done) return;
      total += chunk.length;
      if (total > maxBytes) {
        done = true;
        response.destroy();
        return reject(tooLarge());
      }
      chunks.push(chunk);
    });
    response.on("error", (error: Error) => {
      if (done) return;
      done = true;
      reject(
        signal.aborted ? timedOut(url, timeoutMs) : new DownloadFailed(`GET ${url.href}: ${error.message}`),
      );
    });
    response.on("aborted", () => {
      if (done) return;
      done = true;
      reject(
        signal.aborted
          ? timedOut(url, timeoutMs)
          : new DownloadFailed(`GET ${url.href}: connection closed early`),
      );
    });
    response.on("end", () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks, total));
    });
  });
}
