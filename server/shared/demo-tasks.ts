// The tasks the empty chat offers as one-click messages. They are the demo project's (examples/
// demo-workdir) and its offline scenarios' (scenarios/), so they are true only where the demo's files are.
// THE RULE: a task is offered in a workdir where every file its scenario reads and speaks of exists (the
// server checks when it sends the session, Session.summary, and the page shows only what it was sent).
// Checking the files rather than "is this the demo copy" also offers them on `--workdir
// examples/demo-workdir` itself, and offers none in a folder of the user's own. Pure: the pages import it.

export interface DemoTask {
  /** The message the button sends. */
  prompt: string;
  /** Files (relative to the workdir) the task's scenario reads and its answer speaks of. */
  needs: readonly string[];
}

export const DEMO_TASKS: readonly DemoTask[] = [
  // scenarios/review.yaml reads src/orders.js and reports findings in it.
  { prompt: "review src/orders.js", needs: ["src/orders.js"] },
  // scenarios/csv-profile-next-run.yaml profiles data/sales.csv.
  { prompt: "profile data/sales.csv", needs: ["data/sales.csv"] },
  // scenarios/todo-triage.yaml searches src/ and ranks the TODOs of src/orders.js.
  { prompt: "list the TODOs", needs: ["src/orders.js"] },
  // scenarios/commit.yaml proposes a message about the change to src/orders.js.
  { prompt: "commit my changes", needs: ["src/orders.js"] },
];

/** The prompts of the tasks whose files all exist, by `exists` (a path relative to the workdir). */
export function demoTasksFor(exists: (relative: string) => boolean): string[] {
  return DEMO_TASKS.filter((task) => task.needs.every(exists)).map((task) => task.prompt);
}
