import { describe, expect, it } from 'vitest';
import { adaptPlan, gitFileChanges } from '../../src/sync/push/extensions.js';
import { planPush } from '../../src/sync/push/plan/plan.js';
import { readFolder, type WorkspaceContent, type WorkspaceInclude, type WorkspacePage } from '../../src/workspace/index.js';

const doc = (id: string, title: string, pages: WorkspacePage[] = []): WorkspacePage => ({
  type: 'document',
  id,
  title,
  slug: title.toLowerCase(),
  markdown: `${title} text\n`,
  pages,
});
const content = (pages: WorkspacePage[], extra: Partial<WorkspaceContent> = {}): WorkspaceContent => ({
  pages,
  files: [],
  variables: {},
  reusableContents: [],
  settings: {},
  ...extra,
});
const bytes = (text: string) => new TextEncoder().encode(text);
const paths = {
  summary: 'SUMMARY.md',
  vars: '.gitbook/vars.yaml',
  asset: (name: string) => `.gitbook/assets/${name}`,
  include: (name: string) => `.gitbook/includes/${name}`,
};
const INCLUDES = ['insert-reusable-content', 'update-reusable-content', 'delete-reusable-content'];
const ALL = new Set(['page-types', 'link-title', 'set-variables', 'replace-files', 'delete-file', ...INCLUDES]);

describe('adaptPlan: what the server offers decides what a push sends', () => {
  const remote = content([doc('a', 'Alpha')], {
    files: [
      { id: 'f1', name: 'logo.png', contentType: 'image/png', bytes: bytes('old') },
      { id: 'f2', name: 'gone.png', contentType: 'image/png', bytes: bytes('x') },
    ],
    variables: { VERSION: '1' },
  });
  const local = content(
    [
      doc('a', 'Alpha'),
      { type: 'group', id: 'new-g', title: 'Guides', slug: 'guides', pages: [doc('new-b', 'Beta')] },
      { type: 'link', id: 'new-l', title: 'Site', href: 'https://example.test/' },
    ],
    { files: [{ id: 'f1', name: 'logo.png', contentType: 'image/png', bytes: bytes('new') }], variables: { VERSION: '2' } },
  );
  const plan = () => planPush(remote, local, { pathOf: () => 'README.md' });

  it('on our server: groups and links are inserted, files replaced and deleted, variables set', () => {
    const adapted = adaptPlan(plan(), remote, local, ALL, paths);
    expect(adapted.skipped).toEqual([]);
    expect(adapted.undeletableFiles).toEqual([]);
    const ops = adapted.changes.map((c) => c.operation + ('type' in c && c.type ? `:${c.type}` : ''));
    expect([...ops].sort()).toEqual([
      'delete_file',
      'insert_files',
      'insert_page',
      'insert_page:group',
      'insert_page:link',
      'set_variables',
    ]);
    expect(adapted.changes.at(-1)).toEqual({ operation: 'set_variables', variables: { VERSION: '2' } });
    expect(adapted.changes.at(-2)).toEqual({ operation: 'delete_file', file: 'f2' });
  });

  it('on the published API: what it cannot take is left out with a reason, and nothing that depends on it is sent', () => {
    const adapted = adaptPlan(plan(), remote, local, new Set(), paths);
    expect(adapted.changes).toEqual([]);
    expect(adapted.undeletableFiles).toEqual(['gone.png']);
    expect(adapted.skipped.map((s) => s.path)).toEqual([
      '.gitbook/assets/logo.png',
      'SUMMARY.md',
      'SUMMARY.md',
      'SUMMARY.md',
      '.gitbook/vars.yaml',
    ]);
    expect(adapted.skipped.some((s) => /page "Beta" goes under a page this server cannot take/.test(s.reason))).toBe(true);
  });

  it('leaves out an OpenAPI block (a computed page) on a server without computed-pages, naming SUMMARY.md; sends it on ours', () => {
    const block =
      'type: builtin:openapi\nprops:\n  models: true\ndependencies:\n  spec:\n    ref:\n      kind: openapi\n      spec: petstore';
    const withBlock = content([
      doc('a', 'Alpha'),
      { type: 'computed', id: 'new-c', title: 'petstore', source: block, slug: '', pages: [] },
    ]);
    const planned = planPush(content([doc('a', 'Alpha')]), withBlock, { pathOf: () => 'README.md' });
    const hosted = adaptPlan(planned, content([doc('a', 'Alpha')]), withBlock, new Set(), paths);
    expect(hosted.changes).toEqual([]);
    expect(hosted.skipped).toEqual([{ path: 'SUMMARY.md', reason: expect.stringMatching(/cannot create computed pages/) }]);
    const ours = adaptPlan(planned, content([doc('a', 'Alpha')]), withBlock, new Set(['computed-pages']), paths);
    expect(ours.changes).toEqual([
      expect.objectContaining({
        operation: 'insert_page',
        type: 'computed',
        title: 'petstore',
        computed: {
          type: 'builtin:openapi',
          props: { models: true },
          dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } },
        },
      }),
    ]);
  });

  it('drops a link title the server cannot store but keeps the page', () => {
    const withTitle = content([doc('a', 'Alpha'), { ...(doc('new-c', 'Gamma') as WorkspacePage & { type: 'document' }), linkTitle: 'G' }]);
    const adapted = adaptPlan(
      planPush(content([doc('a', 'Alpha')]), withTitle, { pathOf: () => 'gamma.md' }),
      content([doc('a', 'Alpha')]),
      withTitle,
      new Set(),
      paths,
    );
    expect(adapted.changes).toHaveLength(1);
    expect(adapted.changes[0]).toMatchObject({ operation: 'insert_page', title: 'Gamma' });
    expect(adapted.changes[0]).not.toHaveProperty('linkTitle');
  });
});

