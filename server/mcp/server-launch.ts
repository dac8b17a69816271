// How an MCP server is started as its README says, and why a start failed, in words a user can act on.
//
// - Package runners (`npx -y @scope/server`, `uvx`, `pipx run`, …) fetch what they run on first start:
//   they need the network, which the sandbox gives a server only when allowed. With it, they get a cache
//   in the sandbox's private /tmp (the home is read-only there, so the user's own cache cannot be written).
// - A remote URL needs the network on the host: with the session's network off, only loopback is reached.
// - A program, script or cwd the sandbox would hide (under the private /tmp) is bound back read-only, or
//   the start is refused with the reason (under a hidden secret): see sandboxPolicy's `visiblePaths`.
// - A failed start names the likely cause from the command and its stderr, the fixes, and the sandbox
//   policy the server ran under.
import { lstatSync } from "node:fs";
import path from "node:path";
import { findProgram } from "../tools/find-program.ts";
import type { SandboxSummary } from "../tools/sandbox.ts";
import type { HttpServerConfig, McpServerConfig, StdioServerConfig } from "./config.ts";

/** A program that downloads what it runs. */
interface PackageRunner {
  program: string;
  /** Argument sequences (after the program) that make it fetch, e.g. `dlx` for pnpm; none: always. */
  subcommands?: readonly (readonly string[])[];
  /** Where it fetches from, for the message. */
  from: string;
  /** How to install the package once so it runs without the network (`{package}` is replaced). */
  install: string;
}

/** The package runners known here (data: a new one is a row). */
export const PACKAGE_RUNNERS: readonly PackageRunner[] = [
  { program: "npx", from: "the npm registry", install: "npm install -g {package}" },
  {
    program: "npm",
    subcommands: [["exec"], ["x"]],
    from: "the npm registry",
    install: "npm install -g {package}",
  },
  { program: "pnpx", from: "the npm registry", install: "pnpm add -g {package}" },
  { program: "pnpm", subcommands: [["dlx"]], from: "the npm registry", install: "pnpm add -g {package}" },
  { program: "yarn", subcommands: [["dlx"]], from: "the npm registry", install: "npm install -g {package}" },
  { program: "bunx", from: "the npm registry", install: "bun add -g {package}" },
  { program: "uvx", from: "PyPI", install: "uv tool install {package}" },
  { program: "uv", subcommands: [["tool", "run"]], from: "PyPI", install: "uv tool install {package}" },
  { program: "pipx", subcommands: [["run"]], from: "PyPI", install: "pipx install {package}" },
];

/**
 * Cache locations a package runner may write, pointed into the sandbox's private /tmp when the server has
 * the network (unless its config sets them). Each start downloads again: installing once avoids that.
 */
export const RUNNER_CACHE_ENVIRONMENT: Readonly<Record<string, string>> = {
  npm_config_cache: "/tmp/.npm",
  XDG_CACHE_HOME: "/tmp/.cache",
  UV_CACHE_DIR: "/tmp/.cache/uv",
  UV_TOOL_DIR: "/tmp/.local/uv-tools",
  PIPX_HOME: "/tmp/.local/pipx",
  BUN_INSTALL_CACHE_DIR: "/tmp/.cache/bun",
};

/** A first start of a package runner may download: it gets longer than a plain `initialize`. */
export const PACKAGE_RUNNER_INITIALIZE_TIMEOUT_MS = 60_000;

/**
 * The variable that sets how long a server may take to answer `initialize` and list its tools, in
 * milliseconds: Claude Code's name for it. The default (INITIALIZE_TIMEOUT_MS) is too short for a large
 * server among several starting at once on a busy machine, and only the user knows their machine.
 */
export const STARTUP_TIMEOUT_VARIABLE = "MCP_TIMEOUT";
/** The longest start MCP_TIMEOUT may ask for (10 minutes): a session waits for its servers. */
const MAX_STARTUP_TIMEOUT_MS = 600_000;

