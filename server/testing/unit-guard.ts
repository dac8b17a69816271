// Setup file of the `unit` Vitest project (vitest.config.ts): a unit test starts no process and opens no
// socket — no child_process, no bubblewrap, no server, no fetch. Each is refused where it is called (so
// nothing starts), and the test fails afterwards even if the code under test caught the refusal, naming
// the call: such a test belongs in the `integration` project. What stays: files in temp folders, timers,
// in-memory transports.
import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";
import { afterEach, expect } from "vitest";

const refused: string[] = [];

function refuse(what: string): never {
  const test = expect.getState().currentTestName ?? "a unit test";
  refused.push(what);
  throw new Error(
    `${test} called ${what}: unit tests start no process and open no socket — ` +
      `list ${expect.getState().testPath ?? "its file"} under INTEGRATION in vitest.config.ts`,
  );
}

const processCalls = ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const;
for (const name of processCalls) {
  Object.defineProperty(childProcess, name, {
    value: () => refuse(`child_process.${name}`),
    configurable: true,
    writable: true,
  });
}
net.Server.prototype.listen = function listen() {
  return refuse("a listening socket (net.Server.listen)");
};
net.Socket.prototype.connect = function connect() {
  return refuse("a socket connection (net.Socket.connect)");
};
// `import { spawn } from "node:child_process"` reads the patched functions too.
syncBuiltinESMExports();

afterEach(() => {
  const calls = refused.splice(0);
  if (calls.length > 0)
    throw new Error(`this unit test called ${[...new Set(calls)].join(", ")} (refused); see the error above`);
});
