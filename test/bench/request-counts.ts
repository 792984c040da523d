// Issue 16: what the sync tool's commands cost in HTTP requests on a 200-page space (10 files,
// one open change request sharing all pages but one with main), against our server directly and
// through the hosted-API emulation (test/helpers/hosted-proxy.ts: no extensions, so no markdown
// listing: each page body is a request of its own). The built CLI (dist/cli/bin.js) runs as
// users run it; a counting proxy in front of the server sees every request in both modes, file
// downloads included. Counts are not timings: they do not vary from run to run.
// The hosted side rate limits as the hosted API does; the 429s it answered are printed.
// Targets against the hosted API: a pull of one remote page edit ≤ 10 requests; a clone ≤ one
// request per distinct page body and file + 5.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostedProxy } from '../helpers/hosted-proxy.js';
import { startServer, type TestServer } from '../helpers/server.js';

const PAGES = 200;
const RATE_LIMIT = 50;
const FILES = 10;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'dist', 'cli', 'bin.js');

async function call(s: TestServer, method: string, path: string, body?: unknown) {
  const res = await s.request(method, path, body === undefined ? {} : { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The space: PAGES pages and FILES files on main, and an open change request editing one page. */
async function buildSpace(s: TestServer) {
  const space = await call(s, 'POST', `/v1/orgs/${s.orgId}/spaces`, { title: 'Counted', empty: true });
  const cr = await call(s, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'build' });
  const write = (crId: string, changes: unknown[]) =>
    call(s, 'POST', `/v1/spaces/${space.id}/change-requests/${crId}/content?compat=false`, { changes });
  const ids: string[] = [];
  for (let i = 0; i < PAGES; i += 50) {
    const batch = Array.from({ length: Math.min(50, PAGES - i) }, (_, k) => ({
      operation: 'insert_page',
      ref: `p${i + k}`,
      title: `Page ${i + k}`,
      document: { markdown: `# Page ${i + k}\n\nSome text for page ${i + k}, long enough to look like documentation.\n` },
    }));
    const written = await write(cr.id, batch);
    ids.push(...written.changes.map((c: { page: { id: string } }) => c.page.id));
  }
  const files = Array.from({ length: FILES }, (_, i) => ({
    name: `image-${i}.png`,
    contentType: 'image/png',
    base64: Buffer.from(`file ${i}`).toString('base64'),
  }));
  await write(cr.id, [{ operation: 'insert_files', files }]);
  await call(s, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
  const review = await call(s, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Review' });
  await write(review.id, [{ operation: 'update_page', page: ids[1], document: { markdown: '# Page 1\n\nEdited in review.\n' } }]);
  return { spaceId: space.id as string, ids };
}

function cli(args: string[], env: Record<string, string>): Promise<void> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('DOCSYNC_')));
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...base, ...env } }, (error, stdout, stderr) => {
      // Exit 4 (sent what it could) is an answer, not a failure, for a count.
      if (error && error.code !== 4) reject(new Error(`docsync ${args.join(' ')}: ${stderr || stdout || error.message}`));
      else resolve();
    });
  });
}

type Mode = 'direct' | 'hosted';
const STEPS = ['clone', 'pull (1 remote page edit)', 'push (1 page edit)', 'mirror (first, 1 space)'] as const;

/** The four commands in a row on a server and space of their own (so the mirror's organization holds one space). */
async function countMode(mode: Mode, work: string): Promise<{ counts: number[]; refused: number }> {
  const s = await startServer('sqlite');
  const space = await buildSpace(s);
  // The hosted side also rate limits, as the hosted API does: the client's budget must keep it free of 429s.
  const proxy = await hostedProxy(s.url, mode === 'direct' ? { passThrough: true } : { requestsPerSecond: RATE_LIMIT });
  const env = { XDG_CONFIG_HOME: join(work, `config-${mode}`), DOCSYNC_API_URL: proxy.url, DOCSYNC_TOKEN: s.token };
  const dir = join(work, mode);
  const counted = async (run: () => Promise<void>) => {
    const before = proxy.seen.length;
    await run();
    return proxy.seen.length - before;
  };
  try {
    const clone = await counted(() => cli(['clone', space.spaceId, dir], env));
    const page = space.ids[7];
    await call(s, 'POST', `/v1/spaces/${space.spaceId}/change-requests`, { subject: 'remote edit' }).then(async (cr) => {
      await call(s, 'POST', `/v1/spaces/${space.spaceId}/change-requests/${cr.id}/content`, {
        changes: [{ operation: 'update_page', page, document: { markdown: '# Edited\n\nOn the platform.\n' } }],
      });
      await call(s, 'POST', `/v1/spaces/${space.spaceId}/change-requests/${cr.id}/merge`);
    });
    const pull = await counted(() => cli(['pull', '--dir', dir], env));
    execFileSync('git', ['checkout', '-q', '-b', 'edit'], { cwd: dir });
    writeFileSync(join(dir, 'page-3.md'), '# Page 3\n\nEdited in the workspace.\n');
    execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.test', 'commit', '-qam', 'Edit page 3'], { cwd: dir });
    const push = await counted(() => cli(['push', '--dir', dir], env));
    const mirror = await counted(() => cli(['mirror', join(work, `mirror-${mode}`), '--org', s.orgId], env));
    return { counts: [clone, pull, push, mirror], refused: proxy.statuses.filter((status) => status === 429).length };
  } finally {
    await proxy.close();
    await s.close();
  }
}

export async function benchRequestCounts(): Promise<void> {
  // Built each time: counts of a stale dist/ would describe other code.
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  const work = mkdtempSync(join(tmpdir(), 'docsync-bench-requests-'));
  try {
    const { counts: direct } = await countMode('direct', work);
    const { counts: hosted, refused } = await countMode('hosted', work);
    // Main's bodies, the change request's one other body, the files.
    const distinct = PAGES + 1 + FILES;
    const targets = [`≤ ${distinct + 5} (${distinct} distinct bodies and files + 5)`, '≤ 10', '', ''];
    console.log(`\nrequests per command on a ${PAGES}-page space with ${FILES} files and an open change request (dist/cli/bin.js)`);
    console.log(`  ${'command'.padEnd(28)} ${'direct'.padStart(7)} ${'hosted'.padStart(7)}  target (hosted)`);
    STEPS.forEach((step, i) => {
      const over = (i === 0 && hosted[i]! > distinct + 5) || (i === 1 && hosted[i]! > 10) ? '  OVER TARGET' : '';
      console.log(`  ${step.padEnd(28)} ${String(direct[i]).padStart(7)} ${String(hosted[i]).padStart(7)}  ${targets[i]}${over}`);
    });
    console.log(`  hosted side rate limited at ${RATE_LIMIT} requests a second: ${refused} answered 429 (each retried, and counted above)`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
