// Issue 22: published pages as users serve them (the built dist/, `docsync serve`, plain node).
// 1. Throughput of one published page under autocannon against @fastify/static serving the same
//    HTML, saved to a file, from its own plain-node process, in the same run: each server alone in
//    its process, the load generator in this one, runs alternated so load from elsewhere falls on
//    both alike (target: docsync ≥ 0.5× static).
// 2. The first render of a page of a 5,000-page site (the site's page tree built, the page rendered
//    on the parse pool) against the first render of a 10-page site's page in the same server.
// BENCH_PUBLISHED=0 skips it; BENCH_PUBLISHED_SECONDS (default 5) is each autocannon run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { apiCaller, spawnUntilUrl, stopSpawned, type Spawned } from './spawned.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TOKEN = 'bench-token-0123456789';
const require = createRequire(import.meta.url);

/** The part of autocannon's programmatic API used here (it ships no types). */
interface CannonResult {
  requests: { average: number };
  non2xx: number;
  errors: number;
}
const autocannon = require('autocannon') as (options: { url: string; connections: number; duration: number }) => Promise<CannonResult>;

/** A page of the size and kinds of blocks documentation pages have (about 4 KB of markdown). */
const PAGE = (n: number) => `# Page ${n}

Install the tool, then configure it. This page explains **every option** with an example and links
to [the guide](https://example.com/guide).

## Install

\`\`\`bash
npm install --save-dev example-tool
npx example-tool init
\`\`\`

{% hint style="info" %}
The tool needs Node.js 20 or later.
{% endhint %}

## Options

| Option | Default | What it does |
| --- | --- | --- |
| \`--watch\` | false | Rebuilds on every change |
| \`--out\` | dist | Where the output goes |
| \`--quiet\` | false | Prints only errors |

${Array.from({ length: 12 }, (_, i) => `### Step ${i + 1}\n\nA paragraph of prose for step ${i + 1}: what to do, why, and what comes out of it when all goes well.\n\n- one point\n- another point\n`).join('\n')}
`;

type Started = Spawned;
const start = (args: string[], env: Record<string, string>, pattern: RegExp) => spawnUntilUrl(args, env, pattern);
const stop = stopSpawned;
const api = apiCaller(TOKEN);

/**
 * A published public site of one space of `sections` × `perSection` pages; the URL of the first
 * page of its middle section, the one page whose markdown is a full `PAGE` (the others are short,
 * so building a large site stays quick).
 */
async function publishedSite(url: string, org: string, title: string, sections: number, perSection: number): Promise<string> {
  const space = await api(url, 'POST', `/v1/orgs/${org}/spaces`, { title, empty: true });
  const cr = await api(url, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'build' });
  const write = (changes: unknown[]) =>
    api(url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { changes });
  let n = 0;
  for (let s = 0; s < sections; s += 1) {
    const middle = s === Math.floor(sections / 2);
    const created = await write([
      { operation: 'insert_page', title: `Section ${s}`, document: { markdown: `# Section ${(n += 1)}\n\nShort.\n` } },
    ]);
    const section = created.changes[0].page.id as string;
    const children = Array.from({ length: perSection - 1 }, (_, c) => ({
      operation: 'insert_page',
      into: section,
      title: `Page ${(n += 1)}`,
      document: { markdown: middle && c === 0 ? PAGE(n) : `# Page ${n}\n\nA short page.\n` },
    }));
    for (let i = 0; i < children.length; i += 50) await write(children.slice(i, i + 50));
  }
  await api(url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
  const site = await api(url, 'POST', `/v1/orgs/${org}/sites`, { title, spaces: [space.id] });
  await api(url, 'POST', `/v1/orgs/${org}/sites/${site.id}/publish`);
  const listed = await api<{ pages: { path: string; pages?: { path: string }[] }[] }>(url, 'GET', `/v1/spaces/${space.id}/content/pages`);
  const page = listed.pages[Math.floor(sections / 2)]!.pages![0]!;
  return `${new URL(site.urls.published).pathname}/${page.path}`;
}

