import { access, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { createClient, type Client } from '../../client/index.js';
import { DaemonLockedError, readDaemonLock, startDaemon } from '../../daemon/index.js';
import type { RunningServer } from '../../server/index.js';
import {
  clone,
  credentialsPath,
  initWorkspace,
  loadCredentials,
  publishWorkspace,
  readState,
  saveCredentials,
  writeState,
} from '../../sync/index.js';
import { EXIT, ExitError } from '../exit.js';
import { WORKSPACE_TEMPLATE } from './init.js';
import { parsePort } from './serve.js';
import { readUpMemory, startEmbeddedServer, tokenPath, writeUpMemory } from './up-server.js';
import { asBackgroundGitProcess, daemonTimings, eventPrinter, handOver, holdSignals } from './watch.js';

export interface UpCommandOptions {
  data: string;
  workspace: string;
  host: string;
  port?: string;
  debounce: string;
  poll: string;
  json?: boolean;
}

const SAMPLE_TITLE = 'docsync sample';
const DEFAULT_PORT = 8080;

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );
const shown = (path: string) => (relative(process.cwd(), path).startsWith('..') ? path : `./${relative(process.cwd(), path)}`);

/** The workspace `up` watches: kept when it is there, cloned or made from the template when not. */
async function readyWorkspace(
  client: Client,
  apiUrl: string,
  dir: string,
  dataDir: string | undefined,
): Promise<{ spaceId: string; created: 'kept' | 'cloned' | 'published' }> {
  if (await exists(join(dir, '.git', 'docsync', 'state.json'))) {
    const state = await readState(dir);
    if (dataDir !== undefined && state.binding.apiUrl !== apiUrl) {
      // The embedded server came up on another port than last time: the workspace follows it.
      state.binding.apiUrl = apiUrl;
      await writeState(dir, state);
    }
    return { spaceId: state.binding.spaceId, created: 'kept' };
  }
  if (await exists(join(dir, '.git', 'docsync', 'unbound.json'))) {
    return { spaceId: (await publishWorkspace(client, dir, { apiUrl })).spaceId, created: 'published' };
  }
  if (await exists(dir)) {
    throw new ExitError(`${dir} exists and is not a docsync workspace; move it away, or give another folder with --workspace`);
  }
  const remembered = dataDir === undefined ? undefined : (await readUpMemory(dataDir)).spaceId;
  if (
    remembered !== undefined &&
    (await client.spaces.get(remembered).then(
      () => true,
      () => false,
    ))
  ) {
    await clone({ client, apiUrl, spaceId: remembered, dir });
    return { spaceId: remembered, created: 'cloned' };
  }
  await initWorkspace(dir, WORKSPACE_TEMPLATE, { title: SAMPLE_TITLE });
  return { spaceId: (await publishWorkspace(client, dir, { apiUrl })).spaceId, created: 'published' };
}

/**
 * Stores the login when there is none, or when it is this server's (same URL, or the same token
 * at an older port), so every docsync command works in another shell. A login for another server
 * is left alone: the banner then says how to use this token instead.
 */
async function loginForThisServer(apiUrl: string, token: string): Promise<{ saved?: string; other?: string }> {
  let stored: { apiUrl?: unknown; token?: unknown } | undefined;
  try {
    stored = JSON.parse(await readFile(credentialsPath(), 'utf8')) as { apiUrl?: unknown; token?: unknown };
  } catch {
    stored = undefined;
  }
  if (stored !== undefined && stored.apiUrl === apiUrl && stored.token === token) return {};
  if (stored === undefined || stored.apiUrl === apiUrl || stored.token === token)
    return { saved: await saveCredentials({ apiUrl, token }) };
  return { other: typeof stored.apiUrl === 'string' ? stored.apiUrl : 'another server' };
}

/**
 * `docsync up`: everything on one machine. The embedded server on SQLite in `--data` (or the API
 * of `DOCSYNC_API_URL`), a sample space made from the template on the first run, its workspace
 * in `--workspace`, and the daemon watching it, until Ctrl-C stops all of it.
 */
