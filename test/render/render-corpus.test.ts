import { describe, expect, it } from 'vitest';
import { isKnownTag, parseGitbookMarkdown, type GitbookBlock } from '../../src/content/index.js';
import { loadPreviewFolder } from '../../src/preview/folder.js';
import { previewSite } from '../../src/preview/index.js';
import { renderPage } from '../../src/render/index.js';
import { corpusFolders, corpusFolder } from '../helpers/corpus.js';

// Every page of every real Git Sync export (DOCSYNC_CORPUS_DIR, see test/helpers/corpus.ts)
// through the renderer as the preview reads the folder: nothing GitBook writes is an unknown
// block, nothing throws, and no template tag is left as text in the HTML.

/** The names of the blocks a page's markdown holds, nested ones included. */
function blockNames(markdown: string): string[] {
  const names: string[] = [];
  const walk = (nodes: readonly unknown[]) => {
    for (const node of nodes as { type: string; children?: unknown[] }[]) {
      if (node.type === 'gitbookBlock') names.push((node as GitbookBlock).name);
      if (node.children) walk(node.children);
    }
  };
  walk(parseGitbookMarkdown(markdown).root.children);
  return names;
}

describe.each(corpusFolders())('corpus %s rendered', (name) => {
  it('renders every page with no unknown block, no error and no raw `{%`', { timeout: 600_000 }, async ({ annotate }) => {
    const { files } = await loadPreviewFolder(corpusFolder(name));
    const { site, byFile } = previewSite(files, name);
    const failures: string[] = [];
    const found = new Map<string, number>();
    for (const [file, page] of byFile) {
      const markdown = files.get(file);
      if (typeof markdown !== 'string') continue;
      for (const block of blockNames(markdown)) found.set(block, (found.get(block) ?? 0) + 1);
      try {
        const { html, problems } = renderPage(site, page, markdown, { mode: 'preview' });
        for (const p of problems) if (/unknown block/.test(p.message)) failures.push(`${file}:${p.line}: ${p.message}`);
        // A tag shown in a code sample is text; anywhere else it is a block the renderer missed.
        const prose = html.replace(/<pre[\s\S]*?<\/pre>|<code[\s\S]*?<\/code>/g, '');
        const raw = prose.indexOf('{%');
        if (raw >= 0) failures.push(`${file}: raw tag in the HTML: ${prose.slice(raw, raw + 80)}`);
      } catch (error) {
        failures.push(`${file}: threw ${(error as Error).stack}`);
      }
    }
    // The blocks found, listed in the test report; each is one GitBook defines.
    const list = [...found].sort().map(([block, count]) => `${block} ${count}`);
    await annotate(`${name}: ${byFile.size} pages; blocks found: ${list.join(', ')}`);
    expect([...found.keys()].filter((block) => !isKnownTag(block) && block !== 'if-branch')).toEqual([]);
    expect(failures).toEqual([]);
    expect(byFile.size).toBeGreaterThan(0);
  });
});
