// Content engine figures for a space of 5,000 pages (issue 3): bytes stored per one-page edit,
// time of a one-page batch write (against the same write in a 10-page space), and read
// throughput of one page as markdown against a bare Fastify route serving the same bytes.
import Fastify from 'fastify';
import { performance } from 'node:perf_hooks';
import type { RunningServer } from '../../src/server/serve.js';
import { findRevision, revisionTree } from '../../src/server/store/revisions.js';
import { canonicalJson } from '../../src/server/store/trees.js';
import { indexPages } from '../../src/content/index.js';
import { benchClone } from './clone.js';
import { benchPush } from './push.js';
import { recordFigure } from './issue-table.js';

const TOKEN = 'bench-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

async function api<T = any>(server: RunningServer, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A space whose main content has `sections` × `perSection` pages (a section page plus children). */
export async function buildSpace(server: RunningServer, org: string, sections: number, perSection: number) {
  const space = await api(server, 'POST', `/v1/orgs/${org}/spaces`, { title: `Bench ${sections * perSection}`, empty: true });
  const cr = await api(server, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'build' });
  const write = (changes: unknown[]) =>
    api(server, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { changes });
  for (let s = 0; s < sections; s += 1) {
    const created = await write([{ operation: 'insert_page', title: `Section ${s}`, document: { markdown: `Section ${s} overview.\n` } }]);
    const sectionId = created.changes[0].page.id as string;
    const children: unknown[] = [];
    for (let c = 1; c < perSection; c += 1) {
      children.push({
        operation: 'insert_page',
        into: sectionId,
        title: `Page ${s}.${c}`,
        document: { markdown: `## About ${s}.${c}\n\nSome text for page ${s}.${c}, long enough to look like documentation.\n` },
      });
    }
    for (let i = 0; i < children.length; i += 50) await write(children.slice(i, i + 50));
  }
  await api(server, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
  const pages = await api(server, 'GET', `/v1/spaces/${space.id}/content/pages`);
  const leaf = pages.pages[Math.floor(pages.pages.length / 2)].pages[1];
  return { spaceId: space.id as string, pageId: leaf.id as string };
}

async function storedBytes(server: RunningServer): Promise<number> {
  const row = await server.db.kysely
    .selectFrom('blobs')
    .select((eb) => eb.fn.sum<number>('size').as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The page's own bytes at the head of a change request: its markdown and its fields as the store writes them. */
async function pageOwnBytes(server: RunningServer, changeRequestId: string, pageId: string): Promise<number> {
  const cr = await server.db.kysely
    .selectFrom('change_requests')
    .select('revision_id')
    .where('id', '=', changeRequestId)
    .executeTakeFirstOrThrow();
  const tree = await revisionTree(server.db.kysely, (await findRevision(server.db.kysely, cr.revision_id))!);
  const { pages: _pages, ...fields } = indexPages(tree.pages).get(pageId)!.page;
  const doc = fields.document
    ? await server.db.kysely.selectFrom('blobs').select('size').where('sha256', '=', fields.document).executeTakeFirst()
    : undefined;
  return canonicalJson(fields).length + Number(doc?.size ?? 0);
}

type OneEdit = (pageId: string, i: number) => unknown;
const documentEdit: OneEdit = (pageId, i) => ({ operation: 'update_page', page: pageId, document: { markdown: `Edited ${i}.\n` } });
const metadataEdit: OneEdit = (pageId, i) => ({ operation: 'update_page', page: pageId, description: `Edited ${i}` });

async function oneEditTimes(server: RunningServer, spaceId: string, pageId: string, rounds: number, edit: OneEdit = documentEdit) {
  const cr = await api(server, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'one edit' });
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < rounds; i += 1) {
    const before = await storedBytes(server);
    const start = performance.now();
    await api(server, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
      changes: [edit(pageId, i)],
    });
    times.push(performance.now() - start);
    bytes += (await storedBytes(server)) - before;
  }
  times.sort((a, b) => a - b);
  const own = await pageOwnBytes(server, cr.id, pageId);
  return { median: times[Math.floor(times.length / 2)]!, bytesPerEdit: bytes / rounds, own, changeRequestId: cr.id as string };
}

/**
 * Medians of one-page writes alternating between two spaces (a change request each), so that
 * warm-up and load from elsewhere on the machine fall on both alike. The first write of each
 * change request is left out: it is the one that indexes the head it starts from.
 */
async function interleavedEditTimes(server: RunningServer, spaces: { spaceId: string; pageId: string }[], rounds: number, edit: OneEdit) {
  const crs: { id: string }[] = [];
  for (const space of spaces)
    crs.push(await api(server, 'POST', `/v1/spaces/${space.spaceId}/change-requests`, { subject: 'interleaved edits' }));
  const times = spaces.map((): number[] => []);
  for (let i = 0; i <= rounds; i += 1) {
    for (const [k, space] of spaces.entries()) {
      const start = performance.now();
      await api(server, 'POST', `/v1/spaces/${space.spaceId}/change-requests/${crs[k]!.id}/content`, { changes: [edit(space.pageId, i)] });
      if (i > 0) times[k]!.push(performance.now() - start);
    }
  }
  await archive(server, spaces, crs);
  return times.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!);
}

