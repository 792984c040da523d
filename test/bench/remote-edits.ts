// Issue 23: platform edits reaching the writer's files, and the daemon as users run it (the built
// dist/, plain node). For each workspace (10 and 5,000 pages): an edit made on the platform
// (a change request written and merged through the API) until the page file on disk holds it,
// with `docsync watch` following the server's event stream (poll left at its 10 s default);
// baseline in the same run: the same kind of edit brought in by an in-process `pull()`. Then the
// daemon's resident memory and start time from dist/. BENCH_REMOTE_EDITS (default 20) edits each.
// `npm run bench -- remote-edits` runs this part alone, on workspaces of its own;
// BENCH_REMOTE_EDITS_CPU_PROF=<dir> writes the daemons' CPU profiles there.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { createClient, type Client } from '../../src/client/index.js';
import { readDaemonStatus } from '../../src/daemon/index.js';
import { pull } from '../../src/sync/index.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { cloned } from './daemon.js';
import { spawnWatch, type WatchProcess } from '../daemon/watch-process.js';
import { residentMemory } from './resident-memory.js';
import { recordFigure } from './issue-table.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUILT = join(ROOT, 'dist', 'cli', 'bin.js');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface EditedWorkspace {
  pages: number;
  spaceId: string;
  pageId: string;
  dir: string;
  file: string;
}

let edits = 0;
/** Writes a marker into the page on the platform (change request + write + merge); resolves when the merge answered. */
async function platformEdit(s: TestServer, ws: EditedWorkspace): Promise<{ marker: string; at: number }> {
  edits += 1;
  const marker = `remote-${String(edits).padStart(4, '0')}-${process.pid}`;
  const call = async (method: string, path: string, body?: unknown) => {
    const send = () => s.request(method, path, body === undefined ? {} : { body });
    // A kept-alive socket the server closed while the bench waited (the build before this part)
    // is reset before the request is read: sent again once on a fresh socket.
    const reset = (error: unknown) => (error as { cause?: { code?: string } }).cause?.code === 'ECONNRESET';
    const res = await send().catch((error: unknown) => (reset(error) ? send() : Promise.reject(error)));
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const cr = await call('POST', `/v1/spaces/${ws.spaceId}/change-requests`, { subject: marker });
  await call('POST', `/v1/spaces/${ws.spaceId}/change-requests/${cr.id}/content`, {
    changes: [{ operation: 'update_page', page: ws.pageId, document: { markdown: `## Edited\n\nEdited on the platform: ${marker}.\n` } }],
  });
  await call('POST', `/v1/spaces/${ws.spaceId}/change-requests/${cr.id}/merge`);
  return { marker, at: performance.now() };
}

async function onDisk(ws: EditedWorkspace, marker: string, from: number): Promise<number> {
  for (;;) {
    if (readFileSync(ws.file, 'utf8').includes(marker)) return performance.now() - from;
    if (performance.now() - from > 30_000) throw new Error(`${marker} never reached ${ws.file}`);
    await sleep(5);
  }
}

const quantile = (list: number[], q: number) =>
  [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.max(0, Math.ceil(q * list.length) - 1))] ?? NaN;
const median = (list: number[]) => quantile(list, 0.5);
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

interface Figures {
  ws: EditedWorkspace;
  viaEvents: number[];
  viaPull: number[];
  rss: number;
  startedMs: number;
}

/**
 * The built bin, or (BENCH_REMOTE_EDITS_CPU_PROF=<dir>) a script that runs it under the inspector's
 * profiler and writes the profile there at exit: node refuses --cpu-prof in NODE_OPTIONS.
 */
function profiled(bin: string): string {
  const dir = process.env.BENCH_REMOTE_EDITS_CPU_PROF;
  if (!dir) return bin;
  const script = join(dir, 'profiled-bin.mjs');
  writeFileSync(
    script,
    `import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
const session = new Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 500 });
session.post('Profiler.start');
process.on('exit', () => session.post('Profiler.stop', (error, result) => {
  if (!error) writeFileSync(${JSON.stringify(dir)} + '/daemon-' + process.pid + '.cpuprofile', JSON.stringify(result.profile));
}));
await import(${JSON.stringify(pathToFileURL(bin).href)});
`,
  );
  return script;
}

async function startBuilt(s: TestServer, ws: EditedWorkspace): Promise<{ daemon: WatchProcess; startedMs: number; rss: number }> {
  const start = performance.now();
  const env = { DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token };
  const daemon = spawnWatch(ws.dir, env, ['--debounce', '300', '--poll', '10'], { built: profiled(BUILT) });
  await daemon.waitFor((e) => e.type === 'started', 60_000);
  const startedMs = performance.now() - start;
  await daemon.waitFor((e) => e.type === 'remote' && e.mode === 'events', 60_000);
  while ((await readDaemonStatus(ws.dir))?.activity !== 'idle') await sleep(10);
  await sleep(1_000);
  const rss = [0, 1, 2, 3, 4].map(() => residentMemory(daemon.child.pid!).rss).sort((a, b) => a - b)[2]!;
  return { daemon, startedMs, rss };
}