/** MCP_TIMEOUT as milliseconds, or undefined when unset or not a positive whole number. */
export function startupTimeoutFromEnvironment(
  environment: NodeJS.ProcessEnv = process.env,
): number | undefined {
  const raw = environment[STARTUP_TIMEOUT_VARIABLE]?.trim();
  if (!raw || !/^\d+$/.test(raw) || Number(raw) === 0) return undefined;
  return Math.min(Number(raw), MAX_STARTUP_TIMEOUT_MS);
}

export interface RunnerUse {
  runner: string;
  /** The package (or image) it runs, as written. */
  target: string;
  from: string;
  install: string;
}

/** The package runner a stdio server is started with, and what it runs; undefined for anything else. */
export function packageRunnerOf(config: StdioServerConfig): RunnerUse | undefined {
  const program = path.basename(config.command);
  for (const runner of PACKAGE_RUNNERS) {
    if (runner.program !== program) continue;
    const sequence = runner.subcommands
      ? runner.subcommands.find((words) => words.every((word, index) => config.args[index] === word))
      : [];
    if (!sequence) continue;
    const target = config.args.slice(sequence.length).find((word) => !word.startsWith("-")) ?? "the package";
    return {
      runner: [program, ...sequence].join(" "),
      target,
      from: runner.from,
      install: runner.install.replace("{package}", target),
    };
  }
  return undefined;
}

/**
 * Host names that stay on this machine. A name is not resolved here, and only `localhost` itself (answered
 * from /etc/hosts) counts: `*.localhost` goes to the system resolver, which may send the query off the
 * machine and answer with any address, so with the network off it is refused like any other name.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost") return true;
  if (host === "::1" || host === "0:0:0:0:0:0:0:1") return true;
  return /^127(\.\d{1,3}){3}$/.test(host);
}

export function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** Why this server needs the network to start (shown in the trust prompt and a failed start), if it does. */
export function networkNeed(config: McpServerConfig): string | undefined {
  if (config.transport === "http")
    return isLoopbackUrl(config.url)
      ? undefined
      : `it is at ${new URL(config.url).host}, another machine: the playground connects to it only while the session allows network`;
  const use = packageRunnerOf(config);
  return use ? `${use.runner} downloads ${use.target} from ${use.from} when it is not installed` : undefined;
}

/**
 * What a stdio server needs to see in the sandbox: its program (as found on its PATH), every argument
 * that names an existing file or folder (a script, a config), and its cwd. Both the path as written and
 * its realpath: the process opens the one, the kernel follows it to the other.
 */
export function serverPaths(config: StdioServerConfig, cwd: string): string[] {
  const paths = [cwd];
  const program = findProgram(config.command, config.env.PATH ?? process.env.PATH);
  if (program) paths.push(program);
  for (const arg of config.args) {
    if (arg.startsWith("-") || !(arg.includes("/") || arg.startsWith("."))) {
      // A bare word is a file only relative to the cwd (`node server.js`): the cwd covers it.
      continue;
    }
    const candidate = path.resolve(cwd, arg);
    if (exists(candidate)) paths.push(candidate);
  }
  return [...new Set(paths)];
}

function exists(target: string): boolean {
  try {
    lstatSync(target);
    return true;
  } catch {
    return false;
  }
}

/** The variables a stdio server starts with: a runner with network gets its caches in the private /tmp. */
export function launchEnvironment(config: StdioServerConfig, network: boolean): Record<string, string> {
  if (!network || !packageRunnerOf(config)) return config.env;
  return { ...RUNNER_CACHE_ENVIRONMENT, ...config.env };
}

/** One line: the sandbox a server ran under, as a failed start shows it. */
export function describeSandbox(summary: SandboxSummary | undefined): string {
  if (!summary) return "";
  if (!summary.enabled) return `not sandboxed (${summary.reason ?? "sandbox off"})`;
  const parts = [
    `network ${summary.network ? "on" : "off"}`,
    `writable: ${summary.writable.join(", ")} and a private /tmp`,
    "everything else read-only (your home too)",
  ];
  if (summary.hidden.length > 0) parts.push(`${summary.hidden.length} secret paths hidden`);
  return `sandbox: ${parts.join("; ")}`;
}

