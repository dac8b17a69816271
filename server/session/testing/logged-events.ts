// Events as a session's stream logs them (log format 3), from events as the Runner and the session emit
// them (requests and payloads in full): for tests that fold or write logged events.
import type { SessionEvent } from "../../protocol/wire.ts";
import { RequestWriter, type StreamInput } from "../request-writer.ts";

export function loggedEvents(events: readonly StreamInput[]): SessionEvent[] {
  const writer = new RequestWriter();
  return events.map((event) => {
    const encoded = writer.encode(event);
    encoded.commit();
    return encoded.event;
  });
}
