// The session menu: share and replay the open session. "Export HTML" downloads one self-contained page
// (opens from file://, no server), "Save as scenario" a YAML the scripted model replays offline,
// "OpenTelemetry trace" an OTLP/JSON file for Phoenix or Langfuse (no prompt text), and "Import scenario" makes this session's scripted model play a scenario file (e.g. a recorded session).
"use client";
import { usePopover } from "./popover.ts";
import { Loading, SessionMenuList } from "./lazy.tsx";
import { Button } from "./ui.tsx";

export type SessionFileFormat = "html" | "scenario" | "otlp";

export function SessionMenu({
  onExport,
  onImportScenario,
}: {
  onExport: (format: SessionFileFormat) => void;
  /** The chosen file's name and text. */
  onImportScenario: (fileName: string, yaml: string) => void;
}) {
  const { open, setOpen, container } = usePopover();
  return (
    <div className="relative" ref={container}>
      <Button
        small
        testId="session-menu"
        expanded={open}
        onClick={() => setOpen(!open)}
        title="Share or replay this session"
      >
        Share ▾
      </Button>
      {open && (
        <Loading inline>
          <SessionMenuList
            close={() => setOpen(false)}
            onExport={onExport}
            onImportScenario={onImportScenario}
          />
        </Loading>
      )}
    </div>
  );
}
