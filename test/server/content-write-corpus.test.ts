import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computedSource } from '../../src/sync/push/plan/changes.js';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { createSpace } from '../helpers/spaces.js';
import { createClient } from '../../src/client/index.js';
import { fetchContent } from '../../src/sync/remote/content.js';
import {
  joinMarkdown,
  loadFolder,
  readFolder,
  renderPageMeta,
  splitMarkdown,
  writeFolder,
  type FileMap,
  type WorkspacePage,
} from '../../src/workspace/index.js';
import { corpusFolder } from '../helpers/corpus.js';

// A real folder exported by GitBook's Git Sync (DOCSYNC_CORPUS_DIR, see test/helpers/corpus.ts).
const CORPUS = corpusFolder('currents-readme');

/** What the folder records of a document beyond its fields: its page file's front matter and body. */
function documentOf(page: WorkspacePage & { type: 'document' }): { markdown: string } {
  const { extra, body } = splitMarkdown(page.markdown);
  // `title` too, so a body opening with a different heading keeps it as content, as GitBook does.
  const frontMatter = { title: page.title, ...renderPageMeta(page, extra, 'page.md', () => undefined) };
  return { markdown: joinMarkdown(frontMatter, body) };
}

/** One insert_page per page: type, slug, link title and href as fields; documents come later. */
function insertOf(page: WorkspacePage, ref: string, into: string | undefined): Record<string, unknown> {
  const at = into === undefined ? {} : { into };
  if (page.type === 'group')
    return { operation: 'insert_page', ref, ...at, type: 'group', title: page.title, slug: page.slug, document: {} };
  if (page.type === 'link') return { operation: 'insert_page', ref, ...at, type: 'link', title: page.title, href: page.href, document: {} };
  if (page.type === 'computed')
    return {
      operation: 'insert_page',
      ref,
      ...at,
      type: 'computed',
      title: page.title,
      computed: computedSource(page.source),
      document: {},
    };
  return {
    operation: 'insert_page',
    ref,
    ...at,
    title: page.title,
    slug: page.slug,
    ...(page.linkTitle !== undefined ? { linkTitle: page.linkTitle } : {}),
    document: {},
  };
}

/**
 * The pages pushed into a change request: the tree level by level (a parent's id comes from its
 * insert), then the documents once every page exists, so their links resolve. Returns the local
 * page of each new id, as the sync tool's path index keeps it.
 */
async function pushPages(
  s: TestServer,
  spaceId: string,
  crId: string,
  pages: readonly WorkspacePage[],
  gitFiles: readonly { path: string; text: string }[],
): Promise<Map<string, WorkspacePage>> {
  const send = async (changes: Record<string, unknown>[]) => {
    const res = await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, { body: { changes } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return new Map<string, string>(res.body.changes.map((c: { ref?: string; page: { id: string } }) => [c.ref, c.page.id]));
  };
  let level: { page: WorkspacePage; into?: string }[] = pages.map((page) => ({ page }));
  const pushed = new Map<string, WorkspacePage>();
  while (level.length > 0) {
    const next: typeof level = [];
    for (let i = 0; i < level.length; i += 50) {
      const chunk = level.slice(i, i + 50);
      const idOf = await send(chunk.map(({ page, into }, j) => insertOf(page, `p${j}`, into)));
      chunk.forEach(({ page }, j) => {
        pushed.set(idOf.get(`p${j}`)!, page);
        if (page.type !== 'link') next.push(...page.pages.map((child) => ({ page: child, into: idOf.get(`p${j}`)! })));
      });
    }
    level = next;
  }
  const updates = [...pushed].flatMap(([id, page]) =>
    page.type === 'document'
      ? [
          {
            operation: 'update_page',
            page: id,
            document: documentOf(page),
            // The front matter as the file wrote it (extension front-matter), as `docsync push` sends it.
            ...(page.frontMatter !== undefined ? { frontMatter: page.frontMatter } : {}),
            // A page file that opens with no title heading (extension title-heading), as push sends it.
            ...(page.titleHeading === false ? { titleHeading: false } : {}),
          },
        ]
      : [],
  );
  for (let i = 0; i < updates.length; i += 50) await send(updates.slice(i, i + 50));
  // The folder's files that are no page (extension git-files), as `docsync push` sends them.
  const kept = gitFiles.map((file) => ({ operation: 'set_git_file', path: file.path, text: file.text }));
  for (let i = 0; i < kept.length; i += 50) await send(kept.slice(i, i + 50));
  return pushed;
}

/** Gives read pages the files people placed them in, as the sync tool does from its path index. */
function placeAsLocal(pages: readonly WorkspacePage[], local: ReadonlyMap<string, WorkspacePage>): WorkspacePage[] {
  return pages.map((page) => {
    if (page.type === 'link') return page;
    const mine = local.get(page.id);
    const placed = { ...page, pages: placeAsLocal(page.pages, local) };
    return mine?.type === 'document' && mine.path !== undefined && placed.type === 'document' ? { ...placed, path: mine.path } : placed;
  });
}

const text = (files: FileMap) =>
  new Map([...files].map(([path, bytes]) => [path, typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8')]));

describe.each(testDialects())('the currents-readme corpus through the batch endpoint (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('pushes every page (groups, link pages, link titles, detox-+-jest) and reads the same tree and page heads back', async () => {
    const local = readFolder(await loadFolder(CORPUS));
    const expected = text(writeFolder(local.content).files);
    const space = await createSpace(s, { empty: true });
    const cr = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Corpus' } });
    const pushed = await pushPages(s, space.id, cr.body.id, local.content.pages, local.content.gitFiles ?? []);

    const client = createClient({ baseUrl: s.url, token: s.token });
    try {
      const remote = await fetchContent(client, { space: space.id, changeRequest: cr.body.id });
      // Space variables are not page content: the batch has no operation for them.
      const pages = placeAsLocal(remote.content.pages, pushed);
      const back = text(
        writeFolder({ ...remote.content, pages, variables: local.content.variables, settings: local.content.settings }).files,
      );
      expect([...back.keys()].sort()).toEqual([...expected.keys()].sort());
      // The tree: groups, link pages, link titles, titles, order, nesting and slugs.
      expect(back.get('SUMMARY.md')).toBe(expected.get('SUMMARY.md'));
      expect(back.get('getting-started/other-frameworks/jest/detox-+-jest.md')).toBeDefined();
      // Every page file's front matter and title heading. (Bodies are the server's stored
      // markdown, whose links the batch resolves and re-renders: docs/api.md, "Content writes".)
      const head = (file: string) => {
        const heading = /^# .*$/m.exec(file);
        return heading ? file.slice(0, heading.index + heading[0].length) : file;
      };
      const heads = [...expected]
        .filter(([path]) => path.endsWith('.md'))
        .filter(([path, want]) => head(back.get(path)!) !== head(want))
        .map(([path]) => path);
      expect(heads).toEqual([]);
    } finally {
      await client.close();
    }
  }, 240_000); // a few hundred pages through real HTTP on a shared 2-core machine
});
