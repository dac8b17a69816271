import { describe, expect, it } from "vitest";
import { ActiveSkills } from "./active-skills.ts";
import { renderInvocation } from "./render.ts";

const meta = (tools: string[] = []) => ({
  name: "x",
  description: "d",
  tools,
  mode: "shared" as const,
  history: "recent" as const,
  extra: {},
});

describe("ActiveSkills", () => {
  it("keeps activation order for distinct names", () => {
    const active = new ActiveSkills();
    expect(active.activate({ name: "a", source: "builtin", body: "A" })).toEqual({
      position: 0,
      updated: false,
    });
    expect(active.activate({ name: "b", source: "project", body: "B" })).toEqual({
      position: 1,
      updated: false,
    });
    expect(active.names()).toEqual(["a", "b"]);
  });

  it("re-activating a name updates the body in place and keeps its position", () => {
    const active = new ActiveSkills();
    active.activate({ name: "a", source: "builtin", body: "A1" });
    active.activate({ name: "b", source: "builtin", body: "B" });
    expect(active.activate({ name: "a", source: "builtin", body: "A2", arguments: "x" })).toEqual({
      position: 0,
      updated: true,
    });
    expect(active.list()).toEqual([
      { name: "a", source: "builtin", body: "A2", arguments: "x", activations: 2 },
      { name: "b", source: "builtin", body: "B", arguments: "", activations: 1 },
    ]);
  });

  it("is safe under concurrent activation: no duplicates, every distinct name once", async () => {
    const active = new ActiveSkills();
    const names = Array.from({ length: 50 }, (_, index) => `skill-${index % 10}`);
    await Promise.all(
      names.map(async (name, index) => {
        // Interleave at an await, as concurrent load_skill calls do while re-reading bodies.
        await new Promise((resolve) => setImmediate(resolve));
        return active.activate({ name, source: "builtin", body: `body ${index}` });
      }),
    );
    expect(active.size).toBe(10);
    expect(new Set(active.names()).size).toBe(10);
    expect(active.list().reduce((sum, entry) => sum + entry.activations, 0)).toBe(50);
  });

  it("clear() and deactivate() empty it; list() returns copies", () => {
    const active = new ActiveSkills();
    active.activate({ name: "a", source: "user", body: "A" });
    active.list()[0].body = "mutated";
    expect(active.get("a")?.body).toBe("A");
    expect(active.deactivate("a")).toBe(true);
    active.activate({ name: "b", source: "user", body: "B" });
    active.clear();
    expect(active.list()).toEqual([]);
  });
});

describe("renderInvocation", () => {
  it("replaces $ARGUMENTS and {{arguments}} literally", () => {
    const rendered = renderInvocation(
      { meta: meta(), body: "Target: $ARGUMENTS\nAgain: {{arguments}}" },
      "src/$& and $1",
    );
    expect(rendered).toBe("Target: src/$& and $1\nAgain: src/$& and $1");
  });

  it("substitutes an empty string when no arguments are given", () => {
    expect(renderInvocation({ meta: meta(), body: "Look at [$ARGUMENTS]" })).toBe("Look at []");
  });

  it("substitutes once: placeholders typed inside the arguments stay as typed", () => {
    expect(
      renderInvocation(
        { meta: meta(), body: "A: $ARGUMENTS\nB: {{arguments}}" },
        "x {{arguments}} $ARGUMENTS",
      ),
    ).toBe("A: x {{arguments}} $ARGUMENTS\nB: x {{arguments}} $ARGUMENTS");
  });

  it("appends arguments when the body has no placeholder", () => {
    expect(renderInvocation({ meta: meta(), body: "Do it." }, "fast")).toBe("Do it.\n\nArguments: fast");
    expect(renderInvocation({ meta: meta(), body: "Do it." }, "")).toBe("Do it.");
  });

  it("appends the allowed-tools list when meta.tools is set", () => {
    expect(renderInvocation({ meta: meta(["read_file", "search_code"]), body: "Body" })).toBe(
      "Body\n\nAllowed tools for this skill: read_file, search_code",
    );
  });
});
