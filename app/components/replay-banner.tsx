// The banner of a replay session: the recorded messages to send, in order (the next one is a chip to
// click), and — as soon as a request differs from the one the recorded model answered — where and how
// the replay left the recording, with a link to that request.
"use client";
import { plural } from "../../server/shared/figures.ts";
import type { ReplayState } from "../state/replay.ts";

export type { ReplayState };

export function ReplayBanner({
  replay,
  running,
  onSend,
  onShowRequest,
}: {
  replay: ReplayState;
  running: boolean;
  onSend: (text: string) => boolean;
  onShowRequest: (requestIndex: number) => void;
}) {
  const next = replay.recorded[replay.sent];
  return (
    <div
      className="space-y-1 border-b border-amber-300 bg-amber-50 px-2 py-1 text-xs"
      data-testid="replay-banner"
    >
      <div className="flex flex-wrap items-center gap-1.5">
        <strong className="text-amber-900">Replay of {replay.of}</strong>
        {replay.recorded.length > 0 ? (
          <span className="text-slate-700" data-testid="replay-progress">
            {replay.sent} of {plural(replay.recorded.length, "recorded message")} sent
            {next !== undefined ? " · next:" : " · all sent"}
          </span>
        ) : (
          <span className="text-slate-700">the recording names no messages: type your own</span>
        )}
        {next !== undefined && (
          <button
            type="button"
            className="max-w-full truncate rounded-full border border-amber-400 bg-white px-2 py-0.5 text-left text-slate-800 hover:border-blue-400 hover:text-blue-800"
            data-testid="replay-next-message"
            title={running ? "Queued until the run ends" : "Send this recorded message"}
            onClick={() => onSend(next)}
          >
            {next.split("\n", 1)[0]}
          </button>
        )}
      </div>
      {replay.divergence && (
        <p role="status" className="text-red-900" data-testid="replay-divergence">
          ⚠ The replay left the recording at{" "}
          <button
            type="button"
            className="font-semibold underline"
            data-testid="replay-divergence-request"
            onClick={() => onShowRequest(replay.divergence!.requestIndex)}
          >
            request #{replay.divergence.requestIndex}
          </button>
          : {replay.divergence.differences.join("; ")}. Later tool calls may not match what the recorded model
          saw.
        </p>
      )}
    </div>
  );
}
