// "You are the model": when the manual provider asks for a turn, the person writes the assistant text
// and/or tool calls (forms built from the tool schemas the model was given) and sends them back. What is
// typed and the calls added but not yet sent outlive a reload of the tab (lib/typed-answers.ts).
"use client";
import { useState } from "react";
import {
  readManualAnswer,
  typedKey,
  useKept,
  writeManualAnswer,
  type ManualAnswer,
} from "../lib/typed-answers.ts";
import type { ManualTurnRequest } from "../state/types.ts";
import { SchemaForm } from "./schema-form.tsx";
import { Badge, Button, Pre, formatJson } from "./ui.tsx";

export function ManualComposer({
  turn,
  sessionId,
  onRespond,
  onInspect,
}: {
  turn: ManualTurnRequest;
  /** The session asking: with the run and request, where the answer being written is kept. */
  sessionId?: string;
  onRespond: (text: string, toolCalls: { name: string; input: unknown }[]) => void;
  onInspect: () => void;
}) {
  const [answer, keep] = useKept(
    typedKey(sessionId ?? "", turn.runId, turn.requestIndex),
    readManualAnswer,
    writeManualAnswer,
  );
  const { text, calls } = answer;
  const setText = (value: string) => keep((old) => ({ ...old, text: value }));
  const setCalls = (change: (old: ManualAnswer["calls"]) => ManualAnswer["calls"]) =>
    keep((old) => ({ ...old, calls: change(old.calls) }));
  const [toolName, setToolName] = useState(turn.snapshot.tools[0]?.name ?? "");
  const tool = turn.snapshot.tools.find((definition) => definition.name === toolName);
  return (
    <div
      className="space-y-2 rounded border-2 border-violet-400 bg-violet-50 p-2 text-xs"
      data-testid="manual-composer"
    >
      <div className="flex flex-wrap items-center gap-1">
        <strong className="text-sm">You are the model — request #{turn.requestIndex}</strong>
        <Badge tone="violet">manual provider</Badge>
        <Button small testId="manual-inspect" onClick={onInspect}>
          See what you were given
        </Button>
      </div>
      <textarea
        data-testid="manual-text"
        aria-label="Assistant text"
        rows={2}
        className="w-full rounded border border-slate-300 p-1"
        placeholder="Assistant text (optional when you call tools)"
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <div className="rounded border border-violet-200 bg-white p-1.5">
        <label className="flex items-center gap-1">
          Tool call:
          <select
            data-testid="manual-tool-select"
            className="rounded border border-slate-300 p-0.5 font-mono"
            value={toolName}
            onChange={(event) => setToolName(event.target.value)}
          >
            {turn.snapshot.tools.map((definition) => (
              <option key={definition.name}>{definition.name}</option>
            ))}
          </select>
        </label>
        {tool && <p className="text-slate-600">{tool.description}</p>}
        {tool && (
          <SchemaForm
            key={tool.name}
            schema={tool.inputSchema}
            testId="manual-tool-form"
            submitLabel="Add tool call"
            onSubmit={(input) => setCalls((old) => [...old, { name: tool.name, input }])}
          />
        )}
      </div>
      {calls.length > 0 && (
        <ul className="space-y-1" data-testid="manual-calls">
          {calls.map((call, index) => (
            <li key={index} className="flex items-start gap-1">
              <Pre text={`${call.name} ${formatJson(call.input)}`} className="flex-1 bg-white" />
              <Button
                small
                testId={`manual-remove-call-${index}`}
                onClick={() => setCalls((old) => old.filter((_, other) => other !== index))}
              >
                remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Button
        kind="primary"
        testId="manual-send"
        disabled={!text.trim() && calls.length === 0}
        onClick={() => {
          onRespond(text, calls);
          keep(() => ({ text: "", calls: [] }));
        }}
      >
        Send as the model
      </Button>
    </div>
  );
}