async function measure(s: TestServer, client: Client, ws: EditedWorkspace, rounds: number): Promise<Figures> {
  const viaPull: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    const { marker, at } = await platformEdit(s, ws);
    await pull(client, ws.dir);
    viaPull.push(await onDisk(ws, marker, at));
  }
  const { daemon, startedMs, rss } = await startBuilt(s, ws);
  const viaEvents: number[] = [];
  let code: number | string;
  try {
    for (let i = 0; i < rounds; i += 1) {
      const from = daemon.events().length;
      const { marker, at } = await platformEdit(s, ws);
      viaEvents.push(await onDisk(ws, marker, at));
      await daemon.waitFor((e) => e.type === 'pulled', 30_000, from);
      while ((await readDaemonStatus(ws.dir))?.activity !== 'idle') await sleep(10);
    }
  } finally {
    code = await daemon.stop();
  }
  if (code !== 0) throw new Error(`docsync watch (dist/) exited with ${code}: ${daemon.stderr()}`);
  return { ws, viaEvents, viaPull, rss, startedMs };
}

/** Runs on the daemon bench's two workspaces (10 and 5,000 pages), smallest first. */
export async function benchRemoteEdits(s: TestServer, client: Client, workspaces: EditedWorkspace[]): Promise<void> {
  if (process.env.BENCH_REMOTE_EDITS === '0') return;
  const rounds = Number(process.env.BENCH_REMOTE_EDITS ?? 20);
  // Built each time: figures of a stale dist/ would describe other code.
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  const figures: Figures[] = [];
  for (const ws of workspaces) figures.push(await measure(s, client, ws, rounds));
  const [small, big] = figures as [Figures, Figures];
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  console.log(
    `\nissue 23: platform edit -> file on disk, docsync watch from dist/ (plain node) following the event stream, poll 10 s; ${rounds} edits each`,
  );
  console.log(`  | figure | ${small.ws.pages} pages | ${big.ws.pages} pages | ratio | target |`);
  console.log('  |---|---|---|---|---|');
  const row = (name: string, a: string, b: string, ratio: string, target: string) => {
    console.log(`  | ${name} | ${a} | ${b} | ${ratio} | ${target} |`);
    recordFigure(23, { figure: name, baseline: `${a} (${small.ws.pages} pages)`, measured: `${b} (${big.ws.pages} pages)`, ratio, target });
  };
  row(
    'edit -> on disk via events, median',
    ms(median(small.viaEvents)),
    ms(median(big.viaEvents)),
    `${(median(big.viaEvents) / median(small.viaEvents)).toFixed(2)}x`,
    '≤ 1 s',
  );
  row('edit -> on disk via events, p95', ms(quantile(small.viaEvents, 0.95)), ms(quantile(big.viaEvents, 0.95)), '', '');
  row(
    'baseline: edit -> in-process pull() done, median',
    ms(median(small.viaPull)),
    ms(median(big.viaPull)),
    `${(median(big.viaPull) / median(small.viaPull)).toFixed(2)}x`,
    '(the baseline of the row above)',
  );
  row(
    'events over the baseline (median)',
    `${(median(small.viaEvents) / median(small.viaPull)).toFixed(2)}x`,
    `${(median(big.viaEvents) / median(big.viaPull)).toFixed(2)}x`,
    '',
    '',
  );
  row('daemon resident memory, settled (dist/)', mb(small.rss), mb(big.rss), `${(big.rss / small.rss).toFixed(2)}x`, '');
  row("daemon spawn -> 'started' (dist/)", ms(small.startedMs), ms(big.startedMs), `${(big.startedMs / small.startedMs).toFixed(2)}x`, '');
}

/** `npm run bench -- remote-edits`: this part alone, on a 10- and a 5,000-page workspace of its own. */
export async function benchRemoteEditsAlone(): Promise<void> {
  const s = await startServer('sqlite');
  const client = createClient({ baseUrl: s.url, token: s.token });
  const work = mkdtempSync(join(tmpdir(), 'docsync-bench-remote-edits-'));
  try {
    const small = await cloned(s, client, work, 2, 5);
    const big = await cloned(s, client, work, 50, 100);
    await benchRemoteEdits(s, client, [small, big]);
  } finally {
    await client.close();
    await s.close();
    rmSync(work, { recursive: true, force: true });
  }
}
