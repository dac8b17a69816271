// The environment of every process the agent starts (run_command, skill tools, MCP stdio servers), and of
// the host-side launcher (bubblewrap) that starts it in the sandbox. One allowlist serves all three.
//
// The rule: variables a configuration chooses (an MCP server's `env`, a tool's own variables) are for the
// program they configure, and reach it only inside the sandbox. The launcher runs on the host before any
// namespace exists, so anything that steers how a program is found or loaded there (`PATH`, `LD_PRELOAD`,
// `LD_LIBRARY_PATH`, `NODE_OPTIONS`, and variables no list names yet) would run workdir code on the host:
// it gets a fixed environment instead, and the program's environment is handed to bwrap as arguments
// (`--clearenv`, then `--setenv NAME VALUE` for each), applied inside. bwrap itself is an absolute path
// found once at start (sandbox.ts), never looked up on a configured PATH.

/**
 * Variables taken from the server's own environment, by name (never the server's environment minus a
 * denylist): provider keys and every other secret of the server stay out, sandbox or not. `LC_*` too.
 */
export const CHILD_ENV_ALLOWLIST: readonly string[] = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "LANG",
  "LANGUAGE",
  "TERM",
  "TZ",
  "TMPDIR",
];

export const DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/**
 * The launcher's whole environment: fixed, so nothing a workdir or a configuration writes can change how
 * bwrap (or a library it loads) behaves on the host. bwrap needs none of it; the marker is added per call.
 */
export const LAUNCHER_ENVIRONMENT: Readonly<Record<string, string>> = Object.freeze({ PATH: DEFAULT_PATH });

/**
 * What the program itself gets: the allowlisted part of the server's environment, then the caller's
 * configured variables (they win). Inside the sandbox TMPDIR is its private /tmp (the server's TMPDIR may
 * not exist there).
 */
export function childEnvironment(
  configured: Readonly<Record<string, string>> | undefined,
  sandboxed: boolean,
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (CHILD_ENV_ALLOWLIST.includes(key) || key.startsWith("LC_")) environment[key] = value;
  }
  environment.PATH ??= DEFAULT_PATH;
  if (sandboxed) environment.TMPDIR = "/tmp";
  return { ...environment, ...configured };
}

/** bwrap's arguments that give the program exactly `environment` inside the sandbox (in argv order). */
export function bwrapEnvironmentArguments(environment: Readonly<Record<string, string>>): string[] {
  const out = ["--clearenv"];
  for (const [name, value] of Object.entries(environment)) out.push("--setenv", name, value);
  return out;
}

/**
 * Why a variable name or value cannot be handed to a process (setenv and exec refuse them), or undefined.
 * Checked where configuration is read, so the problem names the file and the field.
 */
export function environmentProblem(name: string, value: string): string | undefined {
  if (name === "" || name.includes("=") || name.includes("\0"))
    return `"${name}" is not a variable name (it must be non-empty, without "=" or NUL)`;
  if (value.includes("\0")) return `the value of ${name} contains a NUL character`;
  return undefined;
}
