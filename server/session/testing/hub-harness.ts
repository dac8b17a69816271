// A real session hub for tests: a temp home, workdir and scenarios folder (the transport's test
// scenarios), the default session parts, and one protocol client over an in-memory connection.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { listProviders, loadProvidersConfig } from "../../providers/config.ts";
import { ProcessRunner } from "../../tools/process-runner.ts";
import { ClientConnection } from "../../transport/connection.ts";
import { ProtocolClient } from "../../transport/protocol-client.ts";
import { TEST_SCENARIOS } from "../../transport/testing/scenarios.ts";
import { InMemoryTransport } from "../../transport/transport.ts";
import { defaultSessionParts } from "../default-parts.ts";
import { SessionHub } from "../session-hub.ts";

export interface HubHarness {
  root: string;
  home: string;
  workdir: string;
  hub: SessionHub;
  client: ProtocolClient;
  /** Closes the client, shuts the hub down, ends its processes and removes the temp folders. */
  close(): Promise<void>;
}

/** The folders a test hub runs in: a temp root with home, workdir and the transport's test scenarios. */
export interface HubFolders {
  root: string;
  home: string;
  workdir: string;
  scenariosDir: string;
}

export async function hubFolders(prefix: string): Promise<HubFolders> {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), prefix)));
  const home = path.join(root, "home");
  const workdir = path.join(root, "work");
  const scenariosDir = path.join(root, "scenarios");
  for (const folder of [home, workdir, scenariosDir]) await mkdir(folder, { recursive: true });
  for (const [name, text] of Object.entries(TEST_SCENARIOS))
    await writeFile(path.join(scenariosDir, name), text);
  return { root, home, workdir, scenariosDir };
}

/** A hub over `folders` with the default session parts, ready (a test may start another on the same folders). */
export async function startHub(folders: HubFolders, processes: ProcessRunner): Promise<SessionHub> {
  const { home, workdir, scenariosDir } = folders;
  const hub = new SessionHub({
    home,
    defaultWorkdir: workdir,
    parts: defaultSessionParts({ scenariosDir, home }),
    providers: () => listProviders(loadProvidersConfig({ home })),
    log: () => undefined,
    watch: false,
    processes,
  });
  await hub.ready();
  return hub;
}

/** One protocol client of `hub`, over an in-memory connection. */
export async function connectClient(hub: SessionHub): Promise<ProtocolClient> {
  const [serverEnd, clientEnd] = InMemoryTransport.createLinkedPair();
  void new ClientConnection(serverEnd, hub, { serverVersion: "test", log: () => undefined }).start();
  return ProtocolClient.over(clientEnd);
}

export async function startHubHarness(prefix: string): Promise<HubHarness> {
  const folders = await hubFolders(prefix);
  const processes = new ProcessRunner();
  const hub = await startHub(folders, processes);
  const client = await connectClient(hub);
  return {
    root: folders.root,
    home: folders.home,
    workdir: folders.workdir,
    hub,
    client,
    close: async () => {
      await client.close();
      await hub.shutdown();
      await processes.killAll();
      await rm(folders.root, { recursive: true, force: true });
    },
  };
}
