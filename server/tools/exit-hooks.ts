// The last resort when the process exits without a shutdown (a crash, a plain exit): each owner of live
// child processes — a ProcessRunner, an MCP server's stdio transport — registers a hook that SIGKILLs
// what it still has. One instance per composition root (server/index.ts, server/cli.ts), passed down to
// those owners, instead of module-level sets and "installed" flags: a test, a CLI command and a server in
// one process each see only their own processes.
export class ExitHooks {
  private readonly hooks = new Set<() => void>();
  private listening = false;
  private readonly onExit = (): void => {
    for (const hook of this.hooks) hook();
  };

  /** Runs `hook` (synchronous: nothing else runs at exit) when the process exits; returns its removal. */
  add(hook: () => void): () => void {
    this.hooks.add(hook);
    if (!this.listening) {
      process.on("exit", this.onExit);
      this.listening = true;
    }
    return () => {
      this.hooks.delete(hook);
    };
  }

  /** Hooks registered now. */
  get size(): number {
    return this.hooks.size;
  }

  /** Stops listening for the exit and drops every hook (an owner that outlives its composition root). */
  dispose(): void {
    process.off("exit", this.onExit);
    this.listening = false;
    this.hooks.clear();
  }
}
