// The open session menu (./session-menu.tsx): export HTML, save as scenario, OpenTelemetry trace,
// import a scenario. Loaded when the menu first opens (./lazy.tsx).
"use client";
import { useRef } from "react";
import type { SessionFileFormat } from "./session-menu.tsx";
import { Button } from "./ui.tsx";

export function SessionMenuList({
  close,
  onExport,
  onImportScenario,
}: {
  close: () => void;
  onExport: (format: SessionFileFormat) => void;
  /** The chosen file's name and text. */
  onImportScenario: (fileName: string, yaml: string) => void;
}) {
  const fileInput = useRef<HTMLInputElement>(null);
  const choose = (format: SessionFileFormat) => {
    close();
    onExport(format);
  };
  return (
    <div
      className="absolute top-full left-0 z-20 mt-1 flex w-64 flex-col gap-1 rounded border border-slate-300 bg-white p-1 shadow-lg"
      data-testid="session-menu-list"
    >
      <Button
        small
        testId="session-export-html"
        onClick={() => choose("html")}
        title="One HTML file with the chat, the inspector and every pane; opens without the playground"
      >
        Export HTML
      </Button>
      <Button
        small
        testId="session-export-scenario"
        onClick={() => choose("scenario")}
        title="The model turns as a scenario YAML: replay this session offline with the scripted model"
      >
        Save as scenario
      </Button>
      <Button
        small
        testId="session-export-otlp"
        onClick={() => choose("otlp")}
        title="The runs, model requests and tool calls as an OTLP/JSON trace (GenAI and OpenInference attributes) for Phoenix or Langfuse; no prompt or completion text"
      >
        OpenTelemetry trace
      </Button>
      <Button
        small
        testId="session-import-scenario"
        onClick={() => fileInput.current?.click()}
        title="Replay a scenario file (e.g. a recorded session) in a new session on this workdir, with the scripted model"
      >
        Import scenario as a new session…
      </Button>
      <input
        ref={fileInput}
        type="file"
        accept=".yaml,.yml"
        className="hidden"
        data-testid="session-import-scenario-file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (!file) return;
          close();
          void file.text().then((text) => onImportScenario(file.name, text));
        }}
      />
    </div>
  );
}
