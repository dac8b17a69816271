// Which address the server may listen on. Anything but loopback exposes a tool-running agent to the
// network, so it needs the explicit --unsafe-expose flag (SECURITY.md N13).
import { isIP } from "node:net";
import { networkInterfaces } from "node:os";
import { PlaygroundError } from "../errors/index.ts";

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (bare === "localhost" || bare === "::1") return true;
  return isIP(bare) === 4 && bare.startsWith("127.");
}

/** Throws a message that says why and what to do, when the address is not loopback and not allowed. */
export function checkListenAddress(host: string, unsafeExpose: boolean): void {
  if (isLoopbackHost(host) || unsafeExpose) return;
  throw new PlaygroundError(
    "invalid_arguments",
    `refusing to listen on ${host}: the playground runs shell commands and edits files for whoever can ` +
      `reach it, so it only listens on loopback (127.0.0.1, localhost, ::1). Use --host 127.0.0.1, or add ` +
      `--unsafe-expose if you really want other machines to reach it (they still need the token).`,
  );
}

/** Extra Host/Origin names accepted when the server is exposed on purpose. */
export function exposedHostNames(host: string): string[] {
  if (isLoopbackHost(host)) return [];
  const bare = host.replace(/^\[|\]$/g, "");
  if (bare !== "0.0.0.0" && bare !== "::") return [bare];
  const names: string[] = [];
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) if (!address.internal) names.push(address.address);
  }
  return names;
}
