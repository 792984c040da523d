// `npm run bench`: request cost of the server's core reads, as ratios against the cheapest
// authenticated request (GET /v1/user) measured in the same run, on SQLite and, when
// DOCSYNC_TEST_DATABASE_URL is set, PostgreSQL. Later issues add the sync benchmarks here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { serve } from '../../src/server/serve.js';
import { dropPostgresSchema } from '../../src/server/store/db.js';
import { PARSE_LIMITS } from '../../src/server/parse/limits.js';
import { benchContent } from './content.js';
import { benchLinks } from './links.js';
import { benchDaemon } from './daemon.js';
import { benchRequestCounts } from './request-counts.js';
import { benchPreview } from './preview.js';
import { benchCorpus } from './corpus.js';
import { benchPublished } from './published.js';
import { benchLoad } from './load.js';
import { benchLiveness } from './liveness.js';
import { printIssueTable } from './issue-table.js';
import { benchPushAlone } from './push.js';
import { benchRemoteEditsAlone } from './remote-edits.js';

// The bench's servers run in this process. The 10 s parse budget (docs/security.md) counts a
// batch's wait for a worker; building the 5,000-page spaces (150 batches of 50 pages) on a loaded
// two-core machine met it, which stopped the run before any figure. Seeding is not what is
// measured, and no figure here parses anything near the budget, so it is raised as in the tests
// (test/setup-limits.ts).
PARSE_LIMITS.budgetMs = Number(process.env.BENCH_PARSE_BUDGET_MS ?? 120_000);

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 400);
const SPACES = 1000;
const TOKEN = 'bench-token-0123456789';

async function timed(url: string, rounds: number): Promise<number> {
  const headers = { authorization: `Bearer ${TOKEN}` };
  for (let i = 0; i < 20; i += 1) await (await fetch(url, { headers })).arrayBuffer();
  const start = performance.now();
  for (let i = 0; i < rounds; i += 1) {
    const res = await fetch(url, { headers });
    if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  }
  return (performance.now() - start) / rounds;
}

async function benchDialect(dialect: 'sqlite' | 'postgres') {
  const dataDir = mkdtempSync(join(tmpdir(), 'docsync-bench-'));
  const schema = `bench_${Date.now().toString(36)}`;
  const pg = process.env.DOCSYNC_TEST_DATABASE_URL;
  const server = await serve({
    host: '127.0.0.1',
    port: 0,
    bootstrapToken: TOKEN,
    ...(dialect === 'postgres' ? { databaseUrl: pg!, schema } : { dataDir }),
  });
  try {
    const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const orgs = (await (await fetch(`${server.url}/v1/orgs`, { headers: auth })).json()) as { items: { id: string }[] };
    const org = orgs.items[0]!.id;
    const createStart = performance.now();
    let spaceId = '';
    for (let i = 0; i < SPACES; i += 1) {
      const res = await fetch(`${server.url}/v1/orgs/${org}/spaces`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ title: `Space ${i}` }),
      });
      spaceId = ((await res.json()) as { id: string }).id;
    }
    const createMs = (performance.now() - createStart) / SPACES;
    const base = await timed(`${server.url}/v1/user`, ROUNDS);
    const rows = [
      ['GET /v1/user (baseline)', base],
      ['GET /v1/spaces/{id}', await timed(`${server.url}/v1/spaces/${spaceId}`, ROUNDS)],
      ['GET /v1/orgs/{id}/spaces?limit=100', await timed(`${server.url}/v1/orgs/${org}/spaces?limit=100`, Math.ceil(ROUNDS / 4))],
      ['POST /v1/orgs/{id}/spaces', createMs],
    ] as const;
    console.log(`\n${dialect}: ${SPACES} spaces, ${ROUNDS} sequential requests per read`);
    for (const [name, ms] of rows) console.log(`  ${name.padEnd(38)} ${ms.toFixed(3)} ms/request  ${(ms / base).toFixed(2)}x baseline`);
    if (dialect === 'sqlite') await benchContent(server, org);
    // BENCH_LINKS=0 skips the link rendering figure (issue 15).
    if (dialect === 'sqlite' && process.env.BENCH_LINKS !== '0') await benchLinks(server, org);
    return base;
  } finally {
    await server.close();
    if (dialect === 'postgres') await dropPostgresSchema(pg!, schema);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const ISSUE_23 = 'instant two-way sync at any size (5,000 pages against 10)';

// `npm run bench -- load`: the load figures of issue 24 alone (test/bench/load.ts).
if (process.argv.includes('load')) {
  await benchLoad();
  process.exit(0);
}

// `npm run bench -- liveness`: GET /v1/user's wait while the server works on hostile input (test/bench/liveness.ts).
if (process.argv.includes('liveness')) {
  await benchLiveness();
  process.exit(0);
}
// `npm run bench -- push`: issue 23's one-page push and pull figures alone (test/bench/push.ts).
if (process.argv.includes('push')) {
  await benchPushAlone();
  printIssueTable(23, ISSUE_23);
  process.exit(0);
}
// `npm run bench -- remote-edits`: issue 23's platform edits reaching the files alone (test/bench/remote-edits.ts).
if (process.argv.includes('remote-edits')) {
  await benchRemoteEditsAlone();
  printIssueTable(23, ISSUE_23);
  process.exit(0);
}

// `npm run bench -- content`: the server's figures on SQLite alone (content engine, clone, push and
// pull, bytes per edit, links; BENCH_LINKS=0 leaves the links out), then issue 23's table.
if (process.argv.includes('content')) {
  await benchDialect('sqlite');
  printIssueTable(23, ISSUE_23);
  process.exit(0);
}

const sqliteBase = await benchDialect('sqlite');
if (process.env.DOCSYNC_TEST_DATABASE_URL) {
  const pgBase = await benchDialect('postgres');
  console.log(`\npostgres baseline / sqlite baseline: ${(pgBase / sqliteBase).toFixed(2)}x`);
}
// Published page throughput against @fastify/static, first render of a 5,000-page site's page
// (issue 22; BENCH_PUBLISHED=0 skips it).
await benchPublished();
await benchDaemon();
// BENCH_REQUESTS=0 skips the request counts of the sync commands (issue 16).
if (process.env.BENCH_REQUESTS !== '0') await benchRequestCounts();
// BENCH_PREVIEW=0 skips the preview figures (issue 21).
if (process.env.BENCH_PREVIEW !== '0') await benchPreview();
// BENCH_LIVENESS=0 skips the polls' wait beside hostile input (issue 24).
if (process.env.BENCH_LIVENESS !== '0') await benchLiveness();
// The visible corpus through push and clone, when DOCSYNC_CORPUS_DIR names it (issue 14).
await benchCorpus();
// Issue 23's figures, printed above by content.ts, push.ts and remote-edits.ts, in one table.
printIssueTable(23, ISSUE_23);
