// The server side of the memory figure, run in its own process (`node --expose-gc --import tsx`) so its
// RSS holds the server and nothing of the benchmark driver. Talks to the parent over the IPC channel:
// "ready" with the port and token, then answers "measure" (after full GCs) and "close".
import { fileURLToPath } from "node:url";
import { startBenchServer } from "./bench-server.ts";

export interface ChildReady {
  type: "ready";
  port: number;
  token: string;
  scenario: string;
}

export interface ChildMemory {
  type: "memory";
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

export const MEMORY_SCENARIO_FILE = "memory.yaml";

/** One assistant answer of ~60 words per user message, so 100 messages in give 200 held. */
export function memoryScenario(turns: number): string {
  const answer =
    "I read the files you named and checked each function against the skill's checklist. Two handlers " +
    "swallow errors, one query is built by string concatenation, and the retry loop never backs off. " +
    "I suggest typed errors, a parameterized query and exponential backoff; each change is small and local.";
  const lines = ["name: memory", "turns:"];
  for (let turn = 1; turn <= turns; turn++)
    lines.push(`  - text: ${JSON.stringify(`Answer ${turn}. ${answer}`)}`);
  return `${lines.join("\n")}\n`;
}

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("memory-child needs --expose-gc");
  // Two passes: the first may only queue finalizers and weak-reference cleanups.
  gc();
  gc();
}

async function main(): Promise<void> {
  const turns = Number(process.argv[2] ?? "100");
  const bench = await startBenchServer({ scenarios: { [MEMORY_SCENARIO_FILE]: memoryScenario(turns) } });
  const send = (message: ChildReady | ChildMemory) => process.send?.(message);
  process.on("message", async (message: { type: string }) => {
    if (message.type === "measure") {
      collectGarbage();
      // Let pending log writes and timers settle, then collect what they released.
      await new Promise((resolve) => setImmediate(resolve));
      collectGarbage();
      const usage = process.memoryUsage();
      send({
        type: "memory",
        rss: usage.rss,
        heapUsed: usage.heapUsed,
        external: usage.external,
        arrayBuffers: usage.arrayBuffers,
      });
    } else if (message.type === "close") {
      await bench.close();
      process.disconnect?.();
    }
  });
  send({ type: "ready", port: bench.server.port, token: bench.server.token, scenario: MEMORY_SCENARIO_FILE });
}

// Only as the forked entry point (tests import memoryScenario from here; vitest workers have an IPC channel too).
if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) await main();
