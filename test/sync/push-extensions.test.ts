import { describe, expect, it } from 'vitest';
import { adaptPlan } from '../../src/sync/push-extensions.js';
import { planPush } from '../../src/sync/push-plan.js';
import type { WorkspaceContent, WorkspacePage } from '../../src/workspace/index.js';

const doc = (id: string, title: string, pages: WorkspacePage[] = []): WorkspacePage => ({ type: 'document', id, title, slug: title.toLowerCase(), markdown: `${title} text\n`, pages });
const content = (pages: WorkspacePage[], extra: Partial<WorkspaceContent> = {}): WorkspaceContent => ({ pages, files: [], variables: {}, reusableContents: [], settings: {}, ...extra });
const bytes = (text: string) => new TextEncoder().encode(text);
const paths = { summary: 'SUMMARY.md', vars: '.gitbook/vars.yaml', asset: (name: string) => `.gitbook/assets/${name}` };
const ALL = new Set(['page-types', 'link-title', 'set-variables', 'replace-files', 'delete-file']);

describe('adaptPlan: what the server offers decides what a push sends', () => {
  const remote = content([doc('a', 'Alpha')], {
    files: [{ id: 'f1', name: 'logo.png', contentType: 'image/png', bytes: bytes('old') }, { id: 'f2', name: 'gone.png', contentType: 'image/png', bytes: bytes('x') }],
    variables: { VERSION: '1' },
  });
  const local = content(
    [doc('a', 'Alpha'), { type: 'group', id: 'new-g', title: 'Guides', slug: 'guides', pages: [doc('new-b', 'Beta')] }, { type: 'link', id: 'new-l', title: 'Site', href: 'https://example.test/' }],
    { files: [{ id: 'f1', name: 'logo.png', contentType: 'image/png', bytes: bytes('new') }], variables: { VERSION: '2' } },
  );
  const plan = () => planPush(remote, local, { pathOf: () => 'README.md' });

  it('on our server: groups and links are inserted, files replaced and deleted, variables set', () => {
    const adapted = adaptPlan(plan(), remote, local, ALL, paths);
    expect(adapted.skipped).toEqual([]);
    expect(adapted.undeletableFiles).toEqual([]);
    const ops = adapted.changes.map((c) => c.operation + ('type' in c && c.type ? `:${c.type}` : ''));
    expect([...ops].sort()).toEqual(['delete_file', 'insert_files', 'insert_page', 'insert_page:group', 'insert_page:link', 'set_variables']);
    expect(adapted.changes.at(-1)).toEqual({ operation: 'set_variables', variables: { VERSION: '2' } });
    expect(adapted.changes.at(-2)).toEqual({ operation: 'delete_file', file: 'f2' });
  });

  it('on the published API: what it cannot take is left out with a reason, and nothing that depends on it is sent', () => {
    const adapted = adaptPlan(plan(), remote, local, new Set(), paths);
    expect(adapted.changes).toEqual([]);
    expect(adapted.undeletableFiles).toEqual(['gone.png']);
    expect(adapted.skipped.map((s) => s.path)).toEqual(['.gitbook/assets/logo.png', 'SUMMARY.md', 'SUMMARY.md', 'SUMMARY.md', '.gitbook/vars.yaml']);
    expect(adapted.skipped.some((s) => /page "Beta" goes under a page this server cannot take/.test(s.reason))).toBe(true);
  });

  it('drops a link title the server cannot store but keeps the page', () => {
    const withTitle = content([doc('a', 'Alpha'), { ...(doc('new-c', 'Gamma') as WorkspacePage & { type: 'document' }), linkTitle: 'G' }]);
    const adapted = adaptPlan(planPush(content([doc('a', 'Alpha')]), withTitle, { pathOf: () => 'gamma.md' }), content([doc('a', 'Alpha')]), withTitle, new Set(), paths);
    expect(adapted.changes).toHaveLength(1);
    expect(adapted.changes[0]).toMatchObject({ operation: 'insert_page', title: 'Gamma' });
    expect(adapted.changes[0]).not.toHaveProperty('linkTitle');
  });
});