const NETWORK_FAILURE =
  /EAI_AGAIN|ENOTFOUND|ENETUNREACH|ECONNREFUSED|getaddrinfo|Network is unreachable|Temporary failure in name resolution|Could not resolve host|Failed to fetch|dns error/i;
const READ_ONLY_WRITE = /EROFS[^\n]*?'([^']+)'|Read-only file system[^\n]*?'?(\/[^\s':]+)/;

/** How to allow a server the network: the trust prompt for a workdir's server, its config for either. */
function allowNetworkFix(config: StdioServerConfig): string {
  const where = `add "network": true to mcpServers.${config.name} in ${config.configFile}`;
  return config.scope === "workdir"
    ? `allow network for this server (tick "network" for it in the trust prompt, or ${where})`
    : `allow network for this server (${where})`;
}

/**
 * The message of a failed start: what happened (`failure`), then the likely cause with its fixes, then
 * the sandbox policy the server ran under (a server's own error is often the policy's doing).
 */
export function explainStartFailure(options: {
  failure: string;
  config: McpServerConfig;
  stderr: string;
  /** The sandbox it ran under (stdio), or the session's network (http). */
  sandbox?: SandboxSummary;
  sessionNetwork?: boolean;
}): string {
  const { config, stderr, failure } = options;
  if (config.transport === "http") return explainHttp(failure, config, options.sessionNetwork === true);
  const sentences = [failure];
  const network = options.sandbox?.enabled === true ? options.sandbox.network : true;
  const use = packageRunnerOf(config);
  const offline = NETWORK_FAILURE.exec(stderr);
  if (!network && (use || offline)) {
    const cause = use
      ? `${use.runner} needs the network to download ${use.target} from ${use.from}`
      : `it needs the network (its stderr says ${offline![0]})`;
    const install = use
      ? `install it once (${use.install}) and set "command" to its binary`
      : "install what it downloads beforehand";
    sentences.push(
      `Likely cause: ${cause}, and the sandbox gives this server none. Fix: ${allowNetworkFix(config)}; or ${install}.`,
    );
  }
  // Whether a likely cause was named already (then a longer wait is not the advice).
  const explained = sentences.length > 1;
  const readOnly = READ_ONLY_WRITE.exec(stderr);
  if (readOnly && options.sandbox?.enabled)
    sentences.push(
      `It tried to write ${readOnly[1] ?? readOnly[2]}, which is read-only in the sandbox: only the workdir and a private /tmp are writable (point its data or cache folder there with "env").`,
    );
  const sandbox = describeSandbox(options.sandbox);
  if (sandbox) sentences.push(`(${sandbox})`);
  if (!explained && failure.startsWith("no answer to initialize"))
    sentences.push(
      `A server that starts slowly (a large one, several at once, a busy machine) can be given longer: set ${STARTUP_TIMEOUT_VARIABLE}=<milliseconds> where the playground starts, then reconnect.`,
    );
  if (sentences.length > 1 && !/[.!?)]$/.test(failure)) sentences[0] = `${failure}.`;
  return sentences.join(" ");
}

function explainHttp(failure: string, config: HttpServerConfig, sessionNetwork: boolean): string {
  if (sessionNetwork || isLoopbackUrl(config.url)) return failure;
  return `${failure}. ${networkNeed(config)}; allow network for this session (the header's "allow network", or cli run --allow-network), then reconnect.`;
}

/** Why the session's network-off rule keeps a server from being contacted at all (before any request). */
export function networkRefusal(config: McpServerConfig, sessionNetwork: boolean): string | undefined {
  if (config.transport !== "http" || sessionNetwork || isLoopbackUrl(config.url)) return undefined;
  return `not connected: ${networkNeed(config)}. Allow network for this session (the header's "allow network", or cli run --allow-network), then reconnect.`;
}
