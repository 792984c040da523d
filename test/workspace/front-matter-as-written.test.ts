import { describe, expect, it } from 'vitest';
import { readFolder, writeFolder, type WorkspaceDocument } from '../../src/workspace/index.js';

// Issue 14: a page file's front matter comes back as the writer wrote it (order, quoting,
// folding, comments, keys docsync does not know) while its values are unchanged; a changed
// value is rewritten in place.
const written = `---
# set by the docs team
icon: gear
description: A description on one line even though it is longer than eighty columns, as people write
hidden: false
layout:
  title:
    visible: true
  width: wide
'custom': "kept"
---

# Settings

Body.
`;

const folder = (page: string) =>
  new Map<string, string>([
    ['SUMMARY.md', '# Table of contents\n\n* [Settings](README.md)\n'],
    ['README.md', page],
  ]);

function roundTrip(edit?: (page: WorkspaceDocument) => void): string {
  const read = readFolder(folder(written));
  expect(read.problems).toEqual([]);
  const page = read.content.pages[0] as WorkspaceDocument;
  edit?.(page);
  return writeFolder(read.content).files.get('README.md') as string;
}

describe('front matter as written', () => {
  it('is written back byte for byte while its values are unchanged', () => {
    expect(roundTrip()).toBe(written);
  });

  it('rewrites a changed value in place and leaves every other line as written', () => {
    const out = roundTrip((page) => (page.description = 'Short.'));
    expect(out).toBe(written.replace(/^description: .*$/m, 'description: Short.'));
  });

  it('removes a cleared key with its lines and adds a new key at the end of the block', () => {
    const out = roundTrip((page) => {
      delete page.description;
      page.emoji = '🚀';
    });
    expect(out).toBe(written.replace(/^description: .*\n/m, '').replace(`'custom': "kept"\n`, `'custom': "kept"\nemoji: 🚀\n`));
  });

  it('writes a flag turned on over the `false` the writer wrote, and layout changes in place', () => {
    const out = roundTrip((page) => {
      page.hidden = true;
      page.layout = { ...page.layout, width: 'default' };
    });
    // A changed key is written afresh, in GitBook's form (layout: width first).
    expect(out).toContain("\nhidden: true\nlayout:\n  width: default\n  title:\n    visible: true\n'custom'");
    expect(out.startsWith('---\n# set by the docs team\nicon: gear\ndescription: A description on one line')).toBe(true);
  });

  it("without a block as written, is GitBook's canonical form", () => {
    const read = readFolder(folder(written));
    const page = read.content.pages[0] as WorkspaceDocument;
    delete page.frontMatter;
    expect(writeFolder(read.content).files.get('README.md')).toMatch(/^---\ndescription: >-\n {2}A description/);
  });
});
