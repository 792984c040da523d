// `npm run bench -- load` (issue 24): concurrent readers and writers on loopback against
// `docsync serve` from the built dist/, as users run it: on SQLite (one process) and, when
// DOCSYNC_TEST_DATABASE_URL is set, on PostgreSQL with two server processes sharing one database
// and a third started while the writers run. Bounded in count and time:
//   reads    autocannon on a page read, 10 connections per process, BENCH_LOAD_SECONDS (default 5)
//   writes   BENCH_LOAD_WRITERS (8) writers, each with its own change request, BENCH_LOAD_BATCHES (6)
//            batches (insert a page, edit the writer's own page), spread over every process up
//   merges   each writer merges its change request; a 409 (main moved under the merge) is retried
//   jobs     BENCH_LOAD_JOBS (6) OpenAPI specs by URL, created through every process: each URL
//            must be fetched exactly once, whichever process claims the job
// Then it checks that nothing acknowledged is lost: every inserted page and every writer's last
// edit is in main's final revision. Throughput and p50/p99 per kind are printed.
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { dropPostgresSchema } from '../../src/server/store/db.js';
import { apiCaller, HttpError, percentile, spawnUntilUrl, stopSpawned, type Spawned } from './spawned.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TOKEN = 'bench-load-token-0123456789';
const require = createRequire(import.meta.url);

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
const autocannon = require('autocannon') as (options: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
}) => Promise<CannonResult>;

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 5);
const WRITERS = Number(process.env.BENCH_LOAD_WRITERS ?? 8);
const BATCHES = Number(process.env.BENCH_LOAD_BATCHES ?? 6);
const JOBS = Number(process.env.BENCH_LOAD_JOBS ?? 6);

type Proc = Spawned;

const startServer = (env: Record<string, string>, args: string[]): Promise<Proc> =>
  spawnUntilUrl(
    ['dist/cli/bin.js', 'serve', '--port', '0', '--rate-limit', '0', '--log-level', 'error', '--allow-private-fetch', ...args],
    { DOCSYNC_BOOTSTRAP_TOKEN: TOKEN, ...env },
    /listening on (http:\/\/\S+)/,
  );
const stopServer = stopSpawned;
const api = apiCaller(TOKEN);

interface Row {
  kind: string;
  count: number;
  perSecond: number;
  p50: number;
  p99: number;
  note: string;
}

