import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, stat, truncate, writeFile, appendFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import {
  MAX_RECORD_NESTING,
  nodeLogFileSystem,
  readSessionLog,
  SessionLogWriter,
  type LogEventRecord,
  type LogFileSystem,
} from "./session-log.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "session-log-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function eventRecord(seq: number, message: string): LogEventRecord {
  return {
    kind: "event",
    seq,
    at: new Date(0).toISOString(),
    event: { type: "session_error", code: "test", message },
  };
}

async function waitFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("session log durability (SECURITY.md D1–D6)", () => {
  it("D1: kill -9 during appends keeps every complete record and warns about the torn tail", async () => {
    const path = join(dir, "killed.jsonl");
    // node --import tsx, not the tsx wrapper: SIGKILL must hit the process that writes.
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(import.meta.dirname, "fixtures", "append-forever.ts"), path],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await waitFor(() => (output.includes("ready") ? true : undefined), "the child's first record", 20_000);
    // Let it write a few MB so the kill lands in the middle of the loop.
    await waitFor(
      async () => ((await stat(path)).size > 4 * 1024 * 1024 ? true : undefined),
      "4 MB of records",
    );
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGKILL");
    await exited;

    const data = await readFile(path);
    const completeLines = data.toString("utf8").split("\n").slice(0, -1).length;
    const loaded = await readSessionLog(path);
    expect(loaded.events.length).toBeGreaterThan(10);
    expect(loaded.events.length).toBe(completeLines);
    loaded.events.forEach((record, index) => expect(record.seq).toBe(index + 1));
    if (data[data.length - 1] !== 0x0a) expect(loaded.warnings.join("\n")).toMatch(/torn last record/);

    // The kill may land between records; tear the tail by hand too, so the warning path always runs.
    const { size } = await stat(path);
    await appendFile(path, '{"kind":"event","seq":99999,"at":"');
    const torn = await readSessionLog(path);
    expect(torn.events.length).toBe(loaded.events.length);
    expect(torn.warnings.at(-1)).toMatch(/killed\.jsonl:\d+: skipped torn last record/);
    expect(size).toBeGreaterThan(0);
  }, 60_000);

  it("D2: appending after a torn tail starts the new record on its own line", async () => {
    const path = join(dir, "torn.jsonl");
    const writer = new SessionLogWriter(path);
    writer.append(eventRecord(1, "one"));
    writer.append(eventRecord(2, "two"));
    await writer.close();
    const { size } = await stat(path);
    await truncate(path, size - 7);

    const resumed = new SessionLogWriter(path);
    resumed.append(eventRecord(3, "three"));
    await resumed.close();
    const loaded = await readSessionLog(path);
    expect(loaded.events.map((record) => record.seq)).toEqual([1, 3]);
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toMatch(/unreadable record/);
    const lines = (await readFile(path, "utf8")).split("\n");
    expect(JSON.parse(lines[2]).seq).toBe(3);
  });

  it("D3: a block of NUL bytes mid-file is skipped and later records load", async () => {
    const path = join(dir, "nul.jsonl");
    const first = JSON.stringify(eventRecord(1, "before")) + "\n";
    const second = JSON.stringify(eventRecord(2, "after")) + "\n";
    const third = JSON.stringify(eventRecord(3, "glued")) + "\n";
    await writeFile(
      path,
      Buffer.concat([
        Buffer.from(first),
        Buffer.alloc(4096),
        Buffer.from("\n"),
        Buffer.from(second),
        Buffer.alloc(512),
        Buffer.from(third),
      ]),
    );
    const loaded = await readSessionLog(path);
    expect(loaded.events.map((record) => record.seq)).toEqual([1, 2, 3]);
    expect(loaded.warnings.join("\n")).toMatch(/NUL/);
  });

  it("D3: each run of NUL bytes is named by its line, around a record or alone, and CRLF lines read too", async () => {
    const path = join(dir, "nuls.jsonl");
    const line = (seq: number) => Buffer.from(JSON.stringify(eventRecord(seq, `m${seq}`)));
    await writeFile(
      path,
      Buffer.concat([
        line(1),
        Buffer.from("\r\n"),
        Buffer.alloc(3),
        line(2),
        Buffer.alloc(2),
        Buffer.from("\n"),
        line(3),
        Buffer.from("\n"),
        Buffer.alloc(5),
        Buffer.from("\n"),
        line(4),
        Buffer.from("\r\n"),
      ]),
    );
    const loaded = await readSessionLog(path);
    expect(loaded.events.map((record) => record.seq)).toEqual([1, 2, 3, 4]);
    expect(loaded.warnings).toEqual([
      `${path}:2: NUL bytes around a record were skipped`,
      `${path}:4: skipped 5 NUL bytes`,
    ]);
  });

  it("D4: U+2028, U+2029, \\r and emoji round-trip intact", async () => {
    const path = join(dir, "unicode.jsonl");
    const tricky = "line\u2028sep\u2029para\rreturn\r\n🙂 👩‍💻 end";
    const writer = new SessionLogWriter(path);
    writer.append(eventRecord(1, tricky));
    writer.append(eventRecord(2, "plain"));
    await writer.close();
    const loaded = await readSessionLog(path);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.events).toHaveLength(2);
    expect((loaded.events[0].event as { message: string }).message).toBe(tricky);
  });

  it("D5: many concurrent producers on one writer never interleave lines", async () => {
    const path = join(dir, "concurrent.jsonl");
    const writer = new SessionLogWriter(path);
    const big = "y".repeat(100_000);
    const producers = [0, 1].map(async (client) => {
      for (let index = 0; index < 50; index++) {
        writer.append(eventRecord(client * 1000 + index, `${client}:${big}`));
        if (index % 7 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    });
    await Promise.all(producers);
    await writer.close();
    const loaded = await readSessionLog(path);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.events).toHaveLength(100);
    for (const record of loaded.events) {
      const message = (record.event as { message: string }).message;
      expect(message).toBe(`${Math.floor(record.seq / 1000)}:${big}`);
    }
  });

  it("D6: a full disk is reported, records stay queued, and writing resumes when space returns", async () => {
    // A real full disk cannot be produced safely here, so the file-system seam fails writes with ENOSPC
    // (after writing part of the record, as a real short write would) while `diskFull` is set.
    const path = join(dir, "full.jsonl");
    let diskFull = false;
    const fullDisk: LogFileSystem = {
      async openForAppend(target) {
        const real = await nodeLogFileSystem.openForAppend(target);
        return {
          ...real,
          async write(data) {
            if (diskFull) {
              await real.write(data.subarray(0, Math.floor(data.length / 2)));
              throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
            }
            await real.write(data);
          },
        };
      },
    };
    const errors: string[] = [];
    let recovered = 0;
    const writer = new SessionLogWriter(
      path,
      fullDisk,
      {
        onWriteError: (error) => errors.push(String(error.code)),
        onRecovered: () => recovered++,
      },
      30,
    );
    writer.append(eventRecord(1, "before"));
    await writer.flush();
    diskFull = true;
    writer.append(eventRecord(2, "during"));
    writer.append(eventRecord(3, "during too"));
    await waitFor(() => (errors.length > 0 ? true : undefined), "the ENOSPC report");
    await new Promise((resolve) => setTimeout(resolve, 100)); // several retries fail while the disk is full
    expect(errors).toEqual(["ENOSPC"]);
    expect(writer.queued).toBe(2);
    diskFull = false;
    await waitFor(() => (recovered > 0 ? true : undefined), "recovery");
    await writer.close();
    const loaded = await readSessionLog(path);
    expect(loaded.events.map((record) => record.seq)).toEqual([1, 2, 3]);
    expect(loaded.warnings.length).toBeGreaterThan(0); // the half-written fragments are skipped
  });

  it("flush waits for a record appended while the previous records finish writing", async () => {
    // A session emits while its creator flushes (an MCP server's state arriving during start). With a fast
    // disk the append can land after the last write but before the drain has ended: flush used to see
    // that record still queued and throw "1 records not yet written". Every point of that window is tried.
    for (let hops = 0; hops < 12; hops++) {
      const written: string[] = [];
      let late: (() => void) | undefined;
      const fast: LogFileSystem = {
        openForAppend: async () => ({
          tail: async () => ({ size: 0, endsWithNewline: false }),
          async write(data) {
            written.push(data.toString().trim());
            const append = late;
            late = undefined;
            if (!append) return;
            let chain = Promise.resolve();
            for (let hop = 0; hop < hops; hop++) chain = chain.then(() => undefined);
            void chain.then(append);
          },
          sync: async () => undefined,
          close: async () => undefined,
        }),
      };
      const writer = new SessionLogWriter(join(dir, `fast-${hops}.jsonl`), fast);
      late = () => writer.append(eventRecord(2, "late"));
      writer.append(eventRecord(1, "first"));
      await writer.flush();
      await writer.flush();
      expect(
        written.map((line) => (JSON.parse(line) as LogEventRecord).seq),
        `${hops} hops`,
      ).toEqual([1, 2]);
    }
  });
});

