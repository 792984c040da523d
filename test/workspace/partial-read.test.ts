import { describe, expect, it } from 'vitest';
import { readFolder } from '../../src/workspace/index.js';

describe('readFolder, partial', () => {
  const summary = '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n';
  const files = () =>
    new Map<string, string>([
      ['SUMMARY.md', summary],
      ['README.md', '# Home\n\nwelcome\n'],
      ['guide/install.md', '---\ndescription: How to install\n---\n\n# Install\n\nsteps\n'],
    ]);

  it('reads an unloaded file as an empty page with its place, title and slug, and no problem', () => {
    const read = readFolder(files(), { unloaded: (path) => path === 'guide/README.md' });
    expect(read.problems).toEqual([]);
    const guide = read.content.pages[1]!;
    expect(guide).toMatchObject({ type: 'document', title: 'Guide', slug: 'guide', markdown: '' });
    expect(guide.type === 'document' && guide.pages[0]).toMatchObject({
      title: 'Install',
      slug: 'install',
      description: 'How to install',
      markdown: 'steps\n',
    });
  });

  it('still reports a listed file that is neither given nor unloaded', () => {
    const read = readFolder(files(), { unloaded: (path) => path === 'other.md' });
    expect(read.problems.map((p) => p.code)).toEqual(['missing-file']);
  });

  it('honours the root of .gitbook.yaml: unloaded paths are relative to the folder', () => {
    const rooted = new Map([...files()].map(([path, text]) => [`docs/${path}`, text]));
    rooted.set('.gitbook.yaml', 'root: ./docs/\n');
    expect(readFolder(rooted, { unloaded: (path) => path === 'docs/guide/README.md' }).problems).toEqual([]);
    expect(readFolder(rooted, { unloaded: (path) => path === 'guide/README.md' }).problems.map((p) => p.code)).toEqual(['missing-file']);
  });
});
