// `npm run bench -- liveness` (issue 24): how long `GET /v1/user` waits while the server works on
// hostile input, against `docsync serve` from the built dist/ as users run it, on SQLite. The
// tests prove by order that the event loop turns while such work runs (test/helpers/liveness.ts);
// the figure in milliseconds is measured here, as a ratio to the same server's idle polls in the
// same run, and against the documented bound of 1 s (docs/security.md).
//   idle       BENCH_LIVENESS_POLLS (300) polls, one after another, nothing else running
//   parse      a write of `*a` x 40,000 (parsed on a worker; stopped at the 10 s budget)
//   inflate    a zip import of 201 entries of 1 MiB (each under the inflate-ratio floor): the server
//              inflates 200 MiB on its event loop, in 1 MiB steps, before refusing the total
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { deflateSync } from 'fflate';
import { craftZip } from '../helpers/zip-writer.js';
import { apiCaller, percentile, spawnUntilUrl, stopSpawned } from './spawned.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TOKEN = 'bench-liveness-token-0123456789';
const IDLE_POLLS = Number(process.env.BENCH_LIVENESS_POLLS ?? 300);
const BOUND_MS = 1_000;
const MiB = 1024 * 1024;
const api = apiCaller(TOKEN);

async function poll(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${url}/v1/user`, { headers: { authorization: `Bearer ${TOKEN}` } });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`GET /v1/user: ${res.status}`);
  return performance.now() - started;
}

/** Polls one after another until `attack` settles; its status and every poll's time. */
async function whileAttacked(
  url: string,
  attack: () => Promise<Response>,
): Promise<{ status: number; ms: number; polls: number[]; text: string }> {
  const polls: number[] = [];
  let done = false;
  const poller = (async () => {
    while (!done) polls.push(await poll(url));
  })();
  const started = performance.now();
  try {
    const res = await attack();
    const text = await res.text();
    return { status: res.status, ms: performance.now() - started, polls, text };
  } finally {
    done = true;
    await poller;
  }
}

/** 201 entries sharing one deflated MiB of zeros: each under the ratio floor, 201 MiB together. */
function inflateAttack(): Uint8Array {
  const body = deflateSync(new Uint8Array(MiB), { level: 9 });
  const entries = Array.from({ length: 201 }, (_, i) => ({ name: `.gitbook/assets/${i}.bin`, body: 0, method: 8 as const, size: MiB }));
  return craftZip([body], entries);
}

export async function benchLiveness(): Promise<void> {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  const load = () => (process.platform === 'linux' ? ` (load ${execFileSync('cat', ['/proc/loadavg']).toString().split(' ')[0]})` : '');
  console.log(`\nissue 24: liveness, GET /v1/user while docsync serve (dist/, SQLite) works on hostile input${load()}`);
  const zip = inflateAttack();
  const source = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/zip' }).end(zip));
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  const zipUrl = `http://127.0.0.1:${(source.address() as { port: number }).port}/attack.zip`;
  const dir = mkdtempSync(join(tmpdir(), 'docsync-bench-liveness-'));
  const server = await spawnUntilUrl(
    [
      'dist/cli/bin.js',
      'serve',
      '--port',
      '0',
      '--rate-limit',
      '0',
      '--log-level',
      'error',
      '--allow-private-fetch',
      '--data',
      join(dir, 'data'),
    ],
    { DOCSYNC_BOOTSTRAP_TOKEN: TOKEN },
    /listening on (http:\/\/\S+)/,
  );
  try {
    const { url } = server;
    const org = (await api<{ items: { id: string }[] }>(url, 'GET', '/v1/orgs')).items[0]!.id;
    const space = await api<{ id: string }>(url, 'POST', `/v1/orgs/${org}/spaces`, { title: 'Liveness', empty: true });
    const cr = await api<{ id: string }>(url, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Hostile' });
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const post = (path: string, body: unknown) => () => fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });

    for (let i = 0; i < 20; i += 1) await poll(url);
    const idle: number[] = [];
    for (let i = 0; i < IDLE_POLLS; i += 1) idle.push(await poll(url));
    const idleP99 = percentile(idle, 99);
    console.log(
      `  ${'work'.padEnd(34)} ${'answer'.padStart(6)} ${'its time'.padStart(9)} ${'polls'.padStart(6)}  ${'p50'.padStart(7)} ${'p99'.padStart(7)} ${'slowest'.padStart(8)}  slowest / idle p99`,
    );
    const row = (work: string, status: string, ms: number | undefined, polls: number[]) => {
      const slowest = Math.max(...polls);
      const within = slowest < BOUND_MS ? `under the ${BOUND_MS / 1000} s bound` : `OVER the ${BOUND_MS / 1000} s bound`;
      console.log(
        `  ${work.padEnd(34)} ${status.padStart(6)} ${(ms === undefined ? '' : `${(ms / 1000).toFixed(1)} s`).padStart(9)} ${String(polls.length).padStart(6)}  ${percentile(polls, 50).toFixed(1).padStart(5)}ms ${percentile(polls, 99).toFixed(1).padStart(5)}ms ${slowest.toFixed(0).padStart(6)}ms  ${(slowest / idleP99).toFixed(1)}x  ${within}`,
      );
    };
    row('idle', '', undefined, idle);
    const parse = await whileAttacked(
      url,
      post(`/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
        changes: [{ operation: 'insert_page', title: 'Hostile', document: { markdown: '*a'.repeat(40_000) } }],
      }),
    );
    row('parse `*a` x 40,000 (worker)', String(parse.status), parse.ms, parse.polls);
    const inflate = await whileAttacked(url, post(`/v1/spaces/${space.id}/content/import`, { url: zipUrl, source: 'zip' }));
    row('inflate 201 MiB (event loop)', String(inflate.status), inflate.ms, inflate.polls);
    // The answers, to show the work was what was meant: the parse budget, the inflated total.
    for (const { text } of [parse, inflate]) console.log(`    ${text.slice(0, 160)}`);
  } finally {
    await stopSpawned(server);
    source.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`  (load at the end${load()})`);
}