describe("the log schema (S23)", () => {
  it("format 1 and 2 logs (as written and as exported) open with every record and no warning", async () => {
    for (const name of [
      "format-1-compact.jsonl",
      "format-1-full.jsonl",
      "format-2-logged.jsonl",
      "format-2-exported.jsonl",
      "format-2-two-skills.jsonl",
      "format-2-late-logged.jsonl",
      "format-2-late-exported.jsonl",
    ]) {
      const file = join(import.meta.dirname, "fixtures", name);
      const lines = (await readFile(file, "utf8")).trimEnd().split("\n").length;
      const log = await readSessionLog(file);
      expect(log.warnings).toEqual([]);
      expect(log.header).toBeDefined();
      expect(log.events).toHaveLength(lines - 1);
    }
  });

  it("a record whose fields have the wrong type is skipped with a warning naming the line and field; unknown event types are kept", async () => {
    const file = join(dir, "s.jsonl");
    const header = {
      kind: "header",
      version: 2,
      id: "s",
      createdAt: "t",
      title: "t",
      settings: { workdir: "/w", provider: "scripted", model: "m" },
    };
    const lines = [
      header,
      eventRecord(1, "fine"),
      {
        kind: "event",
        seq: 2,
        at: "t",
        event: { type: "stop", runId: "r", reason: "completed", iterations: "<b>1</b>" },
      },
      { kind: "event", seq: "3", at: "t", event: { type: "session_error", code: "x", message: "y" } },
      {
        kind: "event",
        seq: 4,
        at: "t",
        event: { type: "a_newer_versions_event", anything: [1, { two: 2 }] },
      },
      // The router's decision is read by the inspector: a crafted one is refused like any field.
      {
        kind: "event",
        seq: 5,
        at: "t",
        event: {
          type: "provider_payload",
          runId: "r",
          requestIndex: 1,
          payload: {},
          routing: { scores: "x" },
        },
      },
    ];
    await writeFile(file, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
    const log = await readSessionLog(file);
    expect(log.events.map((record) => record.seq)).toEqual([1, 4]);
    expect(log.warnings).toEqual([
      expect.stringMatching(
        /s\.jsonl:3: skipped a record that does not match the log schema: stop: .*\/iterations/,
      ),
      expect.stringMatching(/s\.jsonl:4: skipped a record that does not match the log schema: .*\/seq/),
      expect.stringMatching(
        /s\.jsonl:6: skipped a record that does not match the log schema: provider_payload: .*\/routing/,
      ),
    ]);
  });

  it("a record nested past the limit is skipped with a warning naming its line and kept for the export; one nested to the limit is read", async () => {
    const file = join(dir, "s.jsonl");
    const nested = (levels: number) => `${"[".repeat(levels - 1)}"a \\" [[ \\\\"${"]".repeat(levels - 1)}`;
    const atLimit = eventRecord(1, "fine");
    const deep = JSON.stringify({ ...eventRecord(2, "x"), extra: "@" }).replace(
      '"@"',
      nested(MAX_RECORD_NESTING),
    );
    const tooDeep = JSON.stringify({ ...eventRecord(3, "x"), extra: "@" }).replace(
      '"@"',
      nested(MAX_RECORD_NESTING + 1),
    );
    await writeFile(
      file,
      [JSON.stringify(atLimit), deep, tooDeep, JSON.stringify(eventRecord(4, "after"))].join("\n"),
    );
    const log = await readSessionLog(file);
    expect(log.events.map((record) => record.seq)).toEqual([1, 2, 4]);
    expect(log.warnings).toEqual([
      `${file}:3: skipped a record nested deeper than ${MAX_RECORD_NESTING} levels; the limit is ${MAX_RECORD_NESTING}`,
    ]);
    expect(log.skipped).toEqual([{ afterSeq: 2, text: tooDeep }]);
  });
});