async function timedGet(url: string): Promise<{ ms: number; html: string }> {
  const t = performance.now();
  const res = await fetch(url);
  const html = await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${html.slice(0, 300)}`);
  return { ms: performance.now() - t, html };
}

async function cannon(url: string, seconds: number): Promise<number> {
  const result = await autocannon({ url, connections: 10, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

export async function benchPublished(): Promise<void> {
  if (process.env.BENCH_PUBLISHED === '0') return;
  const seconds = Number(process.env.BENCH_PUBLISHED_SECONDS ?? 5);
  // Built each time: figures of a stale dist/ would describe other code.
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'docsync-bench-published-'));
  const docsync = await start(
    [
      ...(process.env.BENCH_PUBLISHED_NODE_ARGS ?? '').split(' ').filter(Boolean),
      'dist/cli/bin.js',
      'serve',
      '--port',
      '0',
      '--data',
      join(dir, 'data'),
      '--rate-limit',
      '0',
      '--log-level',
      'error',
    ],
    { DOCSYNC_BOOTSTRAP_TOKEN: TOKEN },
    /listening on (http:\/\/\S+)/,
  );
  let statics: Started | undefined;
  try {
    const org = (await api<{ items: { id: string }[] }>(docsync.url, 'GET', '/v1/orgs')).items[0]!.id;
    // A site visited first starts the parse pool's threads, so neither first render below pays for it.
    const warm = await publishedSite(docsync.url, org, 'Warm', 1, 2);
    // Both of the pool's threads (two on two cores): two pages at once.
    await Promise.all([timedGet(`${docsync.url}${warm}`), timedGet(`${docsync.url}${warm.split('/').slice(0, -1).join('/')}`)]);
    const small = await publishedSite(docsync.url, org, 'Small', 2, 5);
    const buildStart = performance.now();
    const large = await publishedSite(
      docsync.url,
      org,
      'Large',
      ...((process.env.BENCH_PUBLISHED_SIZE ?? '50x100').split('x').map(Number) as [number, number]),
    );
    const buildS = (performance.now() - buildStart) / 1000;

    // First renders: the 10-page site's page, then the 5,000-page site's (its tree, then the page), then warm.
    const smallFirst = await timedGet(`${docsync.url}${small}`);
    const largeFirst = await timedGet(`${docsync.url}${large}`);
    const largeWarm = await timedGet(`${docsync.url}${large}`);
    const html = smallFirst.html;

    writeFileSync(join(dir, 'page.html'), html);
    const fastify = pathToFileURL(require.resolve('fastify')).href;
    const fastifyStatic = pathToFileURL(require.resolve('@fastify/static')).href;
    const script = join(dir, 'static.mjs');
    writeFileSync(
      script,
      `import Fastify from '${fastify}';\nimport serveStatic from '${fastifyStatic}';\n` +
        `const app = Fastify();\nawait app.register(serveStatic.default ?? serveStatic, { root: ${JSON.stringify(dir)} });\n` +
        `const url = await app.listen({ host: '127.0.0.1', port: 0 });\nconsole.log('static listening on ' + url);\n` +
        `process.on('SIGTERM', () => app.close().then(() => process.exit(0)));\n`,
    );
    statics = await start([script], {}, /static listening on (http:\/\/\S+)/);
    const staticBody = await timedGet(`${statics.url}/page.html`);
    if (staticBody.html !== html) throw new Error('the static server does not serve the same page');

    const rounds = 3;
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let i = 0; i < rounds; i += 1) {
      theirs.push(await cannon(`${statics.url}/page.html`, seconds));
      ours.push(await cannon(`${docsync.url}${small}`, seconds));
    }
    const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
    const [oursRate, staticRate] = [mean(ours), mean(theirs)];
    console.log(
      `\nissue 22: published pages, \`docsync serve\` from dist/ (plain node, SQLite); autocannon 10 connections, ${rounds} × ${seconds} s each, alternated`,
    );
    console.log(
      `  one published page (${(html.length / 1024).toFixed(1)} KiB of HTML)  docsync ${oursRate.toFixed(0)} req/s, @fastify/static (same HTML file) ${staticRate.toFixed(0)} req/s: ${(oursRate / staticRate).toFixed(2)}x (target ≥ 0.50x)`,
    );
    console.log(`  first render of a page, 10-page site                 ${smallFirst.ms.toFixed(0)} ms`);
    console.log(
      `  first render of a page, 5,000-page site (built in ${buildS.toFixed(0)} s)  ${largeFirst.ms.toFixed(0)} ms: ${(largeFirst.ms / smallFirst.ms).toFixed(2)}x the 10-page site's; warm ${largeWarm.ms.toFixed(1)} ms`,
    );
  } finally {
    if (statics) await stop(statics);
    await stop(docsync);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchPublished();
