import type { ContentTree, TreeFile } from '../../src/model/index.js';
import { putBlob } from '../../src/server/store/blobs.js';
import { docPage, storeMarkdown, writeTree } from '../helpers/content.js';
import type { TestServer } from '../helpers/server.js';

export const MARKDOWN = {
  intro: '# Introduction\n\nStart with the [install guide](guides/install/README.md).\n',
  guides: '# Guides\n\nAll guides.\n\n## Overview\n\nText.\n',
  install: '# Install\n\n```sh\nnpm i docsync\n```\n\n- one\n- two\n',
  deep: '# Deep\n\n> quoted **bold** text\n\n---\n\n1. first\n',
  api: '# API\n\nSee ![logo](../.gitbook/assets/logo.png).\n',
};

export const FILE_BYTES: Record<string, Buffer> = {
  logo: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]),
  manual: Buffer.from('%PDF-1.4 fake manual'),
  notes: Buffer.from('plain notes\n'),
};

/**
 * A space's content with every page kind, nesting three deep, a group, a link page, an empty
 * page and three files:
 *   introduction            README.md
 *   guides                  guides/README.md
 *     install               guides/install/README.md
 *       deep                guides/install/deep.md
 *   (group) reference
 *     api                   reference/api.md
 *     external (link)
 *   empty                   empty.md (no document)
 */
export async function writeFixture(
  s: TestServer,
  target: { spaceId: string; changeRequestId?: string },
): Promise<{ revision: string; tree: ContentTree }> {
  const db = s.server.db.kysely;
  const doc = async (key: keyof typeof MARKDOWN) => storeMarkdown(s, MARKDOWN[key]);
  const files: TreeFile[] = [];
  const specs: [string, string, string, keyof typeof FILE_BYTES, { width: number; height: number }?][] = [
    ['file-logo', 'logo.png', 'image/png', 'logo', { width: 64, height: 32 }],
    ['file-manual', 'manual.pdf', 'application/pdf', 'manual'],
    ['file-notes', 'notes.txt', 'text/plain', 'notes'],
  ];
  for (const [id, name, contentType, key, dimensions] of specs) {
    const bytes = FILE_BYTES[key]!;
    files.push({ id, name, contentType, size: bytes.length, blob: await putBlob(db, bytes), ...(dimensions ? { dimensions } : {}) });
  }
  const tree: ContentTree = {
    pages: [
      docPage('p-intro', 'Introduction', { document: await doc('intro'), emoji: '1f389', description: 'Start here' }),
      docPage('p-guides', 'Guides', {
        document: await doc('guides'),
        layout: { width: 'wide', outline: false },
        pages: [
          docPage('p-install', 'Install', {
            document: await doc('install'),
            hidden: true,
            pages: [docPage('p-deep', 'Deep', { document: await doc('deep'), variables: { version: '1.2' } })],
          }),
        ],
      }),
      {
        id: 'p-reference',
        type: 'group',
        title: 'Reference',
        slug: 'reference',
        pages: [
          docPage('p-api', 'API', { document: await doc('api'), cover: { ref: { kind: 'file', file: 'file-logo' } } }),
          { id: 'p-external', type: 'link', title: 'Website', slug: 'website', href: 'https://example.com/docs', pages: [] },
        ],
      },
      docPage('p-empty', 'Empty'),
    ],
    files,
    variables: { product: 'docsync' },
    reusableContents: [],
  };
  return { revision: await writeTree(s, target, tree), tree };
}
