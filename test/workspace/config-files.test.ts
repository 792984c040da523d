import { describe, expect, it } from 'vitest';
import {
  contentTypeOf,
  parseGitbookYaml,
  parseInclude,
  parseVars,
  renderGitbookYaml,
  renderInclude,
  renderVars,
} from '../../src/workspace/index.js';
import { includePaths } from '../../src/workspace/includes.js';

describe('.gitbook.yaml', () => {
  const text =
    'root: ./docs/\n\nstructure:\n  readme: intro.md\n  summary: SUMMARY.md\n\nredirects:\n  old/page: new/page.md\n  a-very-long-redirect-source/that/goes/on/and/on/for/a/while: getting-started/other-frameworks/cypress/ci-setup/cypress-bitbucket-pipelines.md\n\nx-custom:\n  keep: me\n';

  it('reads root, structure, redirects and keeps other keys; writes them back byte for byte', () => {
    const { settings, errors } = parseGitbookYaml(text);
    expect(errors).toEqual([]);
    expect(settings).toEqual({
      root: './docs/',
      structure: { readme: 'intro.md', summary: 'SUMMARY.md' },
      redirects: {
        'old/page': 'new/page.md',
        'a-very-long-redirect-source/that/goes/on/and/on/for/a/while':
          'getting-started/other-frameworks/cypress/ci-setup/cypress-bitbucket-pipelines.md',
      },
      extra: { 'x-custom': { keep: 'me' } },
    });
    expect(renderGitbookYaml(settings)).toBe(text);
  });

  it('reports wrong values with their line and writes nothing for no settings', () => {
    expect(parseGitbookYaml('root: ./\nredirects: [a]\n').errors).toEqual([[2, expect.stringContaining('`redirects` has a wrong value')]]);
    expect(parseGitbookYaml('root: [\n').errors[0]![1]).toMatch(/^not valid YAML/);
    expect(renderGitbookYaml({})).toBeUndefined();
  });
});

describe('.gitbook/vars.yaml', () => {
  it('is a flat map of strings, numbers and booleans', () => {
    const text = "LATEST: 24.x\nCOUNT: 3\nBETA: true\nQUOTED: 'true'\n";
    expect(parseVars(text)).toEqual({ variables: { LATEST: '24.x', COUNT: 3, BETA: true, QUOTED: 'true' }, errors: [] });
    expect(renderVars(parseVars(text).variables)).toBe(text);
    expect(renderVars({})).toBeUndefined();
    expect(parseVars('A: 1\nB:\n  nested: 2\n').errors).toEqual([[2, 'variable `B` must be a string, number or boolean']]);
  });
});

describe('.gitbook/includes', () => {
  it('is front matter `title`, a blank line and the markdown', () => {
    const include = { id: 'r1', title: 'Shared note', markdown: 'Hello {% include %}\n' };
    const text = renderInclude(include);
    expect(text).toBe('---\ntitle: Shared note\n---\n\nHello {% include %}\n');
    expect(parseInclude(text)).toEqual({ ok: true, title: 'Shared note', markdown: include.markdown });
    expect(renderInclude({ ...include, markdown: '' })).toBe('---\ntitle: Shared note\n---\n');
  });

  it('names files by title slug, unique, or by the path they were read from', () => {
    expect(
      includePaths([
        { id: 'a', title: 'Note', markdown: '' },
        { id: 'b', title: 'Note', markdown: '' },
        { id: 'c', title: 'X', markdown: '', path: 'odd name.md' },
      ]),
    ).toEqual(['.gitbook/includes/note.md', '.gitbook/includes/note-2.md', '.gitbook/includes/odd name.md']);
  });

  it('reports a missing title and keys other than title', () => {
    expect(parseInclude('no front matter\n')).toEqual({ ok: false, line: 1, message: 'front matter `title` must be a non-empty string' });
    expect(parseInclude('---\ntitle: T\nicon: x\n---\n')).toEqual({
      ok: false,
      line: 3,
      message: 'front matter `icon` is not read in an include (only `title`)',
    });
  });
});

describe('assets', () => {
  it('take their content type from the extension', () => {
    expect(['a.png', 'b.JPG', 'c.svg', 'd.pdf', 'e', 'f.weird'].map(contentTypeOf)).toEqual([
      'image/png',
      'image/jpeg',
      'image/svg+xml',
      'application/pdf',
      'application/octet-stream',
      'application/octet-stream',
    ]);
  });
});
