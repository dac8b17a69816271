import { afterEach, describe, expect, it } from "vitest";
import { ExitHooks } from "./exit-hooks.ts";

// That the hooks run at exit is shown with a real process: process-runner.test.ts, "exit hooks".

describe("ExitHooks", () => {
  const created: ExitHooks[] = [];
  afterEach(() => {
    for (const hooks of created.splice(0)) hooks.dispose();
  });

  it("listens for the process exit once, however many hooks it holds, and stops on dispose", () => {
    const before = process.listenerCount("exit");
    const hooks = new ExitHooks();
    created.push(hooks);
    expect(process.listenerCount("exit")).toBe(before);
    const removeFirst = hooks.add(() => undefined);
    hooks.add(() => undefined);
    expect(hooks.size).toBe(2);
    expect(process.listenerCount("exit")).toBe(before + 1);
    removeFirst();
    expect(hooks.size).toBe(1);
    hooks.dispose();
    expect(hooks.size).toBe(0);
    expect(process.listenerCount("exit")).toBe(before);
  });
});
