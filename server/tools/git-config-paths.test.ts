// How a configuration listing (`git config --list --show-origin -z`, as the host's git prints it) reads as
// paths git runs or loads (git-config-paths.ts states the rule). The sandbox and the permission engine act
// on these through real git in sandbox-git-config.attack.test.ts and protected-writes.test.ts.
import { describe, expect, it } from "vitest";
import { namedPaths } from "./git-config-paths.ts";

const top = "/w/project";
const listing = (...entries: [string, string][]): string =>
  entries.map(([key, value]) => `file:.git/config\0${key}\n${value}\0`).join("");
/** The paths named outright (not loaded files, not plain words that count only if a file). */
const paths = (...entries: [string, string][]): string[] =>
  namedPaths(listing(...entries), top)
    .filter((named) => named.key !== "loaded" && !named.ifFile)
    .map((named) => named.path);

describe("paths a repository's configuration names", () => {
  it("every file git loaded is named, relative to the top of the work tree", () => {
    expect(namedPaths(listing(["core.bare", "false"]), top)).toContainEqual({
      path: "/w/project/.git/config",
      key: "loaded",
    });
  });

  it("an include is relative to the file that names it, whatever its condition", () => {
    expect(
      paths(["include.path", "../shared.gitconfig"], ["includeif.onbranch:rel.path", "rel.cfg"]),
    ).toEqual(["/w/project/shared.gitconfig", "/w/project/.git/rel.cfg"]);
  });

  it("a hooks folder in a dot-folder brings the dot-folder; the top and a git folder never", () => {
    expect(paths(["core.hookspath", ".husky/_"])).toEqual(["/w/project/.husky/_", "/w/project/.husky"]);
    expect(paths(["core.hookspath", ".githooks"])).toEqual(["/w/project/.githooks"]);
    expect(paths(["core.hookspath", ".git/hooks"])).toEqual(["/w/project/.git/hooks"]);
    expect(
      namedPaths(listing(["core.hookspath", "hooks"]), "/w/.dotfiles").map((named) => named.path),
    ).toEqual(["/w/.dotfiles/.git/config", "/w/.dotfiles/hooks"]);
  });

  it("any other value is read as a command line: words with a slash, and plain words if a file", () => {
    const named = namedPaths(listing(["filter.tidy.clean", "sh tidy.sh --quiet | ./tools/x.sh"]), top);
    expect(named.filter((entry) => entry.key !== "loaded")).toEqual([
      { path: "/w/project/sh", key: "filter.tidy.clean", ifFile: true },
      { path: "/w/project/tidy.sh", key: "filter.tidy.clean", ifFile: true },
      { path: "/w/project/tools/x.sh", key: "filter.tidy.clean" },
    ]);
    expect(paths(["alias.lint", "!scripts/lint.sh"], ["core.sshcommand", "ssh -i keys/id"])).toEqual([
      "/w/project/scripts/lint.sh",
      "/w/project/keys/id",
    ]);
  });

  it("URLs, host:path, refspecs and ref names name no path", () => {
    expect(
      paths(
        ["remote.origin.url", "https://example.com/team/app.git"],
        ["remote.upstream.url", "git@example.com:team/app.git"],
        ["remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*"],
        ["branch.main.merge", "refs/heads/main"],
      ),
    ).toEqual([]);
  });
});
