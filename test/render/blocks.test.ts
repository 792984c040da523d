import { describe, expect, it } from 'vitest';
import { renderPage, type RenderOptions } from '../../src/render/index.js';
import { pageOf, testSite } from './site.js';

const site = testSite();
const render = (markdown: string, path = 'README.md', options?: RenderOptions) => renderPage(site, pageOf(site, path), markdown, options);
const html = (markdown: string, path?: string, options?: RenderOptions) => render(markdown, path, options).html;

// Golden HTML per block, from GitBook's Git Sync syntax (docs.gitbook.com, "Markdown" and
// "Blocks"; the corpus's currents-readme pages use the same spelling).
describe('GitBook blocks', () => {
  it('hint: each of the four styles, with its icon', () => {
    for (const style of ['info', 'success', 'warning', 'danger']) {
      expect(html(`{% hint style="${style}" %}\nMind **this**.\n{% endhint %}`)).toBe(
        `<div class="gb-hint gb-hint-${style}" role="note"><span class="gb-hint-icon" aria-hidden="true"></span><div class="gb-hint-body"><p>Mind <strong>this</strong>.</p></div></div>`,
      );
    }
    expect(html('{% hint style="nonsense" %}\nx\n{% endhint %}')).toContain('gb-hint-info');
  });

  it('tabs: one button and one panel per tab, the first shown', () => {
    expect(
      html('{% tabs %}\n{% tab title="npm" %}\nnpm i\n{% endtab %}\n\n{% tab title="yarn" %}\nyarn add\n{% endtab %}\n{% endtabs %}'),
    ).toBe(
      '<div class="gb-tabs"><div role="tablist" class="gb-tab-list">' +
        '<button type="button" role="tab" class="gb-tab-button" aria-selected="true" data-tab="0">npm</button>' +
        '<button type="button" role="tab" class="gb-tab-button" aria-selected="false" data-tab="1">yarn</button></div>' +
        '<div role="tabpanel" class="gb-tab-panel" data-tab="0"><p>npm i</p></div>' +
        '<div role="tabpanel" class="gb-tab-panel" data-tab="1" hidden><p>yarn add</p></div></div>',
    );
  });

  it('code: title, wrap, line numbers, and highlighting', () => {
    const out = html('{% code title="app.js" overflow="wrap" lineNumbers="true" %}\n```js\nconst a = 1;\nlet b;\n```\n{% endcode %}');
    expect(out).toBe(
      '<figure class="gb-code gb-code-wrap gb-code-numbers"><figcaption class="gb-code-title">app.js</figcaption>' +
        '<pre><span class="gb-line-numbers" aria-hidden="true">1\n2</span><code class="hljs language-js"><span class="hljs-keyword">const</span> a = <span class="hljs-number">1</span>;\n<span class="hljs-keyword">let</span> b;</code></pre></figure>',
    );
    expect(html('```\n{% hint %}\n```')).toBe('<pre><code>{% hint %}</code></pre>');
  });

  it('embed: a link card with the host, nothing fetched; a caption when closed', () => {
    expect(html('{% embed url="https://www.youtube.com/watch?v=x" %}')).toBe(
      '<div class="gb-embed"><a class="gb-card gb-embed-card" href="https://www.youtube.com/watch?v=x" rel="noopener noreferrer"><span class="gb-card-title">www.youtube.com</span><span class="gb-card-url">https://www.youtube.com/watch?v=x</span></a></div>',
    );
    expect(html('{% embed url="https://a.example/v" %}\nThe caption\n{% endembed %}')).toContain(
      '<div class="gb-caption"><p>The caption</p></div>',
    );
  });

  it('content-ref: a card to the page, titled with the page title', () => {
    expect(html('{% content-ref url="guides/install.md" %}\n[install.md](guides/install.md)\n{% endcontent-ref %}')).toBe(
      '<a class="gb-card gb-content-ref" href="/guides/install"><span class="gb-card-title">Install</span></a>',
    );
  });

  it('file: a download card for the asset', () => {
    expect(html('{% file src=".gitbook/assets/a b.pdf" %}\nThe manual\n{% endfile %}')).toBe(
      '<div class="gb-file"><a class="gb-card gb-file-card" href="/.gitbook/assets/a%20b.pdf" download><span class="gb-card-title">a b.pdf</span></a><div class="gb-caption"><p>The manual</p></div></div>',
    );
  });

  it('stepper: numbered steps', () => {
    expect(html('{% stepper %}\n{% step %}\n### First\n{% endstep %}\n{% step %}\nSecond\n{% endstep %}\n{% endstepper %}')).toBe(
      '<ol class="gb-stepper"><li class="gb-step"><span class="gb-step-number" aria-hidden="true">1</span><div class="gb-step-body"><h3 id="first">First<a class="gb-anchor" href="#first" aria-label="Link to First">#</a></h3></div></li>' +
        '<li class="gb-step"><span class="gb-step-number" aria-hidden="true">2</span><div class="gb-step-body"><p>Second</p></div></li></ol>',
    );
  });

  it('columns: side by side with their widths', () => {
    expect(
      html('{% columns %}\n{% column width="33.3%" %}\nLeft\n{% endcolumn %}\n{% column %}\nRight\n{% endcolumn %}\n{% endcolumns %}'),
    ).toBe('<div class="gb-columns"><div class="gb-column gb-w-35"><p>Left</p></div><div class="gb-column"><p>Right</p></div></div>');
  });

  it('expandable: <details> around markdown', () => {
    expect(html('<details>\n\n<summary>More</summary>\n\nHidden **text**\n\n</details>')).toBe(
      '<details>\n<summary>More</summary>\n<p>Hidden <strong>text</strong></p>\n</details>',
    );
  });

  it('cards table: one card per row, target laid over it, cover image, hidden columns out', () => {
    const table =
      '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th></tr></thead>' +
      '<tbody><tr><td><strong>Install</strong></td><td><a href="guides/install.md">install</a></td><td><a href=".gitbook/assets/logo.png">logo.png</a></td></tr></tbody></table>';
    expect(html(table)).toBe(
      '<div class="gb-cards"><div class="gb-card gb-cards-card"><img class="gb-card-cover" src="/.gitbook/assets/logo.png" alt=""><div class="gb-card-text"><strong>Install</strong></div><a class="gb-card-link" href="/guides/install" aria-label="Install"></a></div></div>',
    );
  });

  it('figure with caption, image from the assets', () => {
    expect(html('<figure><img src=".gitbook/assets/logo.png" alt="Logo"><figcaption><p>Our logo</p></figcaption></figure>')).toBe(
      '<figure><img src="/.gitbook/assets/logo.png" alt="Logo"><figcaption><p>Our logo</p></figcaption></figure>',
    );
  });

  it('buttons, icons and colour marks', () => {
    expect(
      html('<a href="guides/install.md" class="button primary">Start</a> <a href="https://x.example" class="button secondary">More</a>'),
    ).toBe(
      '<p><a href="/guides/install" class="gb-button gb-button-primary">Start</a> <a href="https://x.example" class="gb-button gb-button-secondary">More</a></p>',
    );
    expect(html('<i class="fa-github">:github:</i>')).toBe(
      '<p><span class="gb-icon" title="github" role="img" aria-label="github"></span></p>',
    );
    expect(
      html(
        '<mark style="color:red;">red</mark> <mark style="background-color:$warning;">bg</mark> <mark style="color:expression(x)">no</mark>',
      ),
    ).toBe('<p><mark class="gb-color-red">red</mark> <mark class="gb-bg-warning">bg</mark> <mark>no</mark></p>');
  });

  it('math: KaTeX HTML rendered on the server, inline and as a block', () => {
    const out = render('Inline $$a^2$$ and\n\n$$\n\\frac{1}{2}\n$$');
    expect(out.math).toBe(true);
    expect(out.html).toContain('<span class="katex">');
    expect(out.html).toContain('<span class="katex-display">');
    expect(out.html).not.toContain('$$');
    expect(render('It costs $5 and $6.').html).toBe('<p>It costs $5 and $6.</p>');
  });

  it('mermaid: a diagram block holding its source, not highlighted', () => {
    const diagram = (source: string) =>
      '<figure class="gb-diagram gb-mermaid"><figcaption class="gb-diagram-label">Mermaid diagram</figcaption>' +
      `<pre class="gb-diagram-source"><code>${source}</code></pre></figure>`;
    // GitBook's native Mermaid block, as Git Sync writes it.
    expect(html('```mermaid\ngraph TD; A-->B\n```')).toBe(diagram('graph TD; A-->B'));
    // The older Mermaid integration's block: one tag over several lines, quotes and blank lines as written.
    expect(html('Before\n{% @mermaid/diagram content="graph TD;\n  A["Log in"] --> B\n\n  B --> C" %}\nAfter')).toBe(
      '<p>Before</p>\n' + diagram('graph TD;\n  A["Log in"] --> B\n\n  B --> C') + '\n<p>After</p>',
    );
    // A fence inside the diagram's source stays in it; props after the content are not part of it.
    expect(html('{% @mermaid/diagram content="%%{init: {}}%%\n```\nflowchart LR\n```" fullWidth="false" %}')).toBe(
      diagram('%%{init: {}}%%\n```\nflowchart LR\n```'),
    );
    expect(html('* Item\n\n  {% @mermaid/diagram content="graph LR\n  A-->B" %}')).toContain(diagram('graph LR\n  A-->B'));
    expect(render('{% @mermaid/diagram content="graph LR" %}').problems).toEqual([]);
  });

  it('another integration block: a card naming it, linking its URL when it has one', () => {
    const out = render('{% @figma/embed fileId="abc" url="https://www.figma.com/file/abc" %}');
    expect(out.html).toBe(
      '<a class="gb-card gb-integration" href="https://www.figma.com/file/abc" rel="noopener noreferrer">' +
        '<span class="gb-card-title">Integration block @figma/embed</span><span class="gb-card-url">https://www.figma.com/file/abc</span></a>',
    );
    expect(out.problems).toEqual([]);
    expect(html('{% @github-files/github-code-block %}', undefined, { mode: 'published' })).toBe(
      '<div class="gb-card gb-integration"><span class="gb-card-title">Integration block @github-files/github-code-block</span>' +
        '<span class="gb-card-url">drawn by the github-files integration on GitBook</span></div>',
    );
  });

  it('include: the reusable content expanded, its links relative to its own file', () => {
    const out = render('{% include ".gitbook/includes/note.md" %}');
    expect(out.html).toBe('<p>Shared Docsync <a href="/guides/install">install</a></p>');
    expect(out.problems).toEqual([]);
    expect(render('{% include "../.gitbook/includes/note.md" %}', 'guides/install.md').html).toContain('Shared Docsync');
    const missing = render('{% include ".gitbook/includes/gone.md" %}');
    expect(missing.html).toBe('');
    expect(missing.problems).toEqual([
      {
        file: 'README.md',
        line: 1,
        message: 'include `.gitbook/includes/gone.md`: the folder has no reusable content .gitbook/includes/gone.md',
      },
    ]);
  });

  it('an include that includes itself is a problem, not a loop', () => {
    const loop = testSite({
      includes: new Map([
        ['.gitbook/includes/a.md', 'A\n\n{% include "b.md" %}'],
        ['.gitbook/includes/b.md', 'B\n\n{% include "a.md" %}'],
      ]),
    });
    const out = renderPage(loop, pageOf(loop, 'README.md'), '{% include ".gitbook/includes/a.md" %}');
    expect(out.html).toBe('<p>A</p>\n<p>B</p>');
    expect(out.problems.map((p) => p.message)).toEqual([
      'include `a.md` includes itself (.gitbook/includes/a.md → .gitbook/includes/b.md → .gitbook/includes/a.md)',
    ]);
  });

  it('space and page variables; other {{ }} stay as written; unknown variables are problems', () => {
    const withVars = testSite();
    const page = { ...pageOf(withVars, 'README.md'), variables: { version: '2.1' } };
    const out = renderPage(
      withVars,
      page,
      '{{ space.vars.product }} {{page.vars.version}} ${{ github.run_id }} {{ space.vars.nope }}\n\n`{{ space.vars.product }}`',
    );
    expect(out.html).toBe('<p>Docsync 2.1 ${{ github.run_id }} {{ space.vars.nope }}</p>\n<p><code>{{ space.vars.product }}</code></p>');
    expect(out.problems).toEqual([{ file: 'README.md', line: 1, message: 'space variable `nope` is not defined' }]);
  });

  it("conditions: every branch marked in preview; the visitor's branch when published", () => {
    const md = '{% if visitor.claims.unsigned.beta %}\nBeta\n{% else %}\nStable\n{% endif %}';
    expect(html(md)).toBe(
      '<div class="gb-condition"><div class="gb-condition-label">Shown when visitor.claims.unsigned.beta</div><p>Beta</p></div>\n' +
        '<div class="gb-condition"><div class="gb-condition-label">Otherwise</div><p>Stable</p></div>',
    );
    expect(html(md, 'README.md', { mode: 'published', claims: { unsigned: { beta: true } } })).toBe('<p>Beta</p>');
    expect(html(md, 'README.md', { mode: 'published', claims: {} })).toBe('<p>Stable</p>');
  });

  it('openapi blocks: a placeholder card', () => {
    expect(
      html(
        '{% openapi-operation spec="petstore" path="/pets" method="get" %}\n[OpenAPI petstore](https://x.example/spec.json)\n{% endopenapi-operation %}',
      ),
    ).toBe(
      '<div class="gb-card gb-openapi"><span class="gb-card-title">OpenAPI: GET /pets</span><span class="gb-card-url">from petstore</span></div>',
    );
  });

  it('unknown tag: a visible warning in preview, left out when published, a problem either way', () => {
    const preview = render('Before\n\n{% carousel %}\nSlide\n{% endcarousel %}\n\nAfter');
    expect(preview.html).toBe(
      '<p>Before</p>\n<div class="gb-unknown" role="note"><strong>Unknown block {% carousel %}</strong><p>Slide</p></div>\n<p>After</p>',
    );
    expect(preview.problems).toEqual([
      {
        file: 'README.md',
        line: 3,
        message: 'unknown block `{% carousel %}`: GitBook does not render it, and a published page leaves it out',
      },
    ]);
    expect(html('Before\n\n{% carousel %}\nSlide\n{% endcarousel %}\n\nAfter', 'README.md', { mode: 'published' })).toBe(
      '<p>Before</p>\n<p>After</p>',
    );
  });

  it('blocks nest, inside list items too', () => {
    const out = html('1. Run it\n   {% hint style="success" %}\n   Done\n   {% endhint %}\n2. Next');
    expect(out).toContain('<li>\n<p>Run it</p>\n<div class="gb-hint gb-hint-success"');
    expect(out).toContain('<li>\n<p>Next</p>\n</li>');
    expect(
      html('{% tabs %}\n{% tab title="A" %}\n{% hint style="danger" %}\nIn a tab\n{% endhint %}\n{% endtab %}\n{% endtabs %}'),
    ).toContain('<div role="tabpanel" class="gb-tab-panel" data-tab="0"><div class="gb-hint gb-hint-danger"');
  });

  it('unclosed and stray tags are problems at their lines; the content still renders', () => {
    const out = render('{% hint style="info" %}\nNever closed\n\n{% endtabs %}');
    expect(out.html).toContain('<p>Never closed</p>');
    expect(out.problems.map((p) => [p.line, p.message])).toEqual([
      [1, '`{% hint %}` is never closed (`{% endhint %}`)'],
      [4, '`{% endtabs %}` closes no `{% tabs %}`'],
    ]);
  });

  it('an integration tag never closed (no `%}`) shows as text and is a problem at its file and line', () => {
    const out = render('# Flow\n\n{% @mermaid/diagram content="graph TD\n  A --> B\n\nAfter', 'guides/install.md');
    expect(out.html).toContain('{% @mermaid/diagram content="graph TD');
    expect(out.html).toContain('<p>After</p>');
    expect(out.problems).toEqual([
      { file: 'guides/install.md', line: 3, message: '`{% @mermaid/diagram` is never closed (`%}`): it shows as text' },
    ]);
    // Any integration alike; one closed later is no problem.
    expect(render('text\n{% @github-files/github-code-block url="https://a.example"').problems.map((p) => [p.line, p.message])).toEqual([
      [2, '`{% @github-files/github-code-block` is never closed (`%}`): it shows as text'],
    ]);
    expect(render('{% @mermaid/diagram content="graph TD\n  A --> B" %}').problems).toEqual([]);
    // The next tag is not taken into the unclosed one: the hint after it renders, no stray end.
    const before = render('{% @mermaid/diagram content="graph TD\nA --> B\n\n{% hint style="info" %}\nInside\n{% endhint %}');
    expect(before.html).toContain('<div class="gb-hint gb-hint-info"');
    expect(before.problems.map((p) => [p.line, p.message])).toEqual([
      [1, '`{% @mermaid/diagram` is never closed (`%}`): it shows as text'],
    ]);
  });
});
