// Link rendering on reads (issue 15): links are stored as references and rendered into relative
// paths on every read, so a page read must not cost more with its links than without them. Two
// spaces of 5,000 pages built alike; in one, every page carries 50 links to other pages, in the
// other the same words linked to URLs of about the same length (kept as written: nothing to render). One middle page of each is read, interleaved so load from
// elsewhere falls on both alike; the figure is the linked read's cost over the plain one's.
import { performance } from 'node:perf_hooks';
import type { RunningServer } from '../../src/server/serve.js';

const TOKEN = 'bench-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const SECTIONS = 50;
const PER_SECTION = 100;
const LINKS = 50;

async function api<T = any>(server: RunningServer, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

interface Listed {
  id: string;
  path: string;
  pages?: Listed[];
}

/** `to` relative to the folder of `from` (both workspace paths of pages), as Git Sync writes links. */
function relative(from: string, to: string): string {
  const a = from.split('/').slice(0, -1);
  const b = to.split('/');
  let i = 0;
  while (i < a.length && i < b.length - 1 && a[i] === b[i]) i += 1;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
}

/** A space of SECTIONS × PER_SECTION pages; `linked`: each page's text links LINKS other pages. */
async function buildSpace(server: RunningServer, org: string, linked: boolean) {
  const space = await api(server, 'POST', `/v1/orgs/${org}/spaces`, { title: linked ? 'Linked' : 'Plain', empty: true });
  const cr = await api(server, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'build' });
  const write = (changes: unknown[]) =>
    api(server, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { changes });
  for (let s = 0; s < SECTIONS; s += 1) {
    const created = await write([{ operation: 'insert_page', title: `Section ${s}`, document: { markdown: `Section ${s}.\n` } }]);
    const section = created.changes[0].page.id as string;
    const children = [];
    for (let c = 1; c < PER_SECTION; c += 1)
      children.push({ operation: 'insert_page', into: section, title: `Page ${s} ${c}`, document: { markdown: `Page ${s} ${c}.\n` } });
    for (let i = 0; i < children.length; i += 50) await write(children.slice(i, i + 50));
  }
  const listed = await api<{ pages: Listed[] }>(server, 'GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`);
  const pages: { id: string; file: string }[] = [];
  const walk = (list: Listed[]) => {
    for (const p of list) {
      pages.push({ id: p.id, file: p.pages && p.pages.length > 0 ? `${p.path}/README.md` : `${p.path}.md` });
      walk(p.pages ?? []);
    }
  };
  walk(listed.pages);
  // Every page gets 50 paragraphs' worth of words; in the linked space each names another page by a link.
  const updates = pages.map((page, i) => {
    const words = Array.from({ length: LINKS }, (_, k) => {
      const target = pages[(i * 31 + k * 97 + 1) % pages.length]!;
      const text = `see topic ${k}`;
      // The baseline links the same words to URLs of the same length: text the server keeps as
      // written (no reference to render), with the same bytes and the same document shape.
      const path = relative(page.file, target.file);
      return linked ? `[${text}](${path})` : `[${text}](https://x.invalid/${path.replace(/\.\.\//g, 'up/')})`;
    });
    return { operation: 'update_page', page: page.id, document: { markdown: `# Page\n\n${words.join(', ')}.\n` } };
  });
  for (let i = 0; i < updates.length; i += 50) await write(updates.slice(i, i + 50));
  await api(server, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
  // A section in the middle (its read holds its 99 children, bodies and all) and one of its pages.
  const section = listed.pages[Math.floor(listed.pages.length / 2)]!;
  return { spaceId: space.id as string, sectionId: section.id, pageId: section.pages![1]!.id };
}

async function oneRead(url: string): Promise<number> {
  const start = performance.now();
  const res = await fetch(url, { headers });
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  await res.arrayBuffer();
  return performance.now() - start;
}

/** Medians of reads of the two pages, alternated read by read. */
async function interleavedReads(urls: [string, string], rounds: number): Promise<[number, number]> {
  for (let i = 0; i < 20; i += 1) for (const url of urls) await oneRead(url);
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < rounds; i += 1) {
    times[0].push(await oneRead(urls[0]));
    times[1].push(await oneRead(urls[1]));
  }
  const median = (list: number[]) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  return [median(times[0]), median(times[1])];
}

export async function benchLinks(server: RunningServer, org: string): Promise<void> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 400);
  const buildStart = performance.now();
  const plain = await buildSpace(server, org, false);
  const linked = await buildSpace(server, org, true);
  const buildMs = performance.now() - buildStart;
  const linkedPage = await api(server, 'GET', `/v1/spaces/${linked.spaceId}/content/page/${linked.pageId}?format=markdown`);
  const links = ((linkedPage.markdown as string).match(/\]\(/g) ?? []).length;
  console.log(
    `\nlink rendering: two spaces of ${SECTIONS * PER_SECTION} pages (built in ${(buildMs / 1000).toFixed(1)} s), each read ${rounds} times per space, interleaved`,
  );
  for (const [what, id] of [
    ['a page', 'pageId'],
    ['a section (99 children)', 'sectionId'],
  ] as const) {
    for (const format of ['markdown', 'document'] as const) {
      const url = (space: { spaceId: string; pageId: string; sectionId: string }) =>
        `${server.url}/v1/spaces/${space.spaceId}/content/page/${space[id]}?format=${format}`;
      const [plainMs, linkedMs] = await interleavedReads([url(plain), url(linked)], rounds);
      console.log(
        `  ${what.padEnd(24)} format=${format.padEnd(8)}  ${links} links each ${linkedMs.toFixed(3)} ms, none ${plainMs.toFixed(3)} ms: ${(linkedMs / plainMs).toFixed(2)}x (target ≤ 1.20x)`,
      );
    }
  }
}
