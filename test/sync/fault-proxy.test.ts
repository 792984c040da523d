import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { readTreeFiles } from '../../src/git/index.js';
import { fetchContent } from '../../src/sync/remote/content.js';
import { snapshotOf } from '../../src/sync/remote/snapshot.js';
import { runCli } from '../cli/run-cli.js';
import { FAULT_KINDS, startFaultProxy, type FaultKind, type FaultProxy } from '../helpers/fault-proxy.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { clonedSpace, editMain, git } from './fixture.js';
import { seedFromEnv } from '../helpers/seed.js';

/**
 * `docsync sync` and `docsync mirror` through a proxy that drops connections, delays, answers
 * 429, 502 and 503, and cuts answers in half, on a seeded plan (`FAULT_SEED` replays one): each
 * ends exactly as the same command run on a twin without faults, and no batch is applied twice.
 */
const SEED = seedFromEnv('FAULT_SEED', 81483);
/** Sync scenarios, each on its own seed (SEED + round). */
const ROUNDS = 4;

/** The figures of a run (seed, faults by kind), printed for docs/reliability.md. */
const report = (line: string) => void process.stdout.write(`${line}\n`);

const text = (files: ReadonlyMap<string, Uint8Array>) =>
  Object.fromEntries([...files].map(([path, bytes]) => [path, Buffer.from(bytes).toString('utf8')]));

/** Faults injected by the proxies of this file, by kind, for the report at the end. */
const injected = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>;
const tally = (proxy: FaultProxy) => {
  for (const [kind, n] of Object.entries(proxy.counts())) injected[kind as FaultKind] += n;
};

/** Content writes the server applied (it answered 2xx), as the proxy forwarded them. */
const appliedBatches = (proxy: FaultProxy) =>
  proxy.log.filter((r) => r.method === 'POST' && /\/change-requests\/[^/]+\/content/.test(r.path) && r.reached && r.status! < 300);