describe('adaptPlan: reusable contents (.gitbook/includes/)', () => {
  const inc = (id: string, title: string, markdown: string, path?: string): WorkspaceInclude => ({
    id,
    title,
    markdown,
    ...(path !== undefined ? { path } : {}),
  });
  const remote = content([doc('a', 'Alpha')], {
    reusableContents: [inc('r1', 'Warning', 'Careful.\n'), inc('r2', 'Old', 'Gone soon.\n'), inc('r3', 'Same', 'Unchanged.\n')],
  });
  const local = content([doc('a', 'Alpha')], {
    reusableContents: [
      // Retitled in its front matter: the file keeps its name.
      inc('r1', 'Caution', 'Very careful.\n', 'warning.md'),
      inc('r3', 'Same', 'Unchanged.\n'),
      inc('new-include-.gitbook/includes/hand.md', 'New one', 'Fresh.\n', 'hand.md'),
    ],
  });
  const adapt = (extensions: Set<string>, r = remote, l = local) =>
    adaptPlan(planPush(r, l, { pathOf: () => 'README.md' }), r, l, extensions, paths);

  it('sends deletes, then updates of what changed, then inserts naming their file, where the server offers them', () => {
    const adapted = adapt(ALL);
    expect(adapted.skipped).toEqual([]);
    expect(adapted.changes).toEqual([
      { operation: 'delete_reusable_content', reusableContent: 'r2' },
      { operation: 'update_reusable_content', reusableContent: 'r1', title: 'Caution', document: { markdown: 'Very careful.\n' } },
      { operation: 'insert_reusable_content', title: 'New one', document: { markdown: 'Fresh.\n' }, name: 'hand.md' },
    ]);
  });

  it('on the published API: each is left out with its file and the reason', () => {
    const adapted = adapt(new Set(['page-types']));
    expect(adapted.changes).toEqual([]);
    expect(adapted.skipped).toEqual([
      { path: '.gitbook/includes/old.md', reason: 'this server has no operation to delete reusable content; do it in the app' },
      { path: '.gitbook/includes/warning.md', reason: 'this server has no operation to change reusable content; do it in the app' },
      { path: '.gitbook/includes/hand.md', reason: 'this server has no operation to add reusable content; do it in the app' },
    ]);
  });

  it('a renamed file (same id, new file name) is an update of the name only; an include in a sub-folder is left out', () => {
    const r = content([], { reusableContents: [inc('r1', 'Warning', 'x\n')] });
    const l = content([], {
      reusableContents: [inc('r1', 'Warning', 'x\n', 'caution.md'), inc('new-include-.gitbook/includes/sub/x.md', 'X', 'x\n', 'sub/x.md')],
    });
    const adapted = adapt(ALL, r, l);
    expect(adapted.changes).toEqual([{ operation: 'update_reusable_content', reusableContent: 'r1', name: 'caution.md' }]);
    expect(adapted.skipped).toEqual([
      {
        path: '.gitbook/includes/sub/x.md',
        reason: 'a reusable content is a file directly in .gitbook/includes/; move it there to send it',
      },
    ]);
  });

  it('includes that did not change read alike on both sides of a partial read and send nothing; a changed one is loaded and sent', () => {
    const enc = (text: string) => bytes(text);
    const folder = (warning: string) =>
      new Map<string, Uint8Array>([
        ['SUMMARY.md', enc('# Table of contents\n\n* [Alpha](README.md)\n')],
        ['README.md', enc('# Alpha\n\n{% include ".gitbook/includes/warning.md" %}\n')],
        ['.gitbook/includes/note.md', enc('---\ntitle: Note\n---\n\nSame.\n')],
        ['.gitbook/includes/warning.md', enc(`---\ntitle: Warning\n---\n\n${warning}`)],
      ]);
    const index = {
      pages: new Map([['README.md', 'a']]),
      files: new Map<string, string>(),
      includes: new Map([
        ['.gitbook/includes/note.md', 'r-note'],
        ['.gitbook/includes/warning.md', 'r-warn'],
      ]),
    };
    // What push reads when only warning.md changed: the folder's own files and the changed one.
    const partial = (files: Map<string, Uint8Array>) =>
      new Map([...files].filter(([path]) => path !== '.gitbook/includes/note.md' && path !== 'README.md'));
    const unloaded = (path: string) => path === '.gitbook/includes/note.md' || path === 'README.md';
    const base = readFolder(partial(folder('Careful.\n')), { index, unloaded }).content;
    const head = readFolder(partial(folder('Very careful.\n')), { index, unloaded }).content;
    expect(base.reusableContents.map((r) => r.id)).toEqual(['r-warn']);
    const adapted = adaptPlan(planPush(base, head, { pathOf: () => 'README.md' }), base, head, ALL, paths);
    expect(adapted.changes).toEqual([
      { operation: 'update_reusable_content', reusableContent: 'r-warn', document: { markdown: 'Very careful.\n' } },
    ]);
    const same = readFolder(partial(folder('Careful.\n')), { index, unloaded }).content;
    expect(adaptPlan(planPush(base, same, { pathOf: () => 'README.md' }), base, same, ALL, paths).changes).toEqual([]);
  });
});

describe('gitFileChanges: folder files a push keeps on the platform', () => {
  const config = 'root: ./\n';
  it('removes nothing when the folder has no .gitbook.yaml and the platform stores none (only its settings render one)', () => {
    expect(gitFileChanges(content([], { settings: { root: './' } }), content([]))).toEqual([]);
  });

  it('removes a .gitbook.yaml the platform stores when the folder deleted it; sends one the folder wrote', () => {
    const stored = content([], { settings: { root: './' }, gitFiles: [{ path: '.gitbook.yaml', text: `${config}# mine\n` }] });
    expect(gitFileChanges(stored, content([]))).toEqual([{ operation: 'set_git_file', path: '.gitbook.yaml', text: null }]);
    const written = content([], { gitFiles: [{ path: '.gitbook.yaml', text: `${config}# mine\n` }] });
    expect(gitFileChanges(content([], { settings: { root: './' } }), written)).toEqual([
      { operation: 'set_git_file', path: '.gitbook.yaml', text: `${config}# mine\n` },
    ]);
  });
});
