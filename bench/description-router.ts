// The description router's cost per model request: scoring every index line of a 1,000-skill stable
// system (parseIndex + BM25 over stems) inside RouterProvider.stream, against the scripted provider
// answering the same request with a one-turn scenario (which reads nothing of the prompt). The difference
// is what reading the descriptions costs an offline request. The router reads an index once per stable
// system (the same bytes on every request of a session or lab): "warm" requests reuse it, "cold" ones
// (a stable system it has not seen) read it first.
import { performance } from "node:perf_hooks";
import { buildStableSystem } from "../server/prompt/stable-system.ts";
import { parseScenario } from "../server/providers/scenario.ts";
import { RouterProvider } from "../server/providers/router.ts";
import { ScriptedProvider } from "../server/providers/scripted.ts";
import type { ModelRequest, Provider } from "../server/providers/types.ts";
import { planCatalog } from "./generate-catalog.ts";
import { median, round, type Figure, type FigureRow } from "./harness.ts";

const SKILLS = 1000;

async function timeOne(provider: Provider, request: ModelRequest): Promise<number> {
  const started = performance.now();
  for await (const event of provider.stream(request, new AbortController().signal)) {
    if (event.type === "done" || event.type === "error") break;
  }
  return performance.now() - started;
}

export const descriptionRouterFigure: Figure = {
  name: "description-router",
  workload: `one request against a ${SKILLS}-skill index: router vs scripted`,
  target: "report (ms per request, ratio)",
  async run({ quick }): Promise<FigureRow[]> {
    const skills = planCatalog({ skills: SKILLS, withTools: 0, shadowed: 0 }).map(
      ({ name, description }) => ({
        name,
        description,
      }),
    );
    const stable = buildStableSystem({ skills, disclosure: "progressive" });
    const scenario = parseScenario("name: one\nturns:\n  - text: Done.\n", "one.yaml");
    const samples = quick ? 20 : 100;
    const router: number[] = [];
    const scripted: number[] = [];
    for (let index = 0; index <= samples; index += 1) {
      // A different message each time, so nothing is answered from a cache of the last one.
      const request: ModelRequest = {
        system: { stable, environment: "# Environment\n" },
        messages: [{ role: "user", content: `summarise the report for customer ${index} by month` }],
        tools: [],
      };
      const routed = await timeOne(new RouterProvider(), request);
      const played = await timeOne(new ScriptedProvider(scenario), request);
      if (index === 0) continue; // warm-up
      router.push(routed);
      scripted.push(played);
    }
    const cold: number[] = [];
    for (let index = 0; index < (quick ? 5 : 20); index += 1) {
      const request: ModelRequest = {
        system: { stable: `${stable}\n(cold ${index})`, environment: "# Environment\n" },
        messages: [{ role: "user", content: `summarise the report for customer ${index} by month` }],
        tools: [],
      };
      cold.push(await timeOne(new RouterProvider(), request));
    }
    const coldMedian = median(cold);
    const routerMedian = median(router);
    const scriptedMedian = median(scripted);
    return [
      {
        figure: "description-router",
        workload: `one request, ${SKILLS}-skill index (${stable.length} chars), ${samples} samples`,
        unit: "ms",
        median: round(routerMedian),
        baselineMedian: round(scriptedMedian),
        ratio: round(routerMedian / scriptedMedian),
        target: "report",
        status: "report",
        note: `router ${routerMedian.toFixed(2)} ms vs scripted ${scriptedMedian.toFixed(2)} ms per request with the index read (warm); the first request on a new stable system (cold) takes ${coldMedian.toFixed(1)} ms`,
        details: { routerMs: router.map(round), scriptedMs: scripted.map(round), coldMs: cold.map(round) },
      },
    ];
  },
};
