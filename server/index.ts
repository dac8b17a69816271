// Composition root of `npm start`: parses flags, prepares the default workdir, starts the one-origin
// server, prints the authorised URL once, and shuts down cleanly on SIGTERM/SIGINT.
import { existsSync, rmSync } from "node:fs";
import { cp, mkdtemp, realpath, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { errorMessage } from "./errors/index.ts";
import { TokenCounter } from "./prompt/segments.ts";
import { SecretRedactor } from "./providers/redact.ts";
import { defaultSessionParts } from "./session/default-parts.ts";
import { DEMO_COPY_PREFIX } from "./shared/demo-copy.ts";
import { ExitHooks } from "./tools/exit-hooks.ts";
import { ProcessRunner } from "./tools/process-runner.ts";
import { detectSandbox, heldWritesLine, sandboxState } from "./tools/sandbox.ts";
import { startServer } from "./transport/start-server.ts";

const REPO_ROOT = fileURLToPath(new URL("../", import.meta.url));

interface Flags {
  host: string;
  port: number;
  unsafeExpose: boolean;
  workdir?: string;
  home: string;
  scenarios: string;
  dev: boolean;
}

const USAGE = `usage: npm start -- [--port N] [--host ADDR] [--workdir DIR] [--home DIR] [--scenarios DIR] [--unsafe-expose]
   or: pseudoclaude-playground [--port N] [same flags]   (the installed package)
  --port N          port to listen on (default 3000, or $PORT; 0 picks a free port)
  --host ADDR       address to listen on (default 127.0.0.1, or $HOST); non-loopback needs --unsafe-expose
  --workdir DIR     default working directory for new sessions (default: npm start: a fresh copy of
                    examples/demo-workdir; the installed command: the current folder)
  --home DIR        folder holding .PseudoClaude/ (user skills, settings, session logs); default your home
  --scenarios DIR   scenario folder for the scripted provider (default: the package's scenarios/)
  --unsafe-expose   allow listening on a non-loopback address
  --dev             what \`npm run dev\` passes: the server from its sources (pages from out/)`;

function parseFlags(argv: string[]): Flags {
  const flags: Flags = {
    host: process.env.HOST || "127.0.0.1",
    port: process.env.PORT ? Number(process.env.PORT) : 3000,
    unsafeExpose: false,
    home: homedir(),
    scenarios: path.join(REPO_ROOT, "scenarios"),
    dev: false,
  };
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index];
    const value = () => {
      const next = argv[++index];
      if (next === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
      return next;
    };
    switch (flag) {
      case "--port":
        flags.port = Number(value());
        break;
      case "--host":
        flags.host = value();
        break;
      case "--workdir":
        flags.workdir = path.resolve(value());
        break;
      case "--home":
        flags.home = path.resolve(value());
        break;
      case "--scenarios":
        flags.scenarios = path.resolve(value());
        break;
      case "--unsafe-expose":
        flags.unsafeExpose = true;
        break;
      case "--dev":
        flags.dev = true;
        break;
      case "--help":
      case "-h":
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown flag ${flag}\n${USAGE}`);
    }
  }
  if (!Number.isInteger(flags.port) || flags.port < 0 || flags.port > 65535) {
    throw new Error(`--port must be an integer from 0 to 65535\n${USAGE}`);
  }
  return flags;
}

/** Demos run in a throwaway copy so they never change anything the user cares about. */
async function demoWorkdir(): Promise<string> {
  const target = await mkdtemp(path.join(tmpdir(), DEMO_COPY_PREFIX));
  const source = path.join(REPO_ROOT, "examples", "demo-workdir");
  if (existsSync(source)) await cp(source, target, { recursive: true });
  else console.error(`${source} is missing; the default workdir starts empty`);
  return realpath(target);
}

async function main(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2));
  // The provider keys this server redacts everywhere: the configured ones join at start (the hub).
  const secrets = new SecretRedactor();
  const workdir = flags.workdir ?? (await demoWorkdir());
  const server = await startServer({
    host: flags.host,
    port: flags.port,
    unsafeExpose: flags.unsafeExpose,
    home: flags.home,
    defaultWorkdir: workdir,
    scenariosDir: flags.scenarios,
    // The demo copy is the server's own: trusted for this start, never written to the trust store.
    parts: defaultSessionParts({
      scenariosDir: flags.scenarios,
      home: flags.home,
      demoFolders: flags.workdir ? [] : [workdir],
      secrets,
    }),
    staticDir: path.join(REPO_ROOT, "out"),
    log: (line) => console.error(line),
    // Every tool process of this server starts here; server.close() ends what is still running (X8). The
    // process's one set of exit hooks: the last-resort kill of tool processes and MCP servers on a crash.
    processes: new ProcessRunner({ exitHooks: new ExitHooks() }),
    // The one token counter of this server: every session's figures, its caches shared by them all.
    tokens: new TokenCounter(),
    secrets,
  });
  // performance.now() counts from process start, so module loading (tsx) is included.
  const elapsed = Math.round(performance.now());
  // The only place the token is ever printed.
  console.log(`PseudoClaude Playground is ready in ${elapsed} ms. Open:\n\n  ${server.url}\n`);
  console.log(
    `workdir: ${workdir}${flags.workdir ? "" : " (a fresh copy of examples/demo-workdir, trusted for this start)"}`,
  );
  const sandbox = detectSandbox();
  console.log(
    sandbox.available
      ? "sandbox: on (bubblewrap; network off unless a session allows it)"
      : `sandbox off: ${sandbox.reason ?? "unavailable"} — every command will ask for approval`,
  );
  if (sandbox.available) console.log(heldWritesLine(sandboxState(false, sandbox)));
  if (flags.dev)
    console.log("dev mode: pages are served from out/; run `npm run build` after changing app/.");
  console.log(`PLAYGROUND_URL=${server.url}`);

  // The demo copy is this start's own scratch folder: it goes when the server stops (after the runs and
  // tools that use it have stopped and the logs are written). A --workdir folder is the user's: never.
  const removeDemoCopy = async () => {
    if (flags.workdir) return;
    try {
      await rm(workdir, { recursive: true, force: true });
      console.error(`removed the demo copy ${workdir}`);
    } catch (error) {
      console.error(`could not remove the demo copy ${workdir}: ${errorMessage(error)}`);
    }
  };

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`${signal}: stopping runs and tools, writing session logs…`);
    const forced = setTimeout(() => {
      console.error("shutdown took over 10 s; exiting anyway");
      if (!flags.workdir) rmSync(workdir, { recursive: true, force: true });
      process.exit(1);
    }, 10_000);
    forced.unref();
    server
      .close()
      .then(removeDemoCopy)
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        console.error(`shutdown failed: ${errorMessage(error)}`);
        process.exit(1);
      });
  };
  // Last line of defence for "nothing crashes the server": a promise some handler forgot to catch is a bug
  // to log and fix, not a reason to drop every open session and its running tools.
  process.on("unhandledRejection", (reason: unknown) => {
    console.error(
      `internal error (unhandled rejection), still serving: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
    );
  });
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((error: unknown) => {
  console.error(`cannot start the playground: ${errorMessage(error)}`);
  process.exit(2);
});
