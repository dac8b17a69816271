// The folder-trust prompt: a session opened on a folder whose own settings grant something (allow rules,
// MCP servers, a default mode) names the folder, lists exactly what trusting it would grant — for an MCP
// server what it runs (command, arguments, cwd), the names of the variables and headers it is given (never
// their values), its URL and its network — and asks. A server that needs the network to start (`npx -y`)
// gets a per-server "allow network" tick with the reason. A folder trusted before whose settings changed
// says so first, with each change. The answer carries the grants' digest: trust covers what was shown.
// A modal question (the one Dialog): the focus starts on "Keep untrusted", and Escape answers that, so no
// key press grants anything by accident.
"use client";
import { useRef, useState } from "react";
import type { FolderTrust, McpServerGrant } from "../../server/protocol/index.ts";
import { Dialog } from "./dialog.tsx";
import { EscapedText } from "./escaped-text.tsx";
import { Button } from "./ui.tsx";

export function TrustPrompt({
  trust,
  onTrust,
  onKeepUntrusted,
}: {
  trust: FolderTrust;
  onTrust: (answer: { remember: boolean; digest?: string; networkServers: string[] }) => void;
  onKeepUntrusted: () => void;
}) {
  const { grants } = trust;
  const [network, setNetwork] = useState<string[]>([]);
  const keep = useRef<HTMLButtonElement>(null);
  const servers = grants.servers ?? grants.mcpServers.map((name) => ({ name }) as Partial<McpServerGrant>);
  const answer = (remember: boolean) =>
    onTrust({
      remember,
      ...(grants.digest ? { digest: grants.digest } : {}),
      networkServers: network.filter((name) => grants.mcpServers.includes(name)),
    });
  return (
    <Dialog
      title={
        <>
          Trust this folder?{" "}
          <span className="font-mono break-all" data-testid="trust-folder">
            <EscapedText text={trust.folder} />
          </span>
        </>
      }
      testId="trust-prompt"
      alert
      width="w-[46rem]"
      initialFocus={keep}
      onClose={onKeepUntrusted}
    >
      <div className="text-xs">
        {trust.renewal && (
          <div
            className="mt-1 rounded border border-amber-500 bg-white px-2 py-1"
            data-testid="trust-renewal"
            role="note"
          >
            <p className="font-semibold">Asked again: {trust.renewal.reason}.</p>
            {trust.renewal.changes.length > 0 && (
              <ul className="mt-0.5 list-disc pl-5">
                {trust.renewal.changes.map((change) => (
                  <li key={change} className="font-mono break-all" data-testid="trust-change">
                    <EscapedText text={change} />
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
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
          would grant the following. A folder you cloned or downloaded can carry these settings; until you
          trust it, none of them takes effect.
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
          {servers.map((server) => (
            <ServerGrant
              key={`mcp-${server.name}`}
              server={server}
              network={network.includes(server.name ?? "")}
              onNetwork={(on) =>
                setNetwork((names) =>
                  on ? [...names, server.name!] : names.filter((name) => name !== server.name),
                )
              }
            />
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
            onClick={() => answer(true)}
            title="Trust it now and in later sessions, as long as its settings grant what is shown here (remembered in ~/.PseudoClaude/trusted-folders.json)"
          >
            Trust this folder
          </Button>
          <Button
            testId="trust-folder-session"
            onClick={() => answer(false)}
            title="Trust it for this session only; the next session on this folder asks again"
          >
            Trust for this session
          </Button>
          <Button
            buttonRef={keep}
            testId="trust-folder-keep"
            onClick={onKeepUntrusted}
            title="Its allow rules, MCP servers and default mode stay off; its deny and ask rules still apply"
          >
            Keep untrusted
          </Button>
          <span className="text-slate-600">
            Keep untrusted: its deny and ask rules still apply, the rest stays off. The header&apos;s
            “untrusted folder” badge brings this back. If these settings change, you are asked again.
          </span>
        </div>
      </div>
    </Dialog>
  );
}

/** One MCP server: what starting it runs or reaches, and its network (with the per-server tick). */
function ServerGrant({
  server,
  network,
  onNetwork,
}: {
  server: Partial<McpServerGrant>;
  network: boolean;
  onNetwork: (on: boolean) => void;
}) {
  const name = server.name ?? "";
  const stdio = server.transport === "stdio";
  return (
    <li data-testid="trust-grant-mcp" data-server={name}>
      starts the MCP server{" "}
      <code className="font-mono">
        <EscapedText text={name} />
      </code>{" "}
      (starting it runs its code)
      {server.transport && (
        <dl className="mt-0.5 grid grid-cols-[auto_1fr] gap-x-2 text-slate-700">
          {stdio ? (
            <>
              <dt>runs</dt>
              <dd className="font-mono break-all" data-testid="trust-server-command">
                <EscapedText text={[server.command ?? "", ...(server.args ?? [])].join(" ")} />
              </dd>
              {server.cwd && (
                <>
                  <dt>in</dt>
                  <dd className="font-mono break-all" data-testid="trust-server-cwd">
                    <EscapedText text={server.cwd} />
                  </dd>
                </>
              )}
              <dt>env</dt>
              <dd data-testid="trust-server-env">
                {server.envNames?.length ? (
                  <>
                    <span className="font-mono">
                      <EscapedText text={server.envNames.join(", ")} />
                    </span>{" "}
                    <span className="text-slate-500">(names only; values are not shown)</span>
                  </>
                ) : (
                  "none set"
                )}
              </dd>
              <dt>network</dt>
              <dd data-testid="trust-server-network">
                {server.network
                  ? "on (its settings ask for it)"
                  : network
                    ? "on (you allow it below)"
                    : "off: it runs in the sandbox with no network"}
              </dd>
            </>
          ) : (
            <>
              <dt>connects to</dt>
              <dd className="font-mono break-all" data-testid="trust-server-url">
                <EscapedText text={server.url ?? ""} />
              </dd>
              <dt>headers</dt>
              <dd data-testid="trust-server-headers">
                {server.headerNames?.length ? (
                  <>
                    <span className="font-mono">
                      <EscapedText text={server.headerNames.join(", ")} />
                    </span>{" "}
                    <span className="text-slate-500">(names only)</span>
                  </>
                ) : (
                  "none"
                )}
              </dd>
            </>
          )}
          <dt className="text-slate-500">from</dt>
          <dd className="font-mono break-all text-slate-500">
            <EscapedText text={server.configFile ?? ""} />
          </dd>
        </dl>
      )}
      {server.needsNetwork && !server.network && (
        <p className="mt-0.5 text-amber-900" data-testid="trust-server-needs-network">
          Needs the network to start: <EscapedText text={server.needsNetwork} />.{" "}
          {stdio ? (
            <label className="inline-flex items-center gap-1 font-medium">
              <input
                type="checkbox"
                data-testid={`trust-server-allow-network-${name}`}
                checked={network}
                onChange={(event) => onNetwork(event.target.checked)}
              />
              allow network for this server
            </label>
          ) : (
            "Turn on “allow network” in the header for this session to reach it."
          )}
        </p>
      )}
    </li>
  );
}