/** A loopback server of OpenAPI documents that counts how often each is fetched. */
async function specServer(): Promise<{ server: Server; url: string; fetched: Map<string, number> }> {
  const fetched = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    fetched.set(path, (fetched.get(path) ?? 0) + 1);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ openapi: '3.0.3', info: { title: `Spec ${path}`, version: '1.0.0' }, paths: {} }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${address.port}`, fetched };
}

async function scenario(name: string, procs: Proc[], startThird: (() => Promise<Proc>) | undefined): Promise<Row[]> {
  const pick = (i: number) => procs[i % procs.length]!.url;
  const first = pick(0);
  const org = (await api<{ items: { id: string }[] }>(first, 'GET', '/v1/orgs')).items[0]!.id;
  const space = await api(first, 'POST', `/v1/orgs/${org}/spaces`, { title: `Load ${name}`, empty: true });
  const seed = await api(first, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'seed' });
  await api(first, 'POST', `/v1/spaces/${space.id}/change-requests/${seed.id}/content?compat=false`, {
    changes: Array.from({ length: WRITERS + 2 }, (_, i) => ({
      operation: 'insert_page',
      title: `Page ${i}`,
      document: { markdown: `# Page ${i}\n\nThe first text of page ${i}.\n` },
    })),
  });
  await api(first, 'POST', `/v1/spaces/${space.id}/change-requests/${seed.id}/merge`);
  const pages = (await api<{ pages: { id: string; title: string }[] }>(first, 'GET', `/v1/spaces/${space.id}/content/pages`)).pages;
  const rows: Row[] = [];

  // Reads: every process at once.
  const readPath = `/v1/spaces/${space.id}/content/page/${pages[WRITERS]!.id}`;
  const reads = await Promise.all(
    procs.map((p) =>
      autocannon({ url: `${p.url}${readPath}`, connections: 10, duration: SECONDS, headers: { authorization: `Bearer ${TOKEN}` } }),
    ),
  );
  if (reads.some((r) => r.non2xx > 0 || r.errors > 0)) throw new Error(`${name}: page reads failed: ${JSON.stringify(reads)}`);
  rows.push({
    kind: 'page reads',
    count: reads.reduce((n, r) => n + r.requests.total, 0),
    perSecond: reads.reduce((n, r) => n + r.requests.average, 0),
    p50: Math.max(...reads.map((r) => r.latency.p50)),
    p99: Math.max(...reads.map((r) => r.latency.p99)),
    note: `${procs.length} process(es), 10 connections each`,
  });

  // Writes and merges, a third process joining while they run.
  const writeTimes: number[] = [];
  const mergeTimes: number[] = [];
  let conflicts = 0;
  let third: Promise<Proc> | undefined;
  const writesStart = performance.now();
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      const cr = await api(pick(w), 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: `writer ${w}` });
      for (let b = 0; b < BATCHES; b += 1) {
        if (w === 0 && b === 1 && startThird) third = startThird().then((p) => (procs.push(p), p));
        const t = performance.now();
        await api(pick(w + b), 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
          changes: [
            {
              operation: 'insert_page',
              title: `Writer ${w} batch ${b}`,
              document: { markdown: `# Writer ${w} batch ${b}\n\nw${w}b${b}\n` },
            },
            { operation: 'update_page', page: pages[w]!.id, document: { markdown: `# Page ${w}\n\nWriter ${w} wrote batch ${b}.\n` } },
          ],
        });
        writeTimes.push(performance.now() - t);
      }
      for (let attempt = 0; ; attempt += 1) {
        const t = performance.now();
        try {
          await api(pick(w + attempt), 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
          mergeTimes.push(performance.now() - t);
          return;
        } catch (error) {
          if (!(error instanceof HttpError) || error.status !== 409 || attempt >= 20) throw error;
          conflicts += 1;
        }
      }
    }),
  );
  const writesSeconds = (performance.now() - writesStart) / 1000;
  if (third) await third;
  rows.push({
    kind: 'batch writes',
    count: writeTimes.length,
    perSecond: writeTimes.length / writesSeconds,
    p50: percentile(writeTimes, 50),
    p99: percentile(writeTimes, 99),
    note: `${WRITERS} writers x ${BATCHES} batches of 2 operations`,
  });
  rows.push({
    kind: 'merges',
    count: mergeTimes.length,
    perSecond: mergeTimes.length / writesSeconds,
    p50: percentile(mergeTimes, 50),
    p99: percentile(mergeTimes, 99),
    note: `${conflicts} answered 409 and retried${startThird ? `; a third process joined mid-run (${procs.length} at the end)` : ''}`,
  });

  // Nothing acknowledged is lost.
  const final = (await api<{ pages: { id: string; title: string }[] }>(first, 'GET', `/v1/spaces/${space.id}/content/pages`)).pages;
  const titles = new Set(final.map((p) => p.title));
  for (let w = 0; w < WRITERS; w += 1) {
    for (let b = 0; b < BATCHES; b += 1)
      if (!titles.has(`Writer ${w} batch ${b}`))
        throw new Error(`${name}: page "Writer ${w} batch ${b}" was acknowledged and is not in main`);
    const page = await api<{ markdown: string }>(pick(w), 'GET', `/v1/spaces/${space.id}/content/page/${pages[w]!.id}?format=markdown`);
    if (!page.markdown.includes(`Writer ${w} wrote batch ${BATCHES - 1}.`))
      throw new Error(`${name}: writer ${w}'s last edit is not in main: ${page.markdown}`);
  }

  // Background jobs: each runs once, whichever process claims it.
  const specs = await specServer();
  try {
    const jobsStart = performance.now();
    await Promise.all(
      Array.from({ length: JOBS }, (_, j) =>
        api(pick(j), 'POST', `/v1/orgs/${org}/openapi`, { slug: `load-${j}`, source: { url: `${specs.url}/spec-${j}.json` } }),
      ),
    );
    const done = new Set<number>();
    for (const until = Date.now() + 120_000; done.size < JOBS;) {
      if (Date.now() > until) throw new Error(`${name}: ${JOBS - done.size} OpenAPI jobs did not finish in 120 s`);
      for (let j = 0; j < JOBS; j += 1) {
        if (done.has(j)) continue;
        const spec = await api(pick(j + 1), 'GET', `/v1/orgs/${org}/openapi/load-${j}`);
        if (spec.processingState === 'complete') {
          if (spec.lastProcessErrorCode) throw new Error(`${name}: spec load-${j} failed: ${spec.lastProcessErrorCode}`);
          done.add(j);
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const twice = [...specs.fetched].filter(([, n]) => n !== 1);
    if (twice.length > 0 || specs.fetched.size !== JOBS)
      throw new Error(`${name}: each spec must be fetched once: ${JSON.stringify([...specs.fetched])}`);
    rows.push({
      kind: 'OpenAPI jobs',
      count: JOBS,
      perSecond: JOBS / ((performance.now() - jobsStart) / 1000),
      p50: 0,
      p99: 0,
      note: `each URL fetched once by ${procs.length} process(es)`,
    });
  } finally {
    specs.server.close();
  }
  return rows;
}

function print(name: string, rows: Row[]): void {
  console.log(`\n${name}`);
  for (const r of rows) {
    const latency = r.p50 > 0 ? `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms` : '';
    console.log(
      `  ${r.kind.padEnd(14)} ${String(r.count).padStart(7)}  ${r.perSecond.toFixed(1).padStart(8)}/s  ${latency.padEnd(30)} ${r.note}`,
    );
  }
}

export async function benchLoad(): Promise<void> {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  const load = () => (process.platform === 'linux' ? ` (load ${execFileSync('cat', ['/proc/loadavg']).toString().split(' ')[0]})` : '');
  console.log(`\nissue 24: load, docsync serve from dist/ on loopback${load()}`);

  const dir = mkdtempSync(join(tmpdir(), 'docsync-bench-load-'));
  const sqlite = [await startServer({}, ['--data', join(dir, 'data')])];
  try {
    print('SQLite, one process', await scenario('sqlite', sqlite, undefined));
  } finally {
    await Promise.all(sqlite.map(stopServer));
    rmSync(dir, { recursive: true, force: true });
  }

  const pg = process.env.DOCSYNC_TEST_DATABASE_URL;
  if (!pg) {
    console.log('\nPostgreSQL: not run (set DOCSYNC_TEST_DATABASE_URL to a database docsync may create schemas in)');
    return;
  }
  const schema = `bench_load_${Date.now().toString(36)}`;
  const env = { DOCSYNC_DATABASE_URL: pg, DOCSYNC_DATABASE_SCHEMA: schema };
  const procs: Proc[] = [];
  try {
    // The first migrates the schema; the second starts on it.
    procs.push(await startServer(env, []));
    procs.push(await startServer(env, []));
    const third = () => startServer(env, []);
    print('PostgreSQL, two processes on one database, a third started mid-run', await scenario('postgres', procs, third));
  } finally {
    await Promise.all(procs.map(stopServer));
    await dropPostgresSchema(pg, schema);
  }
  console.log(`\n(load at the end${load()})`);
}
