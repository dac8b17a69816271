// The checks every HTTP request and WebSocket upgrade passes before anything else happens, in this order:
// Host (defeats DNS rebinding: 403 before routing), Origin (defeats cross-site pages: 403), token (401).
// Every comparison is an exact string match against a small allowlist — never a prefix match.
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export interface HandshakePolicy {
  /** Exact `Host` header values accepted, e.g. `127.0.0.1:3000`. */
  allowedHosts: ReadonlySet<string>;
  /** Exact `Origin` header values accepted, e.g. `http://127.0.0.1:3000`. */
  allowedOrigins: ReadonlySet<string>;
  token: string;
}

export type CheckOutcome = { ok: true } | { ok: false; status: 401 | 403; reason: string };

/** A fresh 32-byte token per start, hex-encoded (64 characters). */
export function generateToken(): string {
  return randomBytes(32).toString("hex");
}

/**
 * The loopback names the pages may be reached by. When the server is exposed on purpose
 * (`--unsafe-expose`), the bound host is allowed too.
 */
export function buildPolicy(port: number, token: string, extraHosts: string[] = []): HandshakePolicy {
  const hostNames = ["127.0.0.1", "localhost", "[::1]", ...extraHosts.map(bracketIpv6)];
  const allowedHosts = new Set(hostNames.map((name) => `${name}:${port}`));
  const allowedOrigins = new Set(hostNames.map((name) => `http://${name}:${port}`));
  return { allowedHosts, allowedOrigins, token };
}

function bracketIpv6(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

function singleHeader(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  if (Array.isArray(value)) return undefined;
  return value;
}

/**
 * Node keeps only the first of several Host headers in `headers.host`; RFC 9112 §3.2 says a request with
 * more than one is invalid, and an intermediary may have read the other one, so it is refused outright.
 */
function hostHeaderCount(request: IncomingMessage): number {
  let count = 0;
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    if (request.rawHeaders[index]!.toLowerCase() === "host") count++;
  }
  return count;
}

/**
 * An absolute-form target (`GET http://evil/ HTTP/1.1`) names the authority the client meant, and per
 * RFC 9112 §3.2.2 it overrides Host, so it must be allowed as well. Origin-form (`/path`) and `*` have none.
 */
function targetAuthority(request: IncomingMessage): string | undefined | null {
  const target = request.url ?? "/";
  if (target.startsWith("/") || target === "*") return undefined;
  try {
    const parsed = new URL(target);
    return parsed.protocol === "http:" ? parsed.host : null;
  } catch {
    return null;
  }
}

export function checkHost(request: IncomingMessage, policy: HandshakePolicy): CheckOutcome {
  const host = singleHeader(request, "host");
  const refused: CheckOutcome = {
    ok: false,
    status: 403,
    reason: "Host header is not an allowed loopback address for this server",
  };
  if (host === undefined || !policy.allowedHosts.has(host.toLowerCase())) return refused;
  if (hostHeaderCount(request) !== 1) {
    return { ok: false, status: 403, reason: "more than one Host header" };
  }
  const authority = targetAuthority(request);
  // new URL() lower-cases the host and drops a default port, so compare against the same normal form.
  if (authority !== undefined && (authority === null || !policy.allowedHosts.has(authority))) {
    return { ok: false, status: 403, reason: "the request target names a host other than this server" };
  }
  return { ok: true };
}

/** Origin must be present and exact. A missing or `null` Origin is never trusted on its own. */
export function checkOrigin(request: IncomingMessage, policy: HandshakePolicy): CheckOutcome {
  const origin = singleHeader(request, "origin");
  if (origin === undefined) {
    // No Origin usually means a non-browser client; it still has to prove itself with the token, and the
    // token check decides (401) so curl without a token is told what is missing (N7).
    return { ok: true };
  }
  if (origin === "null" || !policy.allowedOrigins.has(origin)) {
    return { ok: false, status: 403, reason: "Origin is not this playground's origin" };
  }
  return { ok: true };
}

/** Constant-time comparison: the length check first, because timingSafeEqual needs equal lengths. */
export function tokenMatches(candidate: string | null | undefined, token: string): boolean {
  if (typeof candidate !== "string") return false;
  const given = Buffer.from(candidate, "utf8");
  const expected = Buffer.from(token, "utf8");
  if (given.length !== expected.length) return false;
  return timingSafeEqual(given, expected);
}

/**
 * The two refusals a client can act on differently: no token at all (open the printed address), or a token
 * that is not this start's (the server was restarted: open the new address). Both are 401, and every wrong
 * token gets the same words whatever its length or content, so the answer tells nothing beyond "missing
 * vs wrong" (SECURITY N6/N7); the comparison stays constant-time.
 */
export const MISSING_TOKEN =
  "missing token: open the address the server printed at start (it ends with #token=…)";
export const WRONG_TOKEN =
  "wrong token: not this start's token (a new one is made on every start); open the address the server printed";

export function checkToken(candidate: string | null | undefined, token: string): CheckOutcome {
  if (candidate === null || candidate === undefined || candidate === "")
    return { ok: false, status: 401, reason: MISSING_TOKEN };
  if (!tokenMatches(candidate, token)) return { ok: false, status: 401, reason: WRONG_TOKEN };
  return { ok: true };
}

export function tokenFromRequest(request: IncomingMessage): string | null {
  const url = new URL(request.url ?? "/", "http://placeholder");
  return url.searchParams.get("token");
}

/**
 * The full upgrade check. Order matters: Host → Origin → token. After the token passes, an upgrade
 * without an Origin is still refused (403): browsers always send one, so a missing Origin means a client
 * we did not write, and the policy is to never let the absence of Origin stand in for a check.
 */
export function checkUpgrade(request: IncomingMessage, policy: HandshakePolicy): CheckOutcome {
  const host = checkHost(request, policy);
  if (!host.ok) return host;
  const origin = checkOrigin(request, policy);
  if (!origin.ok) return origin;
  const token = checkToken(tokenFromRequest(request), policy.token);
  if (!token.ok) return token;
  if (singleHeader(request, "origin") === undefined) {
    return { ok: false, status: 403, reason: "WebSocket upgrade without an Origin header is refused" };
  }
  return { ok: true };
}
