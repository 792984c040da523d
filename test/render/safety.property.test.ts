import fc from 'fast-check';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../../src/render/index.js';
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

const HOSTILE = [
  '<script>alert(1)</script>',
  '<img src=x onerror="alert(1)">',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '[x](javascript:alert(1))',
  '![x](javascript:alert(1))',
  '<iframe src="https://evil.example"></iframe>',
  '<svg onload="alert(1)"></svg>',
  '<details open ontoggle="alert(1)"><summary>x</summary></details>',
  '<style>body{display:none}</style>',
  '<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>',
  '<form action="https://evil.example"><button formaction="javascript:alert(1)">x</button></form>',
  '<mark style="color:red;background:url(javascript:alert(1))">x</mark>',
  '{% embed url="javascript:alert(1)" %}',
  '{% content-ref url="javascript:alert(1)" %}\n[x](javascript:alert(1))\n{% endcontent-ref %}',
  '{% file src="javascript:alert(1)" %}',
  '{% @figma/embed url="javascript:alert(1)" %}',
  '{% @mermaid/diagram content="graph TD\n  A["<script>alert(1)</script>"] --> B\n```\n<img src=x onerror=alert(1)>\n```" %}',
  '<table data-view="cards"><thead><tr><th data-card-target></th></tr></thead><tbody><tr><td><a href="javascript:alert(1)">x</a></td></tr></tbody></table>',
  '$$\\href{javascript:alert(1)}{x}$$',
  '{% tabs %}\n{% tab title="<img src=x onerror=alert(1)>" %}\nx\n{% endtab %}\n{% endtabs %}',
  '{% code title="<script>alert(1)</script>" %}\n```\nx\n```\n{% endcode %}',
];

const blockish = fc.constantFrom(
  '{% hint style="info" %}',
  '{% endhint %}',
  '{% tabs %}',
  '{% tab title="t" %}',
  '{% endtab %}',
  '{% endtabs %}',
  '{% code title="a" lineNumbers="true" %}',
  '{% endcode %}',
  '{% stepper %}',
  '{% step %}',
  '{% endstep %}',
  '{% endstepper %}',
  '{% if visitor.claims.x %}',
  '{% else %}',
  '{% endif %}',
  '{% include ".gitbook/includes/note.md" %}',
  '{% embed url="https://a.example" %}',
  '{% endembed %}',
  '{% columns %}',
  '{% column %}',
  '{% endcolumn %}',
  '{% endcolumns %}',
  '{% unknown %}',
  '{% @mermaid/diagram content="graph TD',
  '  A["x"] --> B" %}',
  '{% @github-files/github-code-block url="https://a.example" %}',
  '```js',
  '```',
  '$$',
  '<details>',
  '</details>',
  '<summary>s</summary>',
  '<figure>',
  '</figure>',
  '* item',
  '1. step',
  '   ',
  '> quote',
  '| a | b |',
  '|---|---|',
  '[link](guides/install.md)',
  '[bad](x.md)',
  '![img](.gitbook/assets/logo.png)',
  '{{ space.vars.product }}',
  '# Title',
  '## Section',
  ...HOSTILE,
);
const page = fc.array(fc.oneof(blockish, fc.string({ maxLength: 30 })), { maxLength: 25 }).map((lines) => lines.join('\n'));

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
