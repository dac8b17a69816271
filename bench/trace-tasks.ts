// The page's main-thread tasks from a Chrome trace, with the thread time each took. A long-task observer
// measures wall time, which on a loaded machine (several engineers' work on 2 cores) includes the time
// the renderer waited to be scheduled: a task of 20 ms of work can show as 130 ms. The trace's `tdur`
// (thread CPU time of a `RunTask`) counts only the work, so it says whether the page's own work is split
// into short enough tasks whatever else the machine is doing.

/** The trace categories the tasks and the key event need (devtools.timeline carries EventDispatch). */
export const TASK_TRACE_CATEGORIES = "devtools.timeline,disabled-by-default-devtools.timeline,toplevel";

/** One event of Chrome's trace event format (only the fields read here). */
export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  /** Microseconds. */
  ts: number;
  /** Wall duration, microseconds (complete events). */
  dur?: number;
  /** Thread CPU duration, microseconds (complete events, when the platform reports it). */
  tdur?: number;
  args?: { data?: { type?: string } };
}

export interface TracedTask {
  /** Milliseconds after the key event that started the span. */
  startMs: number;
  wallMs: number;
  /** Thread time; the wall time where the trace gave none (`threadTimed` false). */
  threadMs: number;
  threadTimed: boolean;
}

export interface TaskSummary {
  tasks: number;
  /** Thread time of all the span's tasks, ms. */
  threadMs: number;
  /** The task with the most thread time (undefined when the span had none). */
  longest?: TracedTask;
  /** Tasks over `limitMs` of thread time. */
  overLimit: number;
  /** Every task had its thread time in the trace (else some figures above are wall time). */
  threadTimed: boolean;
}

/**
 * The main-thread tasks of the page that handled the trace's first `keydown` (the renderer thread that
 * dispatched it), from that keydown on: start the trace just before the key press. Throws when the trace
 * holds no keydown: without it the page's thread and the span are unknown, and a summary of nothing
 * would read as a pass.
 */
export function tasksAfterKeydown(events: readonly TraceEvent[]): TracedTask[] {
  const keydown = events
    .filter(
      (event) => event.name === "EventDispatch" && event.args?.data?.type === "keydown" && event.ph === "X",
    )
    .sort((left, right) => left.ts - right.ts)[0];
  if (!keydown)
    throw new Error("the trace holds no keydown event: was devtools.timeline traced, and a key pressed?");
  return events
    .filter(
      (event) =>
        event.name === "RunTask" &&
        event.ph === "X" &&
        event.pid === keydown.pid &&
        event.tid === keydown.tid &&
        event.ts + (event.dur ?? 0) >= keydown.ts,
    )
    .map((event) => ({
      startMs: (event.ts - keydown.ts) / 1000,
      wallMs: (event.dur ?? 0) / 1000,
      threadMs: (event.tdur ?? event.dur ?? 0) / 1000,
      // Chrome leaves tdur out of some tasks of a few µs; under 1 ms a task cannot change the figure.
      threadTimed: event.tdur !== undefined || (event.dur ?? 0) < 1000,
    }))
    .sort((left, right) => left.startMs - right.startMs);
}

export function summarizeTasks(tasks: readonly TracedTask[], limitMs: number): TaskSummary {
  let longest: TracedTask | undefined;
  let threadMs = 0;
  let overLimit = 0;
  let threadTimed = true;
  for (const task of tasks) {
    threadTimed &&= task.threadTimed;
    threadMs += task.threadMs;
    if (task.threadMs > limitMs) overLimit++;
    if (!longest || task.threadMs > longest.threadMs) longest = task;
  }
  return { tasks: tasks.length, threadMs, ...(longest ? { longest } : {}), overLimit, threadTimed };
}
