// The cache flags of `run` and `prompt` (--cache-model, --cache-breakpoints, --skill-placement) as the
// session settings they stand for; the session's cache (server/session/session-cache.ts) turns them into
// the Runner's cache dependencies, for `run` and `prompt` alike.
import type { SessionSettings } from "../protocol/wire.ts";
import type { CliArguments } from "./args.ts";

export type CliCacheSettings = Pick<SessionSettings, "cacheAs" | "cacheBreakpoints" | "skillPlacement">;

export function cacheSettings(args: CliArguments): CliCacheSettings {
  return {
    ...(args.cacheModel ? { cacheAs: args.cacheModel } : {}),
    ...(args.cacheBreakpoints ? { cacheBreakpoints: args.cacheBreakpoints } : {}),
    ...(args.skillPlacement ? { skillPlacement: args.skillPlacement } : {}),
  };
}
