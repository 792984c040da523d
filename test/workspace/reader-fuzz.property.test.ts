import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFolder, type FileMap } from '../../src/workspace/index.js';

/*
 * Issue 24, "Hostile input" for the sync tool's reader: random SUMMARY.md files (list items,
 * links with odd targets, groups, `***` lines, fenced blocks, HTML, junk), random front matter,
 * random `.gitbook.yaml` and `.gitbook/vars.yaml`, random file names (unicode, spaces, `..`,
 * control characters, deep paths), random bytes that are not UTF-8. The reader never throws, and
 * every problem it reports names a file of the folder (or the SUMMARY.md/.gitbook.yaml it read)
 * and, when it has a line, one inside that file.
 */

const name = fc.oneof(
  fc.constantFrom('README.md', 'guide.md', 'a b.md', 'ünï/côde.md', '../up.md', './dot.md', 'deep/er/still/page.md', 'x%20y.md', 'CAPS.MD'),
  fc.string({ minLength: 1, maxLength: 12 }).map((s) => `${s.replace(/\//g, '_')}.md`),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).map((s) => `dir/${s}.md`),
);

const target = fc.oneof(name, fc.constantFrom('', '#', 'http://example.com', '<a b.md>', 'README.md#anchor', 'a.md "title"', '(x)', '\\'));
const title = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('[nested]', '`code`', '**bold**', '<b>x</b>', '{% hint %}', ''));

const summaryLine = fc.oneof(
  fc.tuple(fc.integer({ min: 0, max: 6 }), title, target).map(([depth, t, to]) => `${'  '.repeat(depth)}* [${t}](${to})`),
  fc.tuple(fc.integer({ min: 0, max: 3 }), title, target).map(([depth, t, to]) => `${'    '.repeat(depth)}- [${t}](${to})`),
  title.map((t) => `## ${t}`),
  fc.constantFrom(
    '***',
    '---',
    '# Table of contents',
    '',
    '```yaml',
    '```',
    'type: builtin:openapi',
    '<details>',
    '* ',
    '*',
    '  * [x]',
    '1. [n](n.md)',
  ),
  fc.string({ maxLength: 30 }),
);

const yamlish = fc.oneof(
  fc.constantFrom(
    '',
    'root: ./',
    'root: [',
    'structure:\n  readme: x.md\n  summary: nowhere.md',
    'redirects:\n  a: b.md\n  c: [',
    'x: : y',
    '\t: tab',
    '"open',
    '- a\n- b',
    '~',
    'root: ../..',
  ),
  fc.string({ maxLength: 60 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean())).map((d) =>
    Object.entries(d)
      .map(([k, v]) => `${k}: ${String(v)}`)
      .join('\n'),
  ),
);

const frontMatter = yamlish.map((y) => `---\n${y}\n---\n`);
const body = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.constantFrom('# Title\n\nText.\n', '{% hint style="info" %}\nunclosed', '---\nno end', '\u0000nul'),
);
const pageText = fc.tuple(fc.option(frontMatter), body).map(([fm, b]) => `${fm ?? ''}${b}`);
const notUtf8 = fc.uint8Array({ minLength: 1, maxLength: 16 }).map((a) => Uint8Array.from([0xff, 0xfe, ...a]));

const folder: fc.Arbitrary<FileMap> = fc
  .record({
    summary: fc.option(fc.array(summaryLine, { maxLength: 25 }).map((lines) => lines.join('\n'))),
    gitbook: fc.option(yamlish),
    vars: fc.option(yamlish),
    pages: fc.array(fc.tuple(name, fc.oneof(pageText, notUtf8)), { maxLength: 10 }),
    includes: fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 6 }), pageText), { maxLength: 2 }),
  })
  .map(({ summary, gitbook, vars, pages, includes }) => {
    const files: FileMap = new Map();
    if (summary !== null) files.set('SUMMARY.md', summary);
    if (gitbook !== null) files.set('.gitbook.yaml', gitbook);
    if (vars !== null) files.set('.gitbook/vars.yaml', vars);
    for (const [path, text] of pages) files.set(path, text);
    for (const [n, text] of includes) files.set(`.gitbook/includes/${n.replace(/\//g, '_')}.md`, text);
    return files;
  });

const linesOf = (value: Uint8Array | string | undefined) =>
  value === undefined ? 0 : (typeof value === 'string' ? value : new TextDecoder().decode(value)).split('\n').length;

describe('the workspace reader on hostile folders', () => {
  it('never throws; every problem names a file and a line inside it', () => {
    let withLine = 0;
    fc.assert(
      fc.property(folder, (files) => {
        const result = readFolder(files);
        for (const p of result.problems) {
          expect(typeof p.message).toBe('string');
          expect(p.message.length).toBeGreaterThan(0);
          expect(p.file.length, JSON.stringify(p)).toBeGreaterThan(0);
          if (p.line !== undefined && files.has(p.file)) {
            withLine += 1;
            expect(p.line, JSON.stringify(p)).toBeGreaterThanOrEqual(1);
            expect(p.line, JSON.stringify(p)).toBeLessThanOrEqual(linesOf(files.get(p.file)) + 1);
          }
        }
      }),
      { numRuns: 600 },
    );
    // The folders are hostile enough to be refused, with lines.
    expect(withLine).toBeGreaterThan(100);
  });
});
