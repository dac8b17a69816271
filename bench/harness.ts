// Shared measuring machinery for the benchmark figures: medians, interleaved subject/baseline timing
// (so both sides share the same machine noise), and the row shape every figure reports.
import os from "node:os";
import { performance } from "node:perf_hooks";

export type FigureStatus = "pass" | "miss" | "report" | "not measured";

/** One row of the results table. A figure may report several rows (e.g. one per catalog size). */
export interface FigureRow {
  figure: string;
  workload: string;
  /** Unit of `median` and `baselineMedian` ("ms", "tokens", "msgs/s", "MiB"). */
  unit: string;
  median: number | null;
  baselineMedian: number | null;
  /** median / baselineMedian, or the figure's own ratio when that is more meaningful. */
  ratio: number | null;
  target: string;
  status: FigureStatus;
  /** Short human note shown under the table (what was compared, why a figure is missing). */
  note?: string;
  /** Extra numbers kept in results.json (samples, per-size breakdowns, derived values). */
  details?: Record<string, unknown>;
}

export interface FigureOptions {
  quick: boolean;
  /** Set on the --profile re-run: figures with a browser side also profile the page (CDP). */
  profiling?: boolean;
}

export interface Figure {
  name: string;
  /** What the figure measures, shown by `--list` and used when the module cannot be loaded. */
  workload: string;
  target: string;
  run(options: FigureOptions): Promise<FigureRow[]>;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of an empty list");
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function ratioOf(subject: number | null, baseline: number | null): number | null {
  if (subject === null || baseline === null || baseline === 0) return null;
  return subject / baseline;
}

export interface InterleavedSamples {
  subject: number[];
  baseline: number[];
}

/**
 * Times `subject` and `baseline` alternately (A, B, A, B, ...), after `warmup` untimed rounds of each, so
 * JIT warm-up, GC pressure and the other processes on the machine hit both sides alike. Each callback
 * may return its own measured milliseconds (when setup must be excluded); otherwise wall time is used.
 */
export async function interleave(
  rounds: number,
  subject: () => Promise<number | void>,
  baseline: () => Promise<number | void>,
  warmup = 1,
): Promise<InterleavedSamples> {
  const samples: InterleavedSamples = { subject: [], baseline: [] };
  for (let round = 0; round < warmup + rounds; round++) {
    const subjectMs = await timed(subject);
    const baselineMs = await timed(baseline);
    if (round < warmup) continue;
    samples.subject.push(subjectMs);
    samples.baseline.push(baselineMs);
  }
  return samples;
}

async function timed(action: () => Promise<number | void>): Promise<number> {
  const started = performance.now();
  const own = await action();
  const wall = performance.now() - started;
  return typeof own === "number" ? own : wall;
}

export interface MachineFacts {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  node: string;
  platform: string;
  loadAverage: number[];
}

export function machineFacts(): MachineFacts {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    loadAverage: os.loadavg().map((value) => Math.round(value * 100) / 100),
  };
}

/** A row for a figure that could not run (module missing, browser missing, ...). Never a made-up number. */
export function notMeasured(figure: Pick<Figure, "name" | "workload" | "target">, why: string): FigureRow {
  return {
    figure: figure.name,
    workload: figure.workload,
    unit: "",
    median: null,
    baselineMedian: null,
    ratio: null,
    target: figure.target,
    status: "not measured",
    note: `not measured: ${why}`,
  };
}

export function round(value: number, digits = 3): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
