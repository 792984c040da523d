// Issue 6: the daemon. Save-to-visible latency of `docsync watch` (file written -> the change
// request serves the new markdown), against the same save pushed by hand in-process (`push()`)
// in the same run; and the daemon's resident memory while watching a 5,000-page workspace,
// against a 10-page one. BENCH_DAEMON=0 skips this part; BENCH_DAEMON_SAVES (default 50) and
// BENCH_DAEMON_BIG_SAVES (default 20, on the 5,000-page workspace) set the number of saves.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createClient, type Client } from '../../src/client/index.js';
import { readDaemonStatus } from '../../src/daemon/index.js';
import { clone, push, readState } from '../../src/sync/index.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { spawnWatch, type WatchProcess } from '../daemon/watch-process.js';
import { residentMemory } from './resident-memory.js';
import { benchRemoteEdits } from './remote-edits.js';

const DEBOUNCE_MS = 300; // the default of `docsync watch`, left to it
const POLL_MS = 10; // how often the bench reads the page back: the resolution of the figures
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function call(s: TestServer, method: string, path: string, body?: unknown) {
  const res = await s.request(method, path, body === undefined ? {} : { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A space of `sections` × `perSection` pages, built as test/bench/content.ts builds its own; and a leaf page's id. */
async function buildSpace(s: TestServer, sections: number, perSection: number) {
  const space = await call(s, 'POST', `/v1/orgs/${s.orgId}/spaces`, { title: `Daemon ${sections * perSection}`, empty: true });
  const cr = await call(s, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'build' });
  const write = (changes: unknown[]) =>
    call(s, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { changes });
  for (let n = 0; n < sections; n += 1) {
    const created = await write([{ operation: 'insert_page', title: `Section ${n}`, document: { markdown: `Section ${n} overview.\n` } }]);
    const children = Array.from({ length: perSection - 1 }, (_, i) => ({
      operation: 'insert_page',
      into: created.changes[0].page.id,
      title: `Page ${n}.${i + 1}`,
      document: { markdown: `## About ${n}.${i + 1}\n\nSome text for page ${n}.${i + 1}, long enough to look like documentation.\n` },
    }));
    for (let i = 0; i < children.length; i += 50) await write(children.slice(i, i + 50));
  }
  await call(s, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
  const pages = await call(s, 'GET', `/v1/spaces/${space.id}/content/pages`);
  return { spaceId: space.id as string, pageId: pages.pages[Math.floor(pages.pages.length / 2)].pages[1].id as string };
}

export interface Workspace {
  pages: number;
  spaceId: string;
  pageId: string;
  dir: string;
  file: string;
  original: string;
}

/** A space of `sections` × `perSection` pages cloned into `work` (also the remote-edits part's workspaces). */
export async function cloned(s: TestServer, client: Client, work: string, sections: number, perSection: number): Promise<Workspace> {
  const { spaceId, pageId } = await buildSpace(s, sections, perSection);
  const dir = join(work, `ws-${sections * perSection}`);
  await clone({ client, apiUrl: s.url, spaceId, dir });
  const index = (await readState(dir)).branches.main!.index.pages;
  const path = Object.keys(index).find((key) => index[key] === pageId)!;
  const file = join(dir, path);
  return { pages: sections * perSection, spaceId, pageId, dir, file, original: readFileSync(file, 'utf8') };
}

/** Saves the page with a marker only this save writes; resolves with the performance.now() and Date.now() of the write. */
let saves = 0;
function save(ws: Workspace): { marker: string; start: number; wall: number } {
  saves += 1;
  const marker = `marker-${String(saves).padStart(4, '0')}-${process.pid}`;
  const wall = Date.now();
  const start = performance.now();
  writeFileSync(ws.file, `${ws.original}\nSaved with ${marker}.\n`);
  return { marker, start, wall };
}

/** Milliseconds from `start` until the outbox change request serves `marker` in the page, or undefined after 20 s. */
async function visibleAfter(s: TestServer, ws: Workspace, marker: string, start: number): Promise<number | undefined> {
  const crId = (await readState(ws.dir)).branches.main!.outbox?.changeRequestId;
  const until = start + 20_000;
  while (performance.now() < until) {
    if (crId !== undefined) {
      const res = await s.request('GET', `/v1/spaces/${ws.spaceId}/change-requests/${crId}/content/page/${ws.pageId}?format=markdown`);
      if (res.status === 200 && String(res.body.markdown).includes(marker)) return performance.now() - start;
    }
    await sleep(POLL_MS);
  }
  return undefined;
}

async function directSaves(s: TestServer, client: Client, ws: Workspace, rounds: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    const { marker, start } = save(ws);
    const result = await push(client, ws.dir);
    if (result.changes.length !== 1) throw new Error(`a one-page save planned ${result.changes.length} operations`);
    const ms = await visibleAfter(s, ws, marker, start);
    if (ms === undefined) throw new Error(`a direct push of ${marker} never became visible`);
    times.push(ms);
  }
  return times;
}

interface DaemonRun {
  visible: number[];
  committed: number[];
  /** From the `committed` event to the marker read back. */
  afterCommit: number[];
  pushed: number[];
  lost: string[];
  /** Commits or pushes beyond one per save, and events that say something went wrong. */
  extra: string[];
}

async function daemonSaves(s: TestServer, ws: Workspace, daemon: WatchProcess, rounds: number): Promise<DaemonRun> {
  const run: DaemonRun = { visible: [], committed: [], afterCommit: [], pushed: [], lost: [], extra: [] };
  const first = daemon.events().length;
  for (let i = 0; i < rounds; i += 1) {
    const from = daemon.events().length;
    const { marker, start, wall } = save(ws);
    const ms = await visibleAfter(s, ws, marker, start);
    if (ms === undefined) {
      run.lost.push(marker);
      continue;
    }
    run.visible.push(ms);
    // The event is printed after the push has read its result back: wait for it before the next save.
    const pushed = await daemon.waitFor((e) => e.type === 'pushed', 20_000, from);
    const committed = daemon
      .events()
      .slice(from)
      .find((e) => e.type === 'committed');
    if (committed) {
      run.committed.push(Date.parse(committed.at) - wall);
      run.afterCommit.push(ms - (Date.parse(committed.at) - wall));
    }
    run.pushed.push(Date.parse(pushed.at) - wall);
    // Space the saves: the next one waits until this one's own debounce has fired. Otherwise the
    // cycle that flush starts (after an early commit by a poll cycle) commits the next save before
    // its debounce, and every later save after it, in lock-step.
    await sleep(Math.max(start + DEBOUNCE_MS + 300, performance.now() + 100) - performance.now());
  }
  await sleep(DEBOUNCE_MS + 500);
  const counts = new Map<string, number>();
  for (const event of daemon.events().slice(first)) counts.set(event.type, (counts.get(event.type) ?? 0) + 1);
  for (const type of ['committed', 'pushed'])
    if ((counts.get(type) ?? 0) > rounds) run.extra.push(`${counts.get(type)} ${type} events for ${rounds} saves`);
  for (const type of ['error', 'refused', 'offline', 'conflict', 'paused'])
    if (counts.has(type)) run.extra.push(`${counts.get(type)} ${type} events`);
  return run;
}

interface Started {
  daemon: WatchProcess;
  startedMs: number;
  idleMs: number;
  rss: number;
  /** VmHWM at that point: what the start and first cycle took at most. */
  peak: number;
}

/** Spawns the daemon, waits for `started`, then for its first cycle to end (status `idle`) and one more second; RSS is the median of 5 readings. */
async function startAndSettle(s: TestServer, ws: Workspace): Promise<Started> {
  const start = performance.now();
  // The defaults a writer gets: 300 ms debounce, 10 s poll.
  const daemon = spawnWatch(ws.dir, { DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token }, ['--debounce', '300', '--poll', '10']);
  await daemon.waitFor((e) => e.type === 'started');
  const startedMs = performance.now() - start;
  while ((await readDaemonStatus(ws.dir))?.activity !== 'idle') {
    if (performance.now() - start > 60_000) throw new Error(`the daemon did not settle; stderr: ${daemon.stderr()}`);
    await sleep(POLL_MS);
  }
  const idleMs = performance.now() - start;
  await sleep(1_000);
  return { daemon, startedMs, idleMs, rss: settledRss(daemon), peak: residentMemory(daemon.child.pid!).peak };
}

function settledRss(daemon: WatchProcess): number {
  const readings = Array.from({ length: 5 }, () => residentMemory(daemon.child.pid!).rss);
  return readings.sort((a, b) => a - b)[2]!;
}

const median = (list: number[]) => quantile(list, 0.5);
function quantile(list: number[], q: number): number {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const ms = (n: number) => `${n.toFixed(0)} ms`;

interface Measured {
  ws: Workspace;
  direct: number[];
  run: DaemonRun;
  /** The start before the saves first. */
  starts: Started[];
  rssAfter: number;
  peak: number;
}

/** Direct pushes, the daemon's saves, direct pushes again: drift on the machine falls on both. */
async function measure(s: TestServer, client: Client, ws: Workspace, rounds: number): Promise<Measured> {
  const half = Math.max(1, Math.ceil(rounds / 4));
  const direct = await directSaves(s, client, ws, half + 1); // the first opens main's outbox change request
  direct.shift();
  const started = await startAndSettle(s, ws);
  const { daemon } = started;
  try {
    await daemonSaves(s, ws, daemon, 1); // the child's first push loads and compiles what a push needs
    const run = await daemonSaves(s, ws, daemon, rounds);
    const rssAfter = settledRss(daemon);
    const peak = residentMemory(daemon.child.pid!).peak;
    const code = await daemon.stop();
    if (code !== 0) run.extra.push(`exit code ${code}: ${daemon.stderr()}`);
    direct.push(...(await directSaves(s, client, ws, half)));
    return { ws, direct, run, starts: [started], rssAfter, peak };
  } finally {
    await daemon.stop();
  }
}

function reportLatency(m: Measured): void {
  const { run, direct } = m;
  const directMedian = median(direct);
  const over = median(run.visible) - DEBOUNCE_MS;
  console.log(
    `  ${m.ws.pages}-page workspace, ${run.visible.length} saves: median ${ms(median(run.visible))}, p95 ${ms(quantile(run.visible, 0.95))}` +
      ` = debounce ${DEBOUNCE_MS} + ${ms(over)}, ${(over / directMedian).toFixed(1)}x a direct push (median ${ms(directMedian)}, p95 ${ms(quantile(direct, 0.95))}, ${direct.length} saves)`,
  );
  console.log(
    `    from the write: committed median ${ms(median(run.committed))}, then visible ${ms(median(run.afterCommit))} later; 'pushed' printed median ${ms(median(run.pushed))}` +
      `; lost saves ${run.lost.length}${run.lost.length ? ` (${run.lost.join(', ')})` : ''}${run.extra.length ? `; ${run.extra.join('; ')}` : ''}`,
  );
}

/** Further starts, alternating between the workspaces so that load from elsewhere falls on both alike. */
async function moreStarts(s: TestServer, runs: Measured[], times: number): Promise<void> {
  for (let i = 0; i < times; i += 1) {
    for (const m of runs) {
      const started = await startAndSettle(s, m.ws);
      m.starts.push(started);
      const code = await started.daemon.stop();
      if (code !== 0) throw new Error(`the daemon exited with ${code}: ${started.daemon.stderr()}`);
    }
  }
}

function reportMemory(runs: Measured[]): void {
  const [big, small] = runs.map((m) => ({
    m,
    rss: median(m.starts.map((x) => x.rss)),
    startedMs: median(m.starts.map((x) => x.startedMs)),
    idleMs: median(m.starts.map((x) => x.idleMs)),
    peak: median(m.starts.map((x) => x.peak)),
  }));
  for (const x of [big!, small!]) {
    console.log(
      `  ${`${x.m.ws.pages}-page workspace`.padEnd(22)} ${mb(x.rss)} (${x.m.starts.map((y) => mb(y.rss).replace(' MB', '')).join(', ')}), peak so far ${mb(x.peak)}; ` +
        `after the saves ${mb(x.m.rssAfter)}, peak ${mb(x.m.peak)}; 'started' ${ms(x.startedMs)} after spawn, first cycle done at ${ms(x.idleMs)} (${x.m.starts.map((y) => y.startedMs.toFixed(0)).join(', ')} ms)`,
    );
  }
  console.log(
    `  ratio ${(big!.rss / small!.rss).toFixed(2)}x (+${mb(big!.rss - small!.rss)}); after the saves ${(big!.m.rssAfter / small!.m.rssAfter).toFixed(2)}x; ` +
      `time to 'started' ${(big!.startedMs / small!.startedMs).toFixed(2)}x`,
  );
}

export async function benchDaemon(): Promise<void> {
  if (process.env.BENCH_DAEMON === '0') return;
  const rounds = Number(process.env.BENCH_DAEMON_SAVES ?? 50);
  const bigRounds = Number(process.env.BENCH_DAEMON_BIG_SAVES ?? 20);
  const starts = Number(process.env.BENCH_DAEMON_STARTS ?? 3);
  const s = await startServer('sqlite');
  const client = createClient({ baseUrl: s.url, token: s.token });
  const work = mkdtempSync(join(tmpdir(), 'docsync-bench-daemon-'));
  try {
    const setupStart = performance.now();
    const small = await cloned(s, client, work, 2, 5);
    const big = await cloned(s, client, work, 50, 100);
    const setupMs = performance.now() - setupStart;
    // A first child fills tsx's transform cache, so that no measured start pays for it.
    await (await startAndSettle(s, small)).daemon.stop();
    const runs = [await measure(s, client, big, bigRounds), await measure(s, client, small, rounds)];
    await moreStarts(s, runs, starts - 1);

    console.log(
      `\ndaemon: docsync watch (child process from source with tsx, debounce ${DEBOUNCE_MS} ms, poll 10 s), save-to-visible latency`,
    );
    console.log(
      `  (write of a page file -> the outbox change request serves it; read back every ${POLL_MS} ms; a direct push = write, push() in-process, read back)`,
    );
    for (const m of [...runs].reverse()) reportLatency(m);
    console.log(
      `daemon resident memory: VmRSS once 'started' and its first cycle is done, median of ${starts} starts (spaces built and cloned in ${(setupMs / 1000).toFixed(1)} s)`,
    );
    reportMemory(runs);
    await benchRemoteEdits(s, client, [small, big]);
  } finally {
    await client.close();
    await s.close();
    rmSync(work, { recursive: true, force: true });
  }
}
