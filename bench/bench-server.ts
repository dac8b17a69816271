// Starts the real playground server (transport + session hub + real workspaces and permission engine)
// for a benchmark, in temp folders. The one difference from `npm start`: scripted sessions stream
// without the 15 ms per-chunk pacing the demo uses, so a benchmark measures the machinery, not a timer.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { loadScenario, loadScenarioDirectory } from "../server/providers/scenario.ts";
import { ScriptedProvider } from "../server/providers/scripted.ts";
import { defaultSessionParts } from "../server/session/default-parts.ts";
import type { SessionParts } from "../server/session/session-types.ts";
import { startServer, type RunningServer } from "../server/transport/start-server.ts";

export interface BenchServer {
  server: RunningServer;
  root: string;
  home: string;
  workdir: string;
  scenariosDir: string;
  close(): Promise<void>;
}

export interface BenchServerOptions {
  /** Scenario files to write into the server's scenarios folder: file name → YAML text. */
  scenarios: Record<string, string>;
  /** The static pages to serve; default a folder with nothing in it. */
  staticDir?: string;
}

export function unpacedParts(scenariosDir: string, home: string): SessionParts {
  const real = defaultSessionParts({ scenariosDir, home });
  return {
    ...real,
    createProvider: async ({ settings }) => {
      if (settings.provider !== "scripted") {
        throw new Error(`bench sessions use the scripted provider; got ${settings.provider}`);
      }
      // A chosen scenario file, or (as in the demo) every scenario of the folder, picked by `match`.
      const scenarios = settings.scenario
        ? await loadScenario(path.resolve(scenariosDir, settings.scenario))
        : await loadScenarioDirectory(scenariosDir);
      return new ScriptedProvider(scenarios, { chunkDelayMs: 0 });
    },
  };
}

export async function startBenchServer(options: BenchServerOptions): Promise<BenchServer> {
  const root = await mkdtemp(path.join(os.tmpdir(), "pc-bench-server-"));
  const home = path.join(root, "home");
  const workdir = path.join(root, "workdir");
  const scenariosDir = path.join(root, "scenarios");
  const emptyStatic = path.join(root, "static");
  for (const folder of [home, workdir, scenariosDir, emptyStatic]) await mkdir(folder, { recursive: true });
  for (const [name, yaml] of Object.entries(options.scenarios))
    await writeFile(path.join(scenariosDir, name), yaml);
  const server = await startServer({
    port: 0,
    home,
    defaultWorkdir: workdir,
    scenariosDir,
    staticDir: options.staticDir ?? emptyStatic,
    parts: unpacedParts(scenariosDir, home),
    watch: false,
    // Quiet by default (the table is the output); BENCH_DEBUG=1 shows what the server logs.
    log: (line) => {
      if (process.env.BENCH_DEBUG) console.error(`[server] ${line}`);
    },
  });
  return {
    server,
    root,
    home,
    workdir,
    scenariosDir,
    close: async () => {
      await server.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
