import { describe, expect, it } from 'vitest';
import { renderPage } from '../../src/render/index.js';
import { pageOf, testSite } from './site.js';

const site = testSite();
const render = (markdown: string, path = 'README.md') => renderPage(site, pageOf(site, path), markdown);

describe('links', () => {
  it('render to the pages they point at, anchors kept, relative to the page file', () => {
    expect(render('[a](guides/install.md#step-2) [b](guides/) [c](#here) [d](https://x.example)').html).toBe(
      '<p><a href="/guides/install#step-2">a</a> <a href="/guides">b</a> <a href="#here">c</a> <a href="https://x.example">d</a></p>',
    );
    expect(render('[home](../README.md) [api](../reference/api.md)', 'guides/install.md').html).toBe(
      '<p><a href="/">home</a> <a href="/reference/api">api</a></p>',
    );
  });

  it('images and HTML src from .gitbook/assets, encoded', () => {
    expect(render('![logo](.gitbook/assets/logo.png)').html).toBe('<p><img src="/.gitbook/assets/logo.png" alt="logo"></p>');
    expect(render('![x](../.gitbook/assets/logo.png)', 'guides/install.md').html).toBe(
      '<p><img src="/.gitbook/assets/logo.png" alt="x"></p>',
    );
  });

  it('broken links and missing assets are problems at their lines, and look broken', () => {
    const out = render('Fine\n\n[gone](gone.md)\n\n<img src=".gitbook/assets/missing.png">\n\n[out](../../etc/passwd)');
    expect(out.html).toContain('<a href="gone.md" class="gb-broken-link">gone</a>');
    expect(out.problems).toEqual([
      { file: 'README.md', line: 3, message: 'broken link `gone.md`: no page of SUMMARY.md has the file gone.md' },
      {
        file: 'README.md',
        line: 5,
        message: 'broken link `.gitbook/assets/missing.png`: the folder has no such file .gitbook/assets/missing.png',
      },
      { file: 'README.md', line: 7, message: "`../../etc/passwd` leaves the site's folder" },
    ]);
  });
});

describe('headings', () => {
  it('get anchors as GitBook makes them, unique in the page, and an outline of levels 2 and 3', () => {
    const out = render('## Getting started\n\n### Install it\n\n## Getting started\n\n#### Deep');
    expect(out.html).toContain('<h2 id="getting-started">Getting started<a class="gb-anchor" href="#getting-started"');
    expect(out.html).toContain('<h2 id="getting-started-2">');
    expect(out.outline).toEqual([
      { id: 'getting-started', title: 'Getting started', depth: 2 },
      { id: 'install-it', title: 'Install it', depth: 3 },
      { id: 'getting-started-2', title: 'Getting started', depth: 2 },
    ]);
  });

  it("the title heading and the front matter are the layout's, not the content's", () => {
    expect(render('---\ndescription: Hi\n---\n\n# Home\n\nText').html).toBe('<p>Text</p>');
    expect(render('# Another heading\n\nText').html).toContain('<h1 id="another-heading">');
  });

  it('problems count lines of the file as given, front matter included', () => {
    expect(render('---\ndescription: Hi\n---\n\n# Home\n\n[x](nope.md)').problems.map((p) => p.line)).toEqual([7]);
  });
});
