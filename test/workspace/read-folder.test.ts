import { describe, expect, it } from 'vitest';
import {
  formatProblem,
  readFolder,
  writeFolder,
  type FileMap,
  type WorkspaceContent,
  type WorkspaceDocument,
} from '../../src/workspace/index.js';

const folder = (files: Record<string, string | Uint8Array>): FileMap => new Map(Object.entries(files));
const problems = (files: FileMap) => readFolder(files).problems.map(formatProblem);

describe('readFolder on hand-edited folders', () => {
  it('reads a parent as parent.md beside its children, and writes it back there', () => {
    const files = folder({
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Guides](guides.md)\n  * [Install](guides/install.md)\n',
      'README.md': '# Home\n\nWelcome.\n',
      'guides.md': '# Guides\n\nSee [install](guides/install.md).\n',
      'guides/install.md': '# Install\n\nBack to [guides](../guides.md).\n',
    });
    const read = readFolder(files);
    expect(read.problems).toEqual([]);
    const guides = read.pages.get('guides.md')!;
    expect(guides).toMatchObject({ slug: 'guides', path: 'guides.md', markdown: 'See [install](guides/install.md).\n' });
    expect(writeFolder(read.content).files).toEqual(files);
  });

  it('passes relative page links and asset paths through unchanged', () => {
    const page =
      '# Install\n\n[Home](../README.md) [anchor](other.md#setup) ![logo](../.gitbook/assets/logo%20v2.png)\n<img src="../.gitbook/assets/a (1).png">\n';
    const files = folder({
      'SUMMARY.md': '* [Home](README.md)\n* [Guides](guides/README.md)\n  * [Install](guides/install.md)\n  * [Other](guides/other.md)\n',
      'README.md': '# Home\n',
      'guides/README.md': '# Guides\n\n',
      'guides/install.md': page,
      'guides/other.md': '# Other\n\n## Setup\n',
      '.gitbook/assets/logo v2.png': new Uint8Array([1, 2]),
      '.gitbook/assets/a (1).png': new Uint8Array([3]),
    });
    const read = readFolder(files);
    expect(read.problems.map(formatProblem)).toEqual([]);
    expect(read.pages.get('guides/install.md')!.markdown).toBe(page.slice('# Install\n\n'.length));
    const written = writeFolder(read.content);
    expect(written.files.get('guides/install.md')).toBe(page);
    expect(read.content.files.map((f) => [f.name, f.contentType])).toEqual([
      ['a (1).png', 'image/png'],
      ['logo v2.png', 'image/png'],
    ]);
  });

  it('reports a page missing from SUMMARY.md, an entry with no file, a file listed twice', () => {
    const files = folder({
      'SUMMARY.md': '* [Home](README.md)\n* [Gone](gone.md)\n* [Again](README.md)\n',
      'README.md': '# Home\n',
      'draft.md': '# Draft\n',
    });
    expect(problems(files)).toEqual([
      'SUMMARY.md:2: gone.md is listed but the folder has no such file',
      'SUMMARY.md:3: README.md is listed twice; a file is one page (its pages are listed in its place)',
      'draft.md: not listed in SUMMARY.md, so it is not a page (list it, or it stays out of the space)',
    ]);
  });

  it('reports two pages with one slug under one parent', () => {
    const files = folder({
      'SUMMARY.md': '* [Home](README.md)\n* [A](a.md)\n* [A again](other/a.md)\n',
      'README.md': '# Home\n',
      'a.md': '# A\n',
      'other/a.md': '# A again\n',
    });
    expect(problems(files)).toEqual(['SUMMARY.md:3: two pages under one parent have the slug `a` (other/a.md)']);
  });

  it('reports bad front matter with file and line, keeping the file text as the page body', () => {
    const files = folder({
      'SUMMARY.md': '* [Home](README.md)\n* [Install](guides/install.md)\n',
      'README.md': '# Home\n',
      'guides/install.md': '---\ndescription: ok\nhidden: yes\n---\n# Install\n',
    });
    expect(problems(files)).toEqual(['guides/install.md:3: front matter `hidden` must be true or false, got "yes"']);
    const broken = folder({ 'SUMMARY.md': '* [Home](README.md)\n', 'README.md': '---\ndescription: [\n---\n# Home\n' });
    expect(problems(broken)).toEqual([expect.stringMatching(/^README\.md:\d+: front matter is not valid YAML: /)]);
    expect(readFolder(broken).content.pages[0]).toMatchObject({ markdown: '---\ndescription: [\n---\n# Home\n' });
  });

  it('reports referenced assets that are missing, with the line, and does not fail', () => {
    const files = folder({
      'SUMMARY.md': '* [Home](README.md)\n',
      'README.md': '---\nicon: x\n---\n\n# Home\n\nText\n\n![a](.gitbook/assets/a.png)\n',
    });
    expect(problems(files)).toEqual(['README.md:9: .gitbook/assets/a.png is referenced but not in the folder']);
  });

  it('reports a folder without SUMMARY.md rather than guessing its tree', () => {
    expect(problems(folder({ 'README.md': '# Home\n' }))).toEqual([
      'SUMMARY.md: the folder has no SUMMARY.md, so it has no pages (docsync does not guess the tree)',
      'README.md: not listed in SUMMARY.md, so it is not a page (list it, or it stays out of the space)',
    ]);
  });

  it('reads under `root` and a custom summary path, and writes back there', () => {
    const files = folder({
      '.gitbook.yaml': 'root: ./docs/\n\nstructure:\n  readme: README.md\n  summary: toc/SUMMARY.md\n',
      'docs/toc/SUMMARY.md': '# Contents\n\n* [Home](../README.md)\n* [Page](../page.md)\n',
      'docs/README.md': '# Home\n\n',
      'docs/page.md': '# Page\n\nText.\n',
      'other/ignored.md': 'outside the root',
    });
    const read = readFolder(files);
    expect(read.problems).toEqual([]);
    expect([...read.pages.keys()]).toEqual(['docs/README.md', 'docs/page.md']);
    const written = writeFolder(read.content).files;
    files.delete('other/ignored.md');
    expect(written).toEqual(files);
  });

  it('re-attaches ids from the index writeFolder returned', () => {
    const content: WorkspaceContent = {
      pages: [
        { id: 'p1', type: 'document', title: 'Home', slug: 'home', markdown: '', pages: [] },
        {
          id: 'g1',
          type: 'group',
          title: 'Guides',
          slug: 'guides',
          pages: [
            { id: 'p2', type: 'document', title: 'Install', slug: 'install', markdown: 'x\n', pages: [] },
            { id: 'l1', type: 'link', title: 'API', href: 'https://x.test/' },
          ],
        },
      ],
      files: [],
      variables: {},
      reusableContents: [],
      settings: { summaryTitle: 'Table of contents' },
    };
    const written = writeFolder(content);
    expect([...written.index.pages]).toEqual([
      ['README.md', 'p1'],
      ['group:guides', 'g1'],
      ['guides/install.md', 'p2'],
      ['link:group:guides:https://x.test/', 'l1'],
    ]);
    expect(readFolder(written.files, { index: written.index }).content).toEqual(content);
    expect(readFolder(written.files).content.pages[1]!.id).toBe('new-group:guides');
  });

  it('writes the page emoji as front matter `emoji` and reads it back', () => {
    const content: WorkspaceContent = {
      pages: [{ id: 'p1', type: 'document', title: 'Home', slug: 'home', emoji: '🚀', icon: 'rocket', markdown: '', pages: [] }],
      files: [],
      variables: {},
      reusableContents: [],
      settings: {},
    };
    const written = writeFolder(content);
    expect(written.files.get('README.md')).toBe('---\nicon: rocket\nemoji: 🚀\n---\n\n# Home\n\n');
    const read = readFolder(written.files, { index: written.index }).content;
    expect(read.pages[0]).toMatchObject({ frontMatter: 'icon: rocket\nemoji: 🚀\n' });
    const { frontMatter: _written, ...page } = read.pages[0] as WorkspaceDocument;
    expect({ ...read, pages: [page] }).toEqual(content);
  });
});
