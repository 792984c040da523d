import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PreviewState, previewSite } from '../../src/preview/index.js';
import { renderDocument, renderPage } from '../../src/render/index.js';
import { writeFolder, type FileMap, type WorkspaceContent, type WorkspacePage } from '../../src/workspace/index.js';
import { contentArb } from '../workspace/arbitraries.js';
import { blockish, page } from './markdown-arbitraries.js';

// Issue 21: any page the workspace reader accepts renders without throwing. Random folders are
// made as a writer leaves them (a Git Sync folder written by the workspace layer, then bodies of
// random GitBook blocks, and hand edits: extra files, SUMMARY.md lines, front matter, YAML), read
// by the workspace layer as the preview reads them (in memory, and from disk through the preview's
// own loading), and every page is rendered.

/** Hand edits on a written folder, applied in order. */
type Edit =
  { kind: 'file'; path: string; text: string } | { kind: 'summary'; lines: string[] } | { kind: 'front-matter'; at: number; text: string };

const junkYaml = fc.constantFrom('root: [', 'x: : y', '- a\n- b', 'title: [unclosed', 'hidden: yes', '\t: tab', '"unterminated', '');
const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    kind: fc.constant('file' as const),
    path: fc.constantFrom(
      'extra.md',
      'guides/new.md',
      'docs/README.md',
      '.gitbook/includes/raw.md',
      '.gitbook/vars.yaml',
      '.gitbook.yaml',
      '.gitbook/assets/pic.png',
      'SUMMARY.md',
    ),
    text: fc.oneof(page, junkYaml),
  }),
  fc.record({
    kind: fc.constant('summary' as const),
    lines: fc.array(
      fc.oneof(
        fc.constantFrom(
          '* [Missing](missing.md)',
          '  * [Deep](a/b/c.md)',
          '## Group',
          '* [Ext](https://x.example)',
          '* [Anchor](README.md#x)',
          '* [Up](../out.md)',
          '***',
          '* [Twice](extra.md)',
        ),
        blockish,
        fc.string({ maxLength: 20 }),
      ),
      { minLength: 1, maxLength: 5 },
    ),
  }),
  fc.record({
    kind: fc.constant('front-matter' as const),
    at: fc.nat(),
    text: fc.oneof(
      fc.constantFrom('---\nhidden: yes\n---\n', '---\ntitle: [\n---\n', '---\n: :\n---\n', '---\nlayout: wide\n---\n', '---\n'),
      junkYaml.map((y) => `---\n${y}\n---\n`),
    ),
  }),
);

/** Contents whose pages and includes hold random GitBook markdown. */
const folderArb = fc
  .record({ content: contentArb, bodies: fc.array(page, { minLength: 1, maxLength: 30 }), edits: fc.array(editArb, { maxLength: 4 }) })
  .map(({ content, bodies, edits }) => {
    let n = 0;
    const body = () => bodies[n++ % bodies.length]!;
    const withBodies = (pages: readonly WorkspacePage[]): WorkspacePage[] =>
      pages.map((p) => (p.type === 'link' ? p : p.type === 'document' ? { ...p, markdown: body(), pages: withBodies(p.pages) } : p));
    const filled: WorkspaceContent = {
      ...content,
      pages: withBodies(content.pages),
      reusableContents: content.reusableContents.map((c) => ({ ...c, markdown: body() })),
    };
    return applyEdits(writeFolder(filled).files, edits);
  });

function applyEdits(written: FileMap, edits: readonly Edit[]): FileMap {
  const files = new Map(written);
  const text = (path: string) => {
    const value = files.get(path);
    return typeof value === 'string' ? value : value === undefined ? '' : new TextDecoder().decode(value);
  };
  for (const edit of edits) {
    if (edit.kind === 'file') files.set(edit.path, edit.path.endsWith('.png') ? new TextEncoder().encode(edit.text) : edit.text);
    else if (edit.kind === 'summary') {
      const summary = [...files.keys()].find((path) => /(^|\/)SUMMARY\.md$/.test(path)) ?? 'SUMMARY.md';
      files.set(summary, `${text(summary)}${edit.lines.join('\n')}\n`);
    } else {
      const pages = [...files.keys()].filter((path) => path.endsWith('.md') && !/(^|\/)SUMMARY\.md$/.test(path));
      if (pages.length > 0) {
        const path = pages[edit.at % pages.length]!;
        files.set(path, edit.text + text(path));
      }
    }
  }
  return files;
}

/** Every document page of the folder, read as the preview reads it, rendered into a whole HTML page. */
function renderAll(files: FileMap): number {
  const read = previewSite(files, 'Property');
  let rendered = 0;
  for (const [file, sitePage] of read.byFile) {
    const value = files.get(file);
    const markdown = typeof value === 'string' ? value : '';
    for (const mode of ['preview', 'published'] as const) {
      const result = renderPage(read.site, sitePage, markdown, { mode });
      expect(typeof result.html).toBe('string');
      for (const problem of result.problems) expect(problem.line === undefined || problem.line >= 1).toBe(true);
      expect(renderDocument(read.site, sitePage, result, { search: true })).toMatch(/^<!doctype html>/i);
    }
    rendered += 1;
  }
  return rendered;
}

describe('any folder the workspace reader accepts renders', () => {
  it('every page of random folders, read in memory by the workspace layer, renders without throwing', () => {
    let pages = 0;
    fc.assert(
      fc.property(folderArb, (files) => {
        pages += renderAll(files);
      }),
      { numRuns: 100 },
    );
    // The folders hold pages to render, not only refusals.
    expect(pages).toBeGreaterThan(100);
  }, 120_000);

  it('every page of random folders written to disk, read and served by the preview, renders without throwing', async () => {
    const root = await mkdtemp(join(tmpdir(), 'docsync-render-property-'));
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(folderArb, async (files) => {
          const dir = join(root, String((run += 1)));
          for (const [path, value] of files) {
            await mkdir(dirname(join(dir, path)), { recursive: true });
            await writeFile(join(dir, path), value);
          }
          const state = new PreviewState(dir, 'Property');
          await state.loadStructure();
          // Pages asked for before the folder is read (their text read on demand), then after.
          for (const url of [...state.site.byUrl.keys()].slice(0, 3)) expect(await state.pageHtml(url)).toMatch(/^<!doctype html>/i);
          await state.loadAll();
          for (const url of state.site.byUrl.keys()) expect(await state.pageHtml(url)).toMatch(/^<!doctype html>/i);
          for (const line of state.problemLines()) expect(line).toMatch(/^[^:\n]+(:\d+)?: /);
        }),
        { numRuns: 30 },
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);
});
