import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commitFiles } from '../../src/git/index.js';
import { buildTree } from '../../src/git/format/write-tree.js';
import { author, gitCli, tempRepo } from './helpers.js';

/**
 * commitFiles on a parent holding the same paths writes only the changed blobs and the trees on
 * their paths (editedTree); its tree must be the one built whole from the files, whatever changed.
 */
describe('commitFiles over a parent with the same paths', () => {
  it('gives the tree buildTree gives from the files, whatever changed', async () => {
    const dir = await tempRepo();
    const path = fc.constantFrom('README.md', 'a.md', 'g/b.md', 'g/c.md', 'g/h/d.md', 'z/e.md');
    const content = fc.constantFrom('one\n', 'two\n', 'three\n', '');
    let parent: string | null = null;
    await fc.assert(
      fc.asyncProperty(fc.dictionary(path, content, { minKeys: 1 }), fc.dictionary(path, content), async (before, edits) => {
        const first = new Map(Object.entries(before));
        parent = await commitFiles(dir, { branch: 'main', parent, files: first, message: 'before', author });
        const after = new Map(first);
        for (const [p, c] of Object.entries(edits)) if (after.has(p)) after.set(p, c);
        parent = await commitFiles(dir, { branch: 'main', parent, files: after, message: 'after', author });
        const tree = (await gitCli(dir, 'rev-parse', `${parent}^{tree}`)).trim();
        expect(tree).toBe(buildTree(after).oid);
        expect((await gitCli(dir, 'fsck', '--no-dangling')).trim()).toBe('');
      }),
      { numRuns: 40 },
    );
  });
});
