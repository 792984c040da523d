import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { appendImported, folderIncludes, folderPages } from '../../src/content/index.js';
import type { ContentTree } from '../../src/model/index.js';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { createSpace } from '../helpers/spaces.js';
import { readTree } from '../helpers/content.js';
import { getText } from '../../src/server/store/blobs.js';

const FOLDER: Record<string, string> = {
  'README.md': '# Welcome\n\n{% include ".gitbook/includes/warning.md" %}\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n',
  '.gitbook/includes/warning.md': '---\ntitle: Be careful\n---\n\nDo **not** run this twice.\n',
  '.gitbook/includes/untitled-note.md': 'No front matter here.\n',
  '.gitbook/includes/nested/deep.md': '---\ntitle: Too deep\n---\nNot an include: not directly in the folder.\n',
  '.gitbook/includes/broken.md': '---\ntitle: [unclosed\n---\nKept whole.\n',
};

describe('Git Sync folder import: includes (pure)', () => {
  const ctx = () => {
    let n = 0;
    return { newId: () => `id${(n += 1)}`, now: '2026-01-01T00:00:00.000Z', hash: (text: string) => `d:${text}` };
  };

  it('reads each .gitbook/includes/<name>.md as a reusable content under its file name, titled by its front matter or its name', () => {
    const includes = folderIncludes(new Map(Object.entries(FOLDER)));
    expect(includes).toEqual([
      { source: '.gitbook/includes/broken.md', name: 'broken.md', title: 'Broken', markdown: FOLDER['.gitbook/includes/broken.md'] },
      {
        source: '.gitbook/includes/untitled-note.md',
        name: 'untitled-note.md',
        title: 'Untitled note',
        markdown: 'No front matter here.\n',
      },
      { source: '.gitbook/includes/warning.md', name: 'warning.md', title: 'Be careful', markdown: '\nDo **not** run this twice.\n' },
    ]);
    // Include files are never pages.
    expect(folderPages(new Map(Object.entries(FOLDER))).map((p) => p.source)).toEqual(['README.md']);
  });

  it("appends them after the tree's reusable contents; a name an existing content holds is made unique", () => {
    const tree: ContentTree = { pages: [], files: [], variables: {}, reusableContents: [{ id: 'old', title: 'Warning' }] };
    const result = appendImported(tree, [], [], ctx(), folderIncludes(new Map(Object.entries(FOLDER))));
    if (!result.ok) throw new Error(result.message);
    expect(result.value.reusableContents).toBe(3);
    expect(result.value.tree.reusableContents).toEqual([
      { id: 'old', title: 'Warning', name: 'warning.md' },
      { id: 'id1', title: 'Broken', name: 'broken.md', document: `d:${FOLDER['.gitbook/includes/broken.md']}` },
      { id: 'id2', title: 'Untitled note', name: 'untitled-note.md', document: 'd:No front matter here.\n' },
      { id: 'id3', title: 'Be careful', name: 'be-careful.md', document: 'd:Do **not** run this twice.\n' },
    ]);
    expect(result.value.documents.get('d:Do **not** run this twice.\n')).toBe('Do **not** run this twice.\n');
  });

  it('an include nested too deeply fails the import, naming the file', () => {
    const result = appendImported({ pages: [], files: [], variables: {}, reusableContents: [] }, [], [], ctx(), [
      { source: '.gitbook/includes/deep.md', name: 'deep.md', title: 'Deep', markdown: `${'> '.repeat(70)}x\n` },
    ]);
    expect(result).toEqual({ ok: false, message: '.gitbook/includes/deep.md: markdown nests block quotes or lists more than 64 deep' });
  });
});

describe.each(testDialects())('zip import: includes become reusable contents (%s)', (dialect) => {
  let s: TestServer;
  let source: Server;
  let url: string;
  beforeAll(async () => {
    s = await startServer(dialect, { allowPrivateFetch: true });
    const zip = zipSync(Object.fromEntries(Object.entries(FOLDER).map(([path, text]) => [`repo-main/${path}`, strToU8(text)])));
    source = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/zip' }).end(zip));
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(source.address() as AddressInfo).port}/folder.zip`;
  });
  afterAll(async () => {
    await s?.close();
    source?.closeAllConnections();
    await new Promise((resolve) => source?.close(resolve));
  });

  it('stores them with their files and bodies; the page embedding one keeps its include as written', async () => {
    const space = await createSpace(s, { empty: true });
    const res = await s.request('POST', `/v1/spaces/${space.id}/content/import`, { body: { url, source: 'zip' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // 1 page and 3 includes.
    expect(res.body).toMatchObject({ importedResources: 4 });
    const tree = await readTree(s, { spaceId: space.id });
    expect(tree.reusableContents.map((c) => [c.title, c.name])).toEqual([
      ['Broken', 'broken.md'],
      ['Untitled note', 'untitled-note.md'],
      ['Be careful', 'warning.md'],
    ]);
    const db = s.server.db.kysely;
    expect(await getText(db, tree.reusableContents[2]!.document!)).toBe('Do **not** run this twice.\n');
    expect(await getText(db, tree.pages[0]!.document!)).toBe('{% include ".gitbook/includes/warning.md" %}\n');
    const read = await s.request('GET', `/v1/spaces/${space.id}/content/reusable-contents/${tree.reusableContents[2]!.id}?format=markdown`);
    expect(read.body).toMatchObject({
      title: 'Be careful',
      markdown: 'Do **not** run this twice.\n',
      git: { path: '.gitbook/includes/warning.md' },
    });
  });
});