describe('sync and mirror through a faulty network', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-fault-proxy-'));
    client = createClient({ baseUrl: s.url, token: s.token });
    report(`fault proxy seed ${SEED} (FAULT_SEED=${SEED} replays it)`);
  });
  afterAll(async () => {
    report(`faults injected: ${JSON.stringify(injected)}`);
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  /**
   * A clone with a branch whose change request is open, 70 new pages on it since (two batches
   * and more), an edit on main (its push opens a change request), and edits made on the platform.
   */
  async function scenario(name: string) {
    const t = await clonedSpace(s, client, work, name);
    // The branch has its change request already (a branch made before main moved is pushed to its own).
    git(t.dir, 'checkout', '-qb', 'bulk');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text\n\nmore on the branch\n');
    git(t.dir, 'commit', '-qam', 'Bulk pages');
    const first = await runCli(['push', '--dir', t.dir], { DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token });
    expect(first.code, first.stderr).toBe(0);
    const lines = ['# Table of contents', '', '* [Alpha](README.md)', '* [Beta](beta.md)'];
    for (let i = 0; i < 40; i += 1) {
      await writeFile(join(t.dir, `page-${i}.md`), `# Page ${i}\n\nbody ${i}\n`);
      lines.push(`* [Page ${i}](page-${i}.md)`);
    }
    await mkdir(join(t.dir, 'section'));
    await writeFile(join(t.dir, 'section', 'README.md'), '# Section\n\nthe section\n');
    lines.push('* [Section](section/README.md)');
    for (let i = 0; i < 30; i += 1) {
      await writeFile(join(t.dir, 'section', `child-${i}.md`), `# Child ${i}\n\nchild ${i}\n`);
      lines.push(`  * [Child ${i}](section/child-${i}.md)`);
    }
    await writeFile(join(t.dir, 'SUMMARY.md'), `${lines.join('\n')}\n`);
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'More pages');
    git(t.dir, 'checkout', '-q', 'main');
    await writeFile(join(t.dir, 'README.md'), '# Alpha\n\none\ntwo, edited here\nthree\n');
    git(t.dir, 'commit', '-qam', 'Edit Alpha');
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.beta, document: { markdown: '# Beta\n\nbeta text, edited on the platform\n' } },
      { operation: 'insert_page', title: 'Gamma', document: { markdown: '# Gamma\n\ngamma\n' } },
    ]);
    return t;
  }

  /** What a sync left: each branch's files, and the platform's main and change requests by subject. */
  async function outcome(dir: string, spaceId: string) {
    const branches: Record<string, unknown> = {};
    for (const branch of ['main', 'bulk']) branches[branch] = text(await readTreeFiles(dir, git(dir, 'rev-parse', branch).trim()));
    const main = snapshotOf(await fetchContent(client, { space: spaceId }));
    const changeRequests: Record<string, unknown> = {};
    for await (const cr of client.changeRequests.list(spaceId)) {
      expect(changeRequests[cr.subject ?? ''], `two change requests named ${cr.subject}`).toBeUndefined();
      changeRequests[cr.subject ?? ''] = text(snapshotOf(await fetchContent(client, { space: spaceId, changeRequest: cr.id })).files);
    }
    const journal = await readdir(join(dir, '.git', 'docsync', 'journal')).catch(() => []);
    return { branches, main: text(main.files), changeRequests, journal, status: git(dir, 'status', '--porcelain') };
  }

  it('docsync sync (push and pull) ends as a sync without faults, each batch applied once', async () => {
    const env = (url: string) => ({ DOCSYNC_API_URL: url, DOCSYNC_TOKEN: s.token });
    for (let round = 0; round < ROUNDS; round += 1) {
      const plain = await scenario(`plain-${round}`);
      const faulty = await scenario(`faulty-${round}`);
      const direct = await startFaultProxy({ target: s.url, seed: SEED, rate: 0 });
      const clean = await runCli(['sync', '--json', '--dir', plain.dir], env(direct.url));
      expect(clean.code, clean.stderr).toBe(0);
      const proxy = await startFaultProxy({ target: s.url, seed: SEED + round, rate: 0.35 });
      try {
        const result = await runCli(['sync', '--json', '--dir', faulty.dir], env(proxy.url));
        expect(result.code, `seed ${SEED + round}: ${result.stdout}${result.stderr}`).toBe(0);
        tally(proxy);
        const writes = proxy.log.filter((r) => r.method === 'POST' && r.fault !== undefined).length;
        report(
          `sync round ${round}: ${proxy.log.length} requests (${direct.log.length} without faults), ${writes} faults on writes, ${JSON.stringify(proxy.counts())}`,
        );

        const [want, got] = [await outcome(plain.dir, plain.spaceId), await outcome(faulty.dir, faulty.spaceId)];
        expect(got, `seed ${SEED + round}`).toEqual(want);
        // Both pushes went: the branch's, and main's to a change request of its own.
        expect(Object.keys(got.changeRequests)).toHaveLength(2);
        // 2 + 40 + 1 + 30 pages on the branch, and on the platform, each once.
        expect(Object.keys(got.branches.bulk as object).filter((p) => p.endsWith('.md') && p !== 'SUMMARY.md')).toHaveLength(73);

        // No batch was applied twice: each body the server took is distinct.
        const applied = appliedBatches(proxy).map((r) => r.body);
        expect(new Set(applied).size).toBe(applied.length);
        expect(appliedBatches(proxy).length).toBeLessThanOrEqual(appliedBatches(direct).length + 2);
      } finally {
        await direct.close();
        await proxy.close();
      }
    }
  }, 300_000);

  it('a cut answer to opening a change request and to each batch: each is applied once', async () => {
    const env = (url: string) => ({ DOCSYNC_API_URL: url, DOCSYNC_TOKEN: s.token });
    const plain = await scenario('plain-cut');
    const faulty = await scenario('faulty-cut');
    const clean = await runCli(['sync', '--json', '--dir', plain.dir], env(s.url));
    expect(clean.code, clean.stderr).toBe(0);
    // The first answer to each write is lost after the server acted on it; a second content write is also dropped before it.
    const proxy = await startFaultProxy({
      target: s.url,
      seed: SEED,
      rate: 0,
      force: ({ method, path, nth }) =>
        method !== 'POST' ? undefined : nth === 0 ? 'cut' : nth === 1 && path.endsWith('/content') ? 'drop' : undefined,
    });
    try {
      const result = await runCli(['sync', '--json', '--dir', faulty.dir], env(proxy.url));
      expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
      tally(proxy);
      expect(proxy.counts().cut).toBeGreaterThanOrEqual(3);
      expect(await outcome(faulty.dir, faulty.spaceId)).toEqual(await outcome(plain.dir, plain.spaceId));
      const applied = appliedBatches(proxy).map((r) => r.body);
      expect(new Set(applied).size).toBe(applied.length);
      // One change request opened (main's), though its answer was lost.
      expect(proxy.log.filter((r) => r.method === 'POST' && r.path.endsWith('/change-requests') && r.reached)).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it('gives up with a clear error when every answer fails, after a bounded number of tries', async () => {
    const t = await scenario('hopeless');
    const proxy = await startFaultProxy({
      target: s.url,
      seed: SEED,
      rate: 0,
      force: ({ method }) => (method === 'POST' ? 'bad-gateway' : undefined),
    });
    try {
      const result = await runCli(['sync', '--json', '--dir', t.dir], { DOCSYNC_API_URL: proxy.url, DOCSYNC_TOKEN: s.token });
      tally(proxy);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/Bad Gateway|injected 502/);
      expect(result.stderr).toMatch(/gave up after 4 attempts; run it again/);
      // Nothing reached the server, so nothing was applied; and the tries were bounded.
      expect(appliedBatches(proxy)).toEqual([]);
      expect(proxy.log.filter((r) => r.method === 'POST').length).toBeLessThanOrEqual(4 * 6);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it('docsync mirror of an organization ends as a mirror without faults', async () => {
    const org = await s.organization('Faulty org');
    const as = { token: org.adminToken };
    const spaces: string[] = [];
    const merged = async (spaceId: string, changes: unknown[]) => {
      const cr = (await s.request('POST', `/v1/spaces/${spaceId}/change-requests`, { ...as, body: { subject: 'pages' } })).body;
      expect((await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { ...as, body: { changes } })).status).toBe(
        200,
      );
      expect((await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`, as)).status).toBe(200);
    };
    for (let n = 0; n < 4; n += 1) {
      const space = (await s.request('POST', `/v1/orgs/${org.id}/spaces`, { ...as, body: { title: `Space ${n}`, empty: true } })).body;
      spaces.push(space.id);
      await merged(
        space.id,
        Array.from({ length: 12 }, (_, i) => ({
          operation: 'insert_page',
          title: `Page ${n}.${i}`,
          document: { markdown: `# Page ${n}.${i}\n\ntext ${i}\n` },
        })),
      );
      // One change request left open: the mirror makes a branch of it.
      const open = (await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { ...as, body: { subject: `open ${n}` } })).body;
      const edit = [{ operation: 'insert_page', title: `Draft ${n}`, document: { markdown: `# Draft ${n}\n\ndraft\n` } }];
      expect(
        (await s.request('POST', `/v1/spaces/${space.id}/change-requests/${open.id}/content`, { ...as, body: { changes: edit } })).status,
      ).toBe(200);
    }
    const env = (url: string) => ({ DOCSYNC_API_URL: url, DOCSYNC_TOKEN: org.adminToken });
    const [plainDir, faultyDir] = [join(work, 'mirror-plain'), join(work, 'mirror-faulty')];
    const proxy = await startFaultProxy({ target: s.url, seed: SEED + 1, rate: 0.3 });
    try {
      for (const round of ['clone', 'pull']) {
        if (round === 'pull') {
          for (const [n, spaceId] of spaces.entries())
            await merged(spaceId, [{ operation: 'insert_page', title: `Later ${n}`, document: { markdown: `# Later ${n}\n\nlater\n` } }]);
        }
        const clean = await runCli(['mirror', plainDir, '--org', org.id, '--json'], env(s.url));
        expect(clean.code, clean.stderr).toBe(0);
        const result = await runCli(['mirror', faultyDir, '--org', org.id, '--json'], env(proxy.url));
        expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
        expect(JSON.parse(result.stdout).map((r: { action: string }) => r.action)).toEqual(
          JSON.parse(clean.stdout).map((r: { action: string }) => r.action),
        );
        expect(await mirrorFiles(faultyDir)).toEqual(await mirrorFiles(plainDir));
      }
      tally(proxy);
      report(`mirror: ${proxy.log.length} requests, faults ${JSON.stringify(proxy.counts())}`);
    } finally {
      await proxy.close();
    }
  }, 240_000);
});

/** Every workspace of a mirror: each branch's files. */
async function mirrorFiles(dir: string) {
  const out: Record<string, unknown> = { index: JSON.parse(await readFile(join(dir, '.docsync-mirror.json'), 'utf8')) };
  for (const folder of (await readdir(dir)).filter((f) => !f.startsWith('.')).sort()) {
    const branches = git(join(dir, folder), 'for-each-ref', '--format=%(refname:short)', 'refs/heads').trim().split('\n').sort();
    for (const branch of branches) {
      const oid = git(join(dir, folder), 'rev-parse', `refs/heads/${branch}`).trim();
      out[`${folder}@${branch}`] = text(await readTreeFiles(join(dir, folder), oid));
    }
    out[`${folder} status`] = git(join(dir, folder), 'status', '--porcelain');
  }
  return out;
}