export async function upCommand(options: UpCommandOptions): Promise<void> {
  asBackgroundGitProcess();
  const timings = daemonTimings(options);
  const workspace = resolve(options.workspace);
  const external = process.env.DOCSYNC_API_URL;
  const dataDir = external ? undefined : resolve(options.data);
  const held = holdSignals();
  try {
    await upUntilStopped(options, timings, workspace, dataDir, held);
  } finally {
    held.release();
  }
}

async function upUntilStopped(
  options: UpCommandOptions,
  timings: { debounceMs: number; pollMs: number },
  workspace: string,
  dataDir: string | undefined,
  held: ReturnType<typeof holdSignals>,
): Promise<void> {
  // A daemon (an earlier `up`, a `watch`) already on the workspace: refuse before anything starts
  // or the workspace's binding is touched.
  const holder = await readDaemonLock(workspace);
  if (holder) throw new ExitError(new DaemonLockedError(holder, workspace).message, EXIT.refused);
  let server: RunningServer | undefined;
  let apiUrl: string;
  let token: string;
  let movedFrom: number | undefined;
  if (dataDir === undefined) {
    ({ apiUrl, token } = await loadCredentials());
  } else {
    const memory = await readUpMemory(dataDir);
    const port = options.port !== undefined ? parsePort(options.port) : (memory.port ?? DEFAULT_PORT);
    const started = await startEmbeddedServer(dataDir, options.host, port);
    server = started.server;
    token = started.token;
    movedFrom = started.movedFrom;
    apiUrl = server.url;
  }
  const client = createClient({ baseUrl: apiUrl, token, retries: 2 });
  const print = eventPrinter(options.json === true);
  try {
    const ready = await readyWorkspace(client, apiUrl, workspace, dataDir);
    const space = await client.spaces.get(ready.spaceId);
    const { saved: login, other: otherLogin } = dataDir === undefined ? {} : await loginForThisServer(apiUrl, token);
    if (dataDir !== undefined) {
      await writeUpMemory(dataDir, { port: Number(new URL(apiUrl).port), spaceId: ready.spaceId });
    }
    const tokenAt = dataDir === undefined ? (process.env.DOCSYNC_TOKEN ? 'DOCSYNC_TOKEN' : credentialsPath()) : tokenPath(dataDir);
    const readme = join(workspace, 'README.md');
    const banner = {
      type: 'up',
      api: apiUrl,
      embedded: server !== undefined,
      token: tokenAt,
      login,
      ...(otherLogin ? { otherLogin } : {}),
      workspace,
      workspaceWas: ready.created,
      space: { id: space.id, title: space.title, url: space.urls.app },
      ...(movedFrom !== undefined ? { portTaken: movedFrom } : {}),
    };
    if (options.json) {
      console.log(JSON.stringify({ at: new Date().toISOString(), ...banner }));
    } else {
      const lines = [
        'docsync is up.',
        `  API        ${apiUrl}${server ? ` (embedded, data in ${shown(dataDir!)})` : ''}${movedFrom !== undefined ? ` (port ${movedFrom} was taken)` : ''}`,
        `  token      ${tokenAt === 'DOCSYNC_TOKEN' ? 'from DOCSYNC_TOKEN' : shown(tokenAt)}${login ? ` (also saved as your login: ${login})` : ''}`,
        ...(otherLogin
          ? [`             your login is for ${otherLogin}; in another shell first: export DOCSYNC_TOKEN=$(cat ${shown(tokenAt)})`]
          : []),
        `  space      "${space.title}" ${space.urls.app}`,
        `  workspace  ${shown(workspace)} (${ready.created === 'kept' ? 'as you left it' : ready.created === 'cloned' ? 'cloned again' : 'new, from the sample'})`,
        '',
        `Edit ${shown(readme)} or any page there in your editor: each save is committed and pushed`,
        'to a change request on the platform; edits made on the platform arrive in the files.',
        `In another shell: docsync status --dir ${shown(workspace)} to see where things are, and`,
        `docsync merge --dir ${shown(workspace)} to make the saves live. Ctrl-C stops everything.`,
      ];
      for (const line of lines) console.log(line);
    }
    if (held.received() !== undefined) return;
    const daemon = await startDaemon({
      client,
      dir: workspace,
      ...timings,
      onEvent: print,
    });
    await handOver(held, daemon);
  } finally {
    await client.close();
    await server?.close();
  }
}
