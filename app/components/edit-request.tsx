// "Edit & resend": the selected request's parts, editable — a skill's description (the shortcut: its index
// line is rendered again on the server), the stable system, each environment section, each message and
// each tool definition — and the provider to send it to. Only what differs from the request becomes an
// edit; the result opens as a branch of the session.
"use client";
import { useMemo, useState } from "react";
import type { ProviderInfo, RequestEdit } from "../../server/protocol/index.ts";
import { environmentParts, type ResolvedSnapshot } from "../state/snapshot-view.ts";
import { Dialog } from "./dialog.tsx";
import { Button } from "./ui.tsx";

const area = "w-full rounded border border-slate-300 p-1 font-mono text-xs";

function messageText(snapshot: ResolvedSnapshot, index: number): string {
  return snapshot.messages[index]?.content ?? "";
}

export function EditRequest({
  snapshot,
  skillDescriptions,
  providers,
  provider: initialProvider,
  onSend,
  onCancel,
}: {
  snapshot: ResolvedSnapshot;
  /** Current catalog descriptions, the starting text of the skill description shortcut. */
  skillDescriptions: Record<string, string>;
  providers: ProviderInfo[];
  provider: string;
  onSend: (edits: RequestEdit[], provider: string) => void;
  onCancel: () => void;
}) {
  const sections = useMemo(
    () =>
      environmentParts(snapshot)
        .filter((part) => part.name !== "environment")
        .map((part) => ({ name: part.name, text: `${part.lead ?? ""}${part.heading}\n${part.text}` })),
    [snapshot],
  );
  const [provider, setProvider] = useState(initialProvider);
  const [skill, setSkill] = useState(snapshot.listedSkills[0] ?? "");
  const [descriptions, setDescriptions] = useState<Record<string, string>>({});
  const [stable, setStable] = useState(snapshot.system.stable);
  const [environment, setEnvironment] = useState<Record<string, string>>({});
  const [messages, setMessages] = useState<Record<number, string>>({});
  const [tools, setTools] = useState<Record<string, string>>({});

  const edits: RequestEdit[] = [];
  for (const [name, description] of Object.entries(descriptions))
    if (description.trim() && description !== (skillDescriptions[name] ?? ""))
      edits.push({ kind: "skill_description", skill: name, description });
  if (stable !== snapshot.system.stable) edits.push({ kind: "stable", text: stable });
  for (const section of sections) {
    const text = environment[section.name];
    if (text !== undefined && text !== section.text)
      edits.push({ kind: "environment", section: section.name, text });
  }
  for (const [index, content] of Object.entries(messages))
    if (content !== messageText(snapshot, Number(index)))
      edits.push({ kind: "message", index: Number(index), content });
  for (const tool of snapshot.tools) {
    const description = tools[tool.name];
    if (description !== undefined && description !== tool.description)
      edits.push({ kind: "tool", name: tool.name, description });
  }

  return (
    <Dialog
      title={`Edit & resend request #${snapshot.requestIndex}`}
      testId="edit-request"
      onClose={onCancel}
      width="w-[56rem]"
      align="top"
    >
      <div className="space-y-2">
        <p className="text-xs text-slate-600">
          The original stays as it is. The resent request starts a branch: a new session, labelled with what
          you edited, that continues as a normal conversation with your edits applied to every request.
        </p>
        <fieldset className="space-y-1 rounded border border-blue-200 bg-blue-50 p-2">
          <legend className="px-1 text-xs font-semibold">
            Skill description (its index line is rendered again)
          </legend>
          <select
            className="rounded border border-slate-300 text-xs"
            data-testid="edit-skill-select"
            aria-label="Skill"
            value={skill}
            onChange={(event) => setSkill(event.target.value)}
          >
            {snapshot.listedSkills.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
          {skill && (
            <textarea
              className={area}
              rows={3}
              data-testid="edit-skill-description"
              aria-label={`Description of ${skill}`}
              value={descriptions[skill] ?? skillDescriptions[skill] ?? ""}
              onChange={(event) => setDescriptions({ ...descriptions, [skill]: event.target.value })}
            />
          )}
        </fieldset>
        <details className="rounded border border-slate-200 p-1">
          <summary className="cursor-pointer text-xs font-semibold" data-testid="edit-stable-toggle">
            Stable system (replaces the whole text; wins over description edits)
          </summary>
          <textarea
            className={area}
            rows={12}
            data-testid="edit-stable"
            aria-label="Stable system"
            value={stable}
            onChange={(event) => setStable(event.target.value)}
          />
        </details>
        <details className="rounded border border-slate-200 p-1">
          <summary className="cursor-pointer text-xs font-semibold" data-testid="edit-environment-toggle">
            Environment sections ({sections.length})
          </summary>
          {sections.map((section) => (
            <label key={section.name} className="block text-xs">
              <span className="font-mono">{section.name}</span>
              <textarea
                className={area}
                rows={6}
                data-testid={`edit-env-${section.name}`}
                value={environment[section.name] ?? section.text}
                onChange={(event) => setEnvironment({ ...environment, [section.name]: event.target.value })}
              />
            </label>
          ))}
        </details>
        <details className="rounded border border-slate-200 p-1">
          <summary className="cursor-pointer text-xs font-semibold" data-testid="edit-messages-toggle">
            Messages ({snapshot.messages.length})
          </summary>
          {snapshot.messages.map((message, index) => (
            <label key={index} className="block text-xs">
              <span className="font-mono">
                #{index} {message.role === "tool" ? `tool result · ${message.toolName}` : message.role}
              </span>
              <textarea
                className={area}
                rows={3}
                data-testid={`edit-message-${index}`}
                value={messages[index] ?? message.content}
                onChange={(event) => setMessages({ ...messages, [index]: event.target.value })}
              />
            </label>
          ))}
        </details>
        <details className="rounded border border-slate-200 p-1">
          <summary className="cursor-pointer text-xs font-semibold" data-testid="edit-tools-toggle">
            Tool definitions ({snapshot.tools.length}; what the model reads, not how the tool runs)
          </summary>
          {snapshot.tools.map((tool) => (
            <label key={tool.name} className="block text-xs">
              <span className="font-mono">{tool.name}</span>
              <textarea
                className={area}
                rows={2}
                data-testid={`edit-tool-${tool.name}`}
                value={tools[tool.name] ?? tool.description}
                onChange={(event) => setTools({ ...tools, [tool.name]: event.target.value })}
              />
            </label>
          ))}
        </details>
        <div className="flex flex-wrap items-center gap-2 border-t border-slate-200 pt-2">
          <label className="text-xs">
            Send to{" "}
            <select
              className="rounded border border-slate-300 text-xs"
              data-testid="edit-provider"
              value={provider}
              onChange={(event) => setProvider(event.target.value)}
            >
              {providers.map((info) => (
                <option key={info.name} value={info.name} disabled={!info.configured}>
                  {info.name}
                  {info.configured ? "" : ` (${info.hint ?? "not configured"})`}
                </option>
              ))}
            </select>
          </label>
          <span className="text-xs text-slate-600" data-testid="edit-count">
            {edits.length === 0
              ? "no edits: this resends the request unchanged"
              : `${edits.length} edit${edits.length === 1 ? "" : "s"}`}
          </span>
          <span className="ml-auto flex gap-1">
            <Button testId="edit-cancel" onClick={onCancel}>
              Cancel
            </Button>
            <Button kind="primary" testId="edit-send" onClick={() => onSend(edits, provider)}>
              Resend as a branch
            </Button>
          </span>
        </div>
      </div>
    </Dialog>
  );
}
