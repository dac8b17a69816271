// Runs one tool by hand (same permission path as the model's calls) and shows what happened:
// stdin, stdout, stderr, exit code, time and truncation, read from the result's metadata.
"use client";
import type { JsonSchema } from "../../server/protocol/index.ts";
import type { ConsoleResult } from "../state/types.ts";
import { McpResultView } from "./mcp-result-view.tsx";
import { SchemaForm } from "./schema-form.tsx";
import { Badge, Pre } from "./ui.tsx";
import { truncationNotes } from "../lib/truncation-notes.ts";

export { truncationNotes };

export function ConsoleResultView({ result }: { result: ConsoleResult }) {
  if (!result.result) {
    return (
      <p className="text-xs text-slate-500" data-testid="console-running">
        Running {result.tool}… (approve it in the chat if asked)
      </p>
    );
  }
  const metadata = result.result.metadata;
  const stdin = JSON.stringify(result.input);
  const stderr = metadata?.stderr;
  const exitCode = metadata?.exitCode;
  const truncation = truncationNotes(metadata);
  return (
    <div className="space-y-1 text-xs" data-testid="console-result">
      <div className="flex flex-wrap gap-1">
        <Badge tone={result.result.ok ? "green" : "red"} testId="console-status">
          {result.result.ok ? "ok" : (result.result.errorType ?? "failed")}
        </Badge>
        {exitCode !== undefined && <Badge testId="console-exit-code">exit {String(exitCode)}</Badge>}
        {result.durationMs !== undefined && <Badge>{result.durationMs} ms</Badge>}
        {truncation.map((note) => (
          <Badge key={note} tone="amber" testId="console-truncated">
            {note}
          </Badge>
        ))}
      </div>
      {result.result.error && <p className="text-red-800">{result.result.error}</p>}
      {typeof metadata?.command === "string" && (
        <p className="font-mono break-all text-slate-600" data-testid="console-command">
          $ {metadata.command} <span className="text-slate-500">in {metadata.cwd ?? ""}</span>
        </p>
      )}
      <div>stdin</div>
      <Pre testId="console-stdin" text={stdin} />
      <div>stdout</div>
      <Pre testId="console-stdout" text={result.fullOutput ?? result.result.content} />
      {typeof stderr === "string" && stderr.length > 0 && (
        <>
          <div>stderr</div>
          <Pre testId="console-stderr" text={stderr} />
        </>
      )}
      <McpResultView metadata={metadata} />
    </div>
  );
}

export function ToolConsole({
  tool,
  schema,
  results,
  onRun,
}: {
  tool: string;
  schema: JsonSchema;
  results: ConsoleResult[];
  onRun: (input: unknown) => void;
}) {
  const latest = results[results.length - 1];
  return (
    <details className="mt-1 rounded bg-slate-50 p-1" data-testid={`tool-console-${tool}`}>
      <summary className="cursor-pointer text-xs font-semibold">Tool console: run {tool} by hand</summary>
      <div className="mt-1 space-y-1">
        <SchemaForm
          schema={schema}
          testId={`console-form-${tool}`}
          submitLabel={`Run ${tool}`}
          onSubmit={onRun}
        />
        {latest && <ConsoleResultView result={latest} />}
      </div>
    </details>
  );
}
