import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PreviewState } from '../../src/preview/index.js';
import { previewFolder } from './fixture.js';

// The preview starts from the structure alone (listening before any page is read) and reads a
// page's file when the page is asked for; the folder is read whole afterwards.
describe('preview start', () => {
  it('has the navigation of SUMMARY.md before any page is read, and reads a page when asked', async () => {
    const dir = await previewFolder();
    const state = new PreviewState(dir, 'Docs');
    await state.loadStructure();
    expect([...state.site.byUrl.keys()].sort()).toEqual(['/', '/guides', '/guides/install', '/reference/blocks', '/secret']);
    // Nothing of the pages is read yet: not in the search index, no folder problems.
    expect(state.search.search('zebrafish')).toEqual([]);
    expect(state.problemLines()).toEqual([]);
    // A save before the page is first asked for: the page is read then, so it shows the save.
    await writeFile(join(dir, 'guides/install.md'), '# Install\n\nRead when asked: quokka.\n');
    expect(await state.pageHtml('/guides/install')).toContain('quokka');

    await state.loadAll();
    await state.indexAll();
    expect(state.search.search('quokka').map((hit) => hit.url)).toEqual(['/guides/install']);
    // Front matter is known once the folder is read: the hidden page leaves the navigation.
    const html = (await state.pageHtml('/'))!;
    expect(html.slice(html.indexOf('<nav class="ds-nav"'), html.indexOf('</nav>'))).not.toContain('Secret');
  });
});
