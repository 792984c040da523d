import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreview, type Preview } from '../../src/preview/index.js';
import { previewFolder } from './fixture.js';

let preview: Preview;
let dir: string;
const problems: string[] = [];

beforeAll(async () => {
  dir = await previewFolder();
  preview = await startPreview({ dir, port: 0, onProblems: (lines) => problems.push(...lines) });
  await preview.indexed;
});
afterAll(() => preview.close());

const get = (path: string) => fetch(preview.url + path);

describe('docsync preview over HTTP', () => {
  it('serves each page at its URL with the navigation in SUMMARY.md order, hidden pages out', async () => {
    const html = await (await get('/guides/install')).text();
    expect(html).toContain('<h1 class="ds-title">Install</h1>');
    const nav = html.slice(html.indexOf('<nav class="ds-nav"'), html.indexOf('</nav>'));
    expect([...nav.matchAll(/>([^<>]+)<\/(a|span)>/g)].map((m) => m[1])).toEqual([
      'Welcome',
      'Guides',
      'Install',
      'Reference',
      'Blocks',
      'GitHub',
    ]);
    expect(html).toContain('rel="prev" href="/guides"');
    expect(html).toContain('rel="next" href="/reference/blocks"');
    expect((await get('/secret')).status).toBe(200);
    expect((await get('/nope')).status).toBe(404);
  });

  it('serves assets from .gitbook/assets and nothing outside the folder', async () => {
    const asset = await get('/.gitbook/assets/logo.png');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('image/png');
    expect(await asset.text()).toBe('not really a png');
    expect((await get('/.gitbook/assets/..%2f..%2fSUMMARY.md')).status).toBe(404);
    expect((await get('/_docsync/katex/katex.min.css')).status).toBe(200);
    expect((await get('/_docsync/idiomorph.js')).status).toBe(200);
  });

  it('searches the pages', async () => {
    const hits = (await (await get('/_docsync/search?q=zebrafish')).json()) as { url: string }[];
    expect(hits.map((h) => h.url)).toEqual(['/guides/install']);
  });

  it('reports problems as path:line: message, in the overlay and to the terminal', async () => {
    const html = await (await get('/reference/blocks')).text();
    expect(html).toContain('reference/blocks.md:36: broken link `../nowhere.md`: no page of SUMMARY.md has the file nowhere.md');
    expect(problems).toContain('reference/blocks.md:36: broken link `../nowhere.md`: no page of SUMMARY.md has the file nowhere.md');
  });

  it('a page weighs at most 100 KB of HTML, CSS and JS', async () => {
    let total = 0;
    for (const path of ['/reference/blocks', '/_docsync/idiomorph.js', '/_docsync/preview.js', '/_docsync/katex/katex.min.css'])
      total += (await (await get(path)).arrayBuffer()).byteLength;
    expect(total).toBeLessThan(100_000);
  });

  it('tells open pages what changed over server-sent events', async () => {
    const res = await get('/_docsync/events');
    const reader = res.body!.getReader();
    await reader.read();
    await writeFile(join(dir, 'guides/install.md'), '# Install\n\nRun `npm i` now.\n');
    let received = '';
    while (!received.includes('event: change')) received += new TextDecoder().decode((await reader.read()).value);
    expect(received).toContain('"urls":["/guides/install"]');
    expect(await (await get('/guides/install')).text()).toContain('now.');
    await reader.cancel();
  });

  it('takes a free port when the one asked for is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', () => done()));
    const taken = (blocker.address() as AddressInfo).port;
    const other = await startPreview({ dir, port: taken });
    expect(other.url).not.toBe(`http://127.0.0.1:${taken}`);
    expect((await fetch(other.url)).status).toBe(200);
    await other.close();
    blocker.close();
  });
});
