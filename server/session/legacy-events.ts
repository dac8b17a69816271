// Events as older versions logged them, brought to today's shape when a log is read (reopen, replay,
// the session list), so the rest of the server and the page read one shape only.
import type { SessionEvent } from "../protocol/wire.ts";

/** Before the console marker, a tool-console call's events were known by this runId prefix alone. */
const LEGACY_CONSOLE_RUN_PREFIX = "console_";

export function upgradeLoggedEvent(event: SessionEvent): SessionEvent {
  if (event.type === "tool_console_result")
    return event.runId === undefined
      ? { ...event, runId: `${LEGACY_CONSOLE_RUN_PREFIX}${event.requestId}` }
      : event;
  if (
    event.type !== "manual_turn_requested" &&
    "runId" in event &&
    event.console === undefined &&
    typeof event.runId === "string" &&
    event.runId.startsWith(LEGACY_CONSOLE_RUN_PREFIX)
  )
    return { ...event, console: true };
  return event;
}
