import fc from 'fast-check';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../../src/render/index.js';
import { HOSTILE, page } from './markdown-arbitraries.js';
import { pageOf, testSite } from './site.js';

const site = testSite();
const render = (markdown: string) => renderPage(site, pageOf(site, 'README.md'), markdown);

const parser = unified().use(rehypeParse, { fragment: true });
const EXECUTABLE = new Set([
  'script',
  'iframe',
  'object',
  'embed',
  'style',
  'form',
  'base',
  'meta',
  'link',
  'svg',
  'math-script',
  'frame',
  'frameset',
]);

/** Nothing in the HTML, read as a browser reads it, can run: no executable element, no handler, no script URL. */
function assertInert(html: string) {
  visit(parser.parse(html), 'element', (node) => {
    expect(EXECUTABLE.has(node.tagName), node.tagName).toBe(false);
    for (const [name, value] of Object.entries(node.properties)) {
      expect(/^on/i.test(name), `${node.tagName} ${name}`).toBe(false);
      if (['href', 'src', 'action', 'formAction', 'xLinkHref'].includes(name))
        expect(String(value)).not.toMatch(/^\s*(javascript|vbscript|data):/i);
    }
  });
}

describe('the renderer is safe', () => {
  it('leaves nothing executable from hostile pages', () => {
    for (const markdown of HOSTILE) assertInert(render(markdown).html);
  });

  it('renders any markdown without throwing, and nothing it makes can run', () => {
    fc.assert(
      fc.property(page, (markdown) => assertInert(render(markdown).html)),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (markdown) => assertInert(render(markdown).html)),
      { numRuns: 300 },
    );
  });
});
