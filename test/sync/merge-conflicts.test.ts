import { describe, expect, it } from 'vitest';
import { conflictMessage } from '../../src/server/revisions/merge-revisions.js';
import { locateConflicts, parseConflicts } from '../../src/sync/change-requests/conflicts.js';

const index = {
  pages: { 'README.md': 'p1', 'guides/install.md': 'p2', 'group:api': 'g1', 'page:p9': 'p9' },
  files: { 'logo.png': 'f1' },
  includes: { '.gitbook/includes/footer.md': 'r1' },
};

describe('merge conflicts named by the server', () => {
  it('reads back every conflict the server writes, titles with quotes and semicolons included', () => {
    const message = conflictMessage('change request #4 cannot be merged into space s1', [
      { reason: 'document', id: 'p2', title: 'Install; "quickly"' },
      { reason: 'metadata', id: 'p1', title: 'Start', fields: ['title', 'slug'] },
      { reason: 'file', id: 'f1', title: 'logo.png' },
      { reason: 'variable', id: 'version', title: 'version' },
      { reason: 'reusable-content', id: 'r1', title: 'Footer' },
      { reason: 'edit-delete', id: 'p9', title: 'Gone' },
    ]);
    expect(parseConflicts(message)).toEqual([
      { kind: 'page', title: 'Install; "quickly"', id: 'p2', reason: 'both sides changed the same lines of its document' },
      { kind: 'page', title: 'Start', id: 'p1', reason: 'both sides changed title, slug' },
      { kind: 'file', title: 'logo.png', id: 'f1', reason: 'changed differently on both sides' },
      { kind: 'variable', title: 'version', id: 'version', reason: 'set to different values on both sides' },
      { kind: 'reusable content', title: 'Footer', id: 'r1', reason: 'changed differently on both sides' },
      { kind: 'page', title: 'Gone', id: 'p9', reason: 'changed on one side and deleted on the other' },
    ]);
  });

  it('finds nothing in a refusal that names no page (the hosted API answers result "conflicts")', () => {
    expect(parseConflicts('merging the change request met conflicts (the server answered result "conflicts")')).toEqual([]);
  });

  it('puts each conflict at its file in the workspace, when the last sync knew it', () => {
    const located = locateConflicts(
      parseConflicts(
        conflictMessage('x', [
          { reason: 'document', id: 'p2', title: 'Install' },
          { reason: 'file', id: 'f1', title: 'logo.png' },
          { reason: 'variable', id: 'version', title: 'version' },
          { reason: 'reusable-content', id: 'r1', title: 'Footer' },
          { reason: 'edit-delete', id: 'p9', title: 'No file' },
          { reason: 'document', id: 'p1', title: 'Start' },
        ]),
      ),
      [index, { pages: { 'elsewhere.md': 'p1' }, files: {}, includes: {} }],
    );
    expect(located.map((c) => c.path)).toEqual([
      'guides/install.md',
      '.gitbook/assets/logo.png',
      '.gitbook/vars.yaml',
      '.gitbook/includes/footer.md',
      undefined,
      'README.md',
    ]);
  });
});
