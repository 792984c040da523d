import { describe, expect, it } from 'vitest';
import { changedPages } from '../../src/content/index.js';
import type { ContentTree } from '../../src/model/index.js';

const tree = (variables: ContentTree['variables']): ContentTree => ({ pages: [], files: [], variables, reusableContents: [] });

// Pull by change (issue 23) reads only changed pages unless `structure` says more changed: a
// reorder of the variables is such a change, as the store keeps them in written order and the
// folder's .gitbook/vars.yaml must show it (CI found it: test/sync/variables-order.test.ts).
describe('changedPages and the variables', () => {
  it('calls a reorder of the variables a structure change', () => {
    expect(changedPages(tree({ A: '1', B: true }), tree({ B: true, A: '1' }))).toEqual({ pages: [], structure: true });
  });
  it('calls the same variables in the same order no change', () => {
    expect(changedPages(tree({ A: '1', B: true }), tree({ A: '1', B: true }))).toEqual({ pages: [], structure: false });
  });
  it('calls a changed value a structure change', () => {
    expect(changedPages(tree({ A: '1' }), tree({ A: '2' })).structure).toBe(true);
  });
});