/** Archives change requests opened only to be measured, so the clone figure below sees the same space. */
async function archive(server: RunningServer, spaces: { spaceId: string }[], crs: { id: string }[]) {
  for (const [k, space] of spaces.entries()) {
    await api(server, 'PATCH', `/v1/spaces/${space.spaceId}/change-requests/${crs[k]!.id}`, { status: 'archived' });
  }
}

async function readRate(url: string, rounds: number): Promise<number> {
  for (let i = 0; i < 20; i += 1) await (await fetch(url, { headers })).arrayBuffer();
  const start = performance.now();
  for (let i = 0; i < rounds; i += 1) {
    const res = await fetch(url, { headers });
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    await res.arrayBuffer();
  }
  return rounds / ((performance.now() - start) / 1000);
}

export async function benchContent(server: RunningServer, org: string): Promise<void> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 400);
  const buildStart = performance.now();
  const big = await buildSpace(server, org, 50, 100);
  const buildMs = performance.now() - buildStart;
  const small = await buildSpace(server, org, 2, 5);
  const bigEdit = await oneEditTimes(server, big.spaceId, big.pageId, 15);
  const smallEdit = await oneEditTimes(server, small.spaceId, small.pageId, 15);
  const bigMeta = await oneEditTimes(server, big.spaceId, big.pageId, 15, metadataEdit);
  const smallMeta = await oneEditTimes(server, small.spaceId, small.pageId, 15, metadataEdit);
  await archive(server, [big, small], [{ id: bigMeta.changeRequestId }, { id: smallMeta.changeRequestId }]);
  const [bigMixed, smallMixed] = await interleavedEditTimes(server, [big, small], 41, documentEdit);
  const [bigMixedMeta, smallMixedMeta] = await interleavedEditTimes(server, [big, small], 41, metadataEdit);

  const pageUrl = `${server.url}/v1/spaces/${big.spaceId}/content/page/${big.pageId}?format=markdown`;
  const body = await (await fetch(pageUrl, { headers })).text();
  const bare = Fastify();
  bare.get('/page', async (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const address = bare.server.address();
  const bareUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/page`;
  const bareRate = await readRate(bareUrl, rounds);
  const apiRate = await readRate(pageUrl, rounds);
  await bare.close();

  await benchClone(server, TOKEN, big.spaceId, 5000);
  await benchPush(server, TOKEN, { spaceId: big.spaceId, pages: 5000 }, { spaceId: small.spaceId, pages: 10 });

  console.log(`\ncontent engine, space of 5,000 pages (built with 150 batches + merge in ${(buildMs / 1000).toFixed(1)} s)`);
  const perEdit = (e: { bytesPerEdit: number; own: number }) =>
    `${Math.round(e.bytesPerEdit)} B, ${(e.bytesPerEdit / e.own).toFixed(2)}x the page's own ${e.own} B`;
  console.log(
    `  bytes stored per one-page edit      ${perEdit(bigEdit)} (target ≤ 2x; 10-page space: ${perEdit(smallEdit)}); metadata edit ${perEdit(bigMeta)}`,
  );
  recordFigure(23, {
    figure: 'bytes stored per one-page edit',
    baseline: `the page's own ${bigEdit.own} B (10-page space: ${Math.round(smallEdit.bytesPerEdit)} B)`,
    measured: `${Math.round(bigEdit.bytesPerEdit)} B (5,000 pages)`,
    ratio: `${(bigEdit.bytesPerEdit / bigEdit.own).toFixed(2)}x`,
    target: '≤ 2x',
  });
  console.log(
    `  one-page batch write, median         ${bigEdit.median.toFixed(1)} ms (10-page space: ${smallEdit.median.toFixed(1)} ms, ratio ${(bigEdit.median / smallEdit.median).toFixed(2)}x)`,
  );
  console.log(
    `  one-page metadata write, median      ${bigMeta.median.toFixed(1)} ms (10-page space: ${smallMeta.median.toFixed(1)} ms, ratio ${(bigMeta.median / smallMeta.median).toFixed(2)}x)`,
  );
  console.log(
    `  the same two, interleaved (41 each)   document ${bigMixed!.toFixed(1)} ms vs ${smallMixed!.toFixed(1)} ms, ratio ${(bigMixed! / smallMixed!).toFixed(2)}x; metadata ${bigMixedMeta!.toFixed(1)} ms vs ${smallMixedMeta!.toFixed(1)} ms, ratio ${(bigMixedMeta! / smallMixedMeta!).toFixed(2)}x`,
  );
  console.log(
    `  page as markdown, sequential reads   ${apiRate.toFixed(0)}/s vs bare Fastify ${bareRate.toFixed(0)}/s with the same ${body.length} bytes: ${(apiRate / bareRate).toFixed(2)} of it (target ≥ 0.5)`,
  );
}
