import { describe, expect, it } from 'vitest';
import type { ContentTree } from '../../../src/model/index.js';
import { mergeTrees } from '../../../src/content/index.js';
import { apply, context, ok, page, tree } from '../changes-helpers.js';

const base = () => tree([page('intro', 'introduction'), page('skill', 'agent-skill', { linkTitle: 'Skill' })]);

describe('linkTitle', () => {
  it('is set on insert and update, kept when not given, and removed by ""', () => {
    const r = ok(
      apply(base(), [
        { operation: 'insert_page', title: 'Agent Skill: Playwright Best Practices', linkTitle: 'Playwright Skill', document: {} },
        { operation: 'update_page', page: 'intro', linkTitle: 'Start' },
        { operation: 'update_page', page: 'intro', title: 'Introduction' },
        { operation: 'update_page', page: 'skill', linkTitle: '' },
      ]),
    );
    expect(r.tree.pages[2]).toMatchObject({ title: 'Agent Skill: Playwright Best Practices', linkTitle: 'Playwright Skill' });
    expect(r.tree.pages[0]).toMatchObject({ title: 'Introduction', linkTitle: 'Start' });
    expect(r.tree.pages[1]).not.toHaveProperty('linkTitle');
  });

  it('goes back with a whole-page revert and merges field by field', () => {
    const before = base();
    const ctx = context({ revisions: new Map([['base', before]]) });
    const edited = ok(apply(before, [{ operation: 'update_page', page: 'skill', linkTitle: 'Other' }], ctx));
    expect(ok(apply(edited.tree, [{ operation: 'revert_page', page: 'skill' }], ctx)).tree.pages[1]!.linkTitle).toBe('Skill');

    const theirs: ContentTree = ok(apply(before, [{ operation: 'update_page', page: 'skill', title: 'Renamed' }])).tree;
    const merged = mergeTrees(before, edited.tree, theirs, { read: () => '', write: (t) => t });
    expect(merged).toMatchObject({ kind: 'clean', tree: { pages: [{}, { title: 'Renamed', linkTitle: 'Other' }] } });
  });
});
