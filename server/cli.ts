// Composition root of the command line: `npm run -s cli -- <catalog|prompt|run|install|eval|export> ...`
// (see server/cli/args.ts). The commands are server/cli/main.ts's; this file gives them the real process.
import { main } from "./cli/main.ts";

// `cli run | head` closes the pipe early: that is the reader saying "enough", not a failure.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

main(process.argv.slice(2), {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  stderrIsTerminal: process.stderr.isTTY === true,
  onInterrupt: (listener) => {
    process.once("SIGINT", listener);
    return () => void process.removeListener("SIGINT", listener);
  },
}).then((code) => {
  process.exitCode = code;
});
