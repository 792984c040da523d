import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatProblem, readFolder, writeFolder, type WorkspaceContent, type WorkspacePage } from '../../src/workspace/index.js';
import { contentArb } from './arbitraries.js';

/** Content without each page's front matter as written, which a read adds (the file's block). */
const withoutWritten = (content: WorkspaceContent): WorkspaceContent => {
  const strip = (pages: WorkspacePage[]): WorkspacePage[] =>
    pages.map((page) => {
      if (page.type !== 'document') return page.type === 'group' ? { ...page, pages: strip(page.pages) } : page;
      const { frontMatter: _written, ...rest } = page;
      return { ...rest, pages: strip(page.pages) };
    });
  return { ...content, pages: strip(content.pages) };
};

describe('folder round trip (fast-check)', () => {
  it('readFolder(writeFolder(c)) is c, with ids re-attached from the index (and each front matter as written)', () => {
    fc.assert(
      fc.property(contentArb, (content) => {
        const written = writeFolder(content);
        expect(written.problems).toEqual([]);
        const read = readFolder(written.files, { index: written.index });
        expect(read.problems.map(formatProblem)).toEqual([]);
        expect(withoutWritten(read.content)).toEqual(content);
      }),
      { numRuns: 300 },
    );
  }, 120_000); // 300 folders; alone about 12 s, several times that beside other test files on 2 cores

  it('writing is canonical: writeFolder(readFolder(writeFolder(c))) has the same bytes', () => {
    fc.assert(
      fc.property(contentArb, (content) => {
        const first = writeFolder(content);
        const again = writeFolder(readFolder(first.files).content);
        expect(again.files).toEqual(first.files);
      }),
      { numRuns: 200 },
    );
  });

  it('the index names every page, file and include by place, and paths name the written files', () => {
    fc.assert(
      fc.property(contentArb, (content) => {
        const written = writeFolder(content);
        const read = readFolder(written.files);
        expect([...read.index.pages.keys()].sort()).toEqual([...written.index.pages.keys()].sort());
        expect([...read.index.files.keys()]).toEqual([...written.index.files.keys()].sort());
        for (const path of written.paths.values()) expect(written.files.has(path)).toBe(true);
        expect(new Set(read.pages.keys())).toEqual(new Set(written.paths.values()));
      }),
      { numRuns: 100 },
    );
  });
});
