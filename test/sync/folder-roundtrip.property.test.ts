import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { clone } from '../../src/sync/clone.js';
import { push } from '../../src/sync/push/push.js';
import {
  loadFolder,
  NEW_FOLDER_SETTINGS,
  writeFolder,
  type WorkspaceContent,
  type WorkspaceDocument,
  type WorkspacePage,
} from '../../src/workspace/index.js';
import { relativePath } from '../../src/workspace/paths.js';
import { contentArb } from '../workspace/arbitraries.js';
import { git } from './fixture.js';

/** What a generated folder adds to the workspace arbitraries' content: the constructs real exports have. */
interface Extras {
  /** Per document (in walk order): keep it as `<slug>.md` beside its children's folder. */
  flatten: boolean[];
  /** Per document: a link to another page (by index), written as GitBook would (a README as its folder). */
  links: (number | null)[];
  /** OpenAPI blocks (computed pages) to add: at the top, or under the first group. */
  openapi: ('top' | 'group')[];
}

const extrasArb: fc.Arbitrary<Extras> = fc.record({
  flatten: fc.array(fc.boolean(), { maxLength: 30 }),
  links: fc.array(fc.option(fc.nat({ max: 30 }), { nil: null }), { maxLength: 30 }),
  openapi: fc.array(fc.constantFrom('top' as const, 'group' as const), { maxLength: 2 }),
});

const block = (spec: string, order: 'type-first' | 'props-first') =>
  order === 'type-first'
    ? `type: builtin:openapi\nprops:\n  models: true\ndependencies:\n  spec:\n    ref:\n      kind: openapi\n      spec: ${spec}`
    : `props:\n  models: false\n  downloadLink: true\ntype: builtin:openapi\ndependencies:\n  spec:\n    ref:\n      kind: openapi\n      spec: ${spec}`;

function documents(pages: readonly WorkspacePage[]): WorkspaceDocument[] {
  return pages.flatMap((p) =>
    p.type === 'link' || p.type === 'computed' ? [] : [...(p.type === 'document' ? [p] : []), ...documents(p.pages)],
  );
}

/**
 * A Git Sync folder from generated content: the settings a clone writes (the platform keeps no
 * `.gitbook.yaml` of its own: docs/workspace-format.md), parents kept beside their folders,
 * links between pages as relative paths (a README's as its folder), OpenAPI blocks.
 */
function folderOf(content: WorkspaceContent, extras: Extras): Map<string, string | Uint8Array> {
  const pages = content.pages;
  let openapi = 0;
  for (const where of extras.openapi) {
    const page: WorkspacePage = {
      id: `computed-${openapi}`,
      type: 'computed',
      title: `spec-${openapi}`,
      source: block(`spec-${openapi}`, openapi % 2 === 0 ? 'type-first' : 'props-first'),
      slug: '',
      pages: [],
    };
    openapi += 1;
    const group = pages.find((p) => p.type === 'group');
    if (where === 'group' && group && group.type === 'group') group.pages.push(page);
    else pages.splice(Math.min(1, pages.length), 0, page);
  }
  const docs = documents(pages);
  // Links written as GitBook writes them need the files, and flattening moves files: two passes.
  // The generated links may name no page (text on the platform: docs/workspace-format.md); ours do.
  for (const doc of docs) {
    const head = doc.markdown.startsWith('---\n') ? doc.markdown.slice(0, doc.markdown.indexOf('\n---\n') + 5) : '';
    const body = doc.markdown
      .slice(head.length)
      .split('\n')
      .filter((line) => !line.includes(']('))
      .join('\n')
      .replace(/^\n+/, '');
    doc.markdown = head + (body.trim() === '' ? '' : body);
  }
  // The platform keeps space variables in name order (docs/workspace-format.md).
  content.variables = Object.fromEntries(Object.entries(content.variables).sort(([a], [b]) => (a < b ? -1 : 1)));
  const first = writeFolder({ ...content, pages, settings: { ...NEW_FOLDER_SETTINGS } });
  docs.forEach((doc, i) => {
    const path = first.paths.get(doc.id)!;
    if (extras.flatten[i] && path !== 'README.md' && path.endsWith('/README.md')) doc.path = path.replace(/\/README\.md$/, '.md');
  });
  const placed = writeFolder({ ...content, pages, settings: { ...NEW_FOLDER_SETTINGS } });
  docs.forEach((doc, i) => {
    const target = extras.links[i];
    if (target === null || target === undefined || docs.length < 2) return;
    const other = docs[target % docs.length]!;
    const from = placed.paths.get(doc.id)!;
    const to = placed.paths.get(other.id)!;
    const written = to.endsWith('README.md') ? relativePath(from, to).replace(/README\.md$/, '') || './' : relativePath(from, to);
    const head = doc.markdown.startsWith('---\n') ? doc.markdown.slice(0, doc.markdown.indexOf('\n---\n') + 5) : '';
    const rest = doc.markdown.slice(head.length);
    doc.markdown = `${head}${rest}${rest === '' || rest.endsWith('\n') ? '' : '\n'}See [${other.title.replace(/[[\]\\`]/g, '')}](${/[\s()<>]/.test(written) ? `<${written}>` : written}).\n`;
  });
  const written = writeFolder({ ...content, pages, settings: { ...NEW_FOLDER_SETTINGS } });
  expect(written.problems).toEqual([]);
  return new Map([...written.files].map(([path, value]) => [path, value]));
}

const asText = (files: ReadonlyMap<string, string | Uint8Array>) =>
  new Map([...files].map(([path, value]) => [path, typeof value === 'string' ? value : Buffer.from(value).toString('base64')]));

// Issue 14, item 5: whole generated Git Sync folders (SUMMARY trees with groups, `***`, anchor
// and URL entries, OpenAPI blocks, READMEs and parents beside their folders, front matter, links,
// assets, includes, variables) pushed into an empty space, merged and cloned back, byte for byte.
describe('generated Git Sync folders through push, merge and clone (fast-check)', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-folder-property-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  let run = 0;
  it('come back byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(contentArb, extrasArb, async (content, extras) => {
        const folder = folderOf(content, extras);
        run += 1;
        const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: `Folder ${run}`, empty: true } })).body;
        const dir = join(work, `writer-${run}`);
        await clone({ client, apiUrl: s.url, spaceId: space.id, dir });
        for (const entry of await readdir(dir)) if (entry !== '.git') await rm(join(dir, entry), { recursive: true, force: true });
        for (const [path, value] of folder) {
          await mkdir(dirname(join(dir, path)), { recursive: true });
          await writeFile(join(dir, path), value);
        }
        git(dir, 'add', '-A');
        git(dir, 'commit', '-qm', 'Import', '--allow-empty');
        const pushed = await push(client, dir, { allowMassDelete: true });
        expect(pushed.skipped).toEqual([]);
        expect(pushed.unsentLinks).toEqual([]);
        if (pushed.changeRequest) await client.changeRequests.merge(space.id, pushed.changeRequest.id);
        const back = join(work, `reader-${run}`);
        await clone({ client, apiUrl: s.url, spaceId: space.id, dir: back });
        expect(asText(await loadFolder(back))).toEqual(asText(folder));
        // The writer's own folder is as it was written, nothing normalised on the branch.
        expect(asText(await loadFolder(dir))).toEqual(asText(folder));
      }),
      // No shrinking: each run is a real push and clone, and the counterexample prints whole.
      { numRuns: 25, endOnFailure: true },
    );
  }, 300_000);
});
