// The folder-trust prompt: a session opened on a folder whose own settings grant something (allow rules,
// MCP servers, a default mode) names the folder, lists exactly what trusting it would grant, and asks.
// Until the user trusts it none of that takes effect; its deny and ask rules apply either way.
"use client";
import type { FolderTrust } from "../../server/protocol/index.ts";
import { EscapedText } from "./escaped-text.tsx";
import { Button } from "./ui.tsx";

export function TrustPrompt({
  trust,
  onTrust,
  onKeepUntrusted,
}: {
  trust: FolderTrust;
  onTrust: (remember: boolean) => void;
  onKeepUntrusted: () => void;
}) {
  const { grants } = trust;
  return (
    <section
      className="border-b-2 border-amber-400 bg-amber-50 px-3 py-2 text-xs text-slate-900"
      data-testid="trust-prompt"
      role="alertdialog"
      aria-label="Trust this folder?"
    >
      <h2 className="text-sm font-semibold">
        Trust this folder?{" "}
        <span className="font-mono break-all" data-testid="trust-folder">
          <EscapedText text={trust.folder} />
        </span>
      </h2>
      <p className="mt-0.5">
        Its own settings
        {grants.settingsFile && (
          <>
            {" "}
            (
            <span className="font-mono break-all" data-testid="trust-settings-file">
              <EscapedText text={grants.settingsFile} />
            </span>
            )
          </>
        )}{" "}
        would grant the following. A folder you cloned or downloaded can carry these settings; until you trust
        it, none of them takes effect.
      </p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5" data-testid="trust-grants">
        {grants.allow.map((rule) => (
          <li key={`allow-${rule}`} data-testid="trust-grant-allow">
            runs without asking:{" "}
            <code className="font-mono">
              allow <EscapedText text={rule} />
            </code>
          </li>
        ))}
        {grants.mcpServers.map((server) => (
          <li key={`mcp-${server}`} data-testid="trust-grant-mcp">
            starts the MCP server{" "}
            <code className="font-mono">
              <EscapedText text={server} />
            </code>{" "}
            (starting it runs its code)
          </li>
        ))}
        {grants.defaultMode && (
          <li data-testid="trust-grant-mode">
            sets the permission mode to{" "}
            <code className="font-mono">
              <EscapedText text={grants.defaultMode} />
            </code>
          </li>
        )}
      </ul>
      <div className="mt-2 flex flex-wrap items-center gap-1.5">
        <Button
          kind="primary"
          testId="trust-folder-remember"
          onClick={() => onTrust(true)}
          title="Trust it now and in later sessions (remembered in ~/.PseudoClaude/trusted-folders.json)"
        >
          Trust this folder
        </Button>
        <Button
          testId="trust-folder-session"
          onClick={() => onTrust(false)}
          title="Trust it for this session only; the next session on this folder asks again"
        >
          Trust for this session
        </Button>
        <Button
          testId="trust-folder-keep"
          onClick={onKeepUntrusted}
          title="Its allow rules, MCP servers and default mode stay off; its deny and ask rules still apply"
        >
          Keep untrusted
        </Button>
        <span className="text-slate-600">
          Keep untrusted: its deny and ask rules still apply, the rest stays off. The header&apos;s “untrusted
          folder” badge brings this back.
        </span>
      </div>
    </section>
  );
}
