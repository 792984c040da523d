import type { Root as HastRoot } from 'hast';
import type { Root, RootContent } from 'mdast';
import { rehypeHighlight } from './highlight.js';
import rehypeKatex from 'rehype-katex';
import rehypeParse from 'rehype-parse';
import rehypeSanitize from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { parseGitbookMarkdown, readFrontMatter, type GitbookBlock } from '../content/index.js';
import { renderBlock } from './blocks/index.js';
import { mermaidDiagram } from './blocks/diagram.js';
import type { RenderContext } from './context.js';
import { cardsTables } from './hast/cards-table.js';
import { el, text } from './hast/el.js';
import { headingAnchors } from './hast/headings.js';
import { inlineHtml } from './hast/inline-html.js';
import { expandIncludes } from './mdast/includes.js';
import { expandOpenApi } from './mdast/openapi.js';
import { resolveLinks } from './mdast/links.js';
import { substituteVariables } from './mdast/variables.js';
import { SANITIZE_SCHEMA } from './sanitize-schema.js';
import type { RenderOptions, RenderSite, RenderedPage, SitePage } from './types.js';

// Raw HTML in a page (figures, cards, `<details>` around markdown) is parsed as a browser would,
// then everything passes the sanitiser; highlighting and KaTeX run on sanitised trees, so their
// own markup (trusted) is not stripped.
const toHtmlWithRaw = unified().use(rehypeStringify, { allowDangerousHtml: true }).freeze();
const htmlParser = unified().use(rehypeParse, { fragment: true }).freeze();
const finish = unified()
  .use(rehypeSanitize, SANITIZE_SCHEMA)
  .use(rehypeHighlight, { detect: false })
  .use(rehypeKatex, { output: 'htmlAndMathml' })
  .use(rehypeStringify)
  .freeze();

/**
 * Renders a page's GitBook markdown to sanitised HTML. `markdown` is the page as written: its
 * file (front matter and a `# title` equal to the page's title are left out: the page's layout
 * shows them) or the stored page markdown. Pure: the site gives everything the page refers to.
 * Never throws on any markdown; what is wrong is in `problems`, at lines of `markdown`.
 */
export function renderPage(site: RenderSite, page: SitePage, markdown: string, options: RenderOptions = { mode: 'preview' }): RenderedPage {
  const ctx: RenderContext = { site, page, file: page.path ?? 'README.md', options, problems: [] };
  const front = readFrontMatter(markdown);
  if (!front.ok) ctx.problems.push({ file: ctx.file, line: 1, message: front.message });
  const parsed = parseGitbookMarkdown(markdown);
  for (const problem of parsed.problems) ctx.problems.push({ file: ctx.file, ...problem });
  const root = parsed.root;
  root.children = withoutTitle(
    root.children.filter((node) => node.type !== 'yaml'),
    page.title,
  );

  expandIncludes(root, ctx, ctx.file);
  expandOpenApi(root, ctx);
  substituteVariables(root, ctx, ctx.file);
  resolveLinks(root, ctx, ctx.file);

  const hast = toHast(root, ctx);
  const reparsed = htmlParser.parse(toHtmlWithRaw.stringify(hast));
  cardsTables(reparsed);
  inlineHtml(reparsed);
  const outline = headingAnchors(reparsed);
  const math = hasMath(root);
  const html = finish.stringify(finish.runSync(reparsed) as HastRoot);
  return { html, outline, problems: ctx.problems.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1)), math };
}

/** Drops a first `# heading` that repeats the page's title (the layout shows the title). */
function withoutTitle(children: RootContent[], title: string): RootContent[] {
  const first = children[0];
  if (first?.type !== 'heading' || first.depth !== 1) return children;
  const textOfHeading = first.children
    .map((c) => ('value' in c ? c.value : ''))
    .join('')
    .trim();
  return textOfHeading === title.trim() ? children.slice(1) : children;
}

function toHast(root: Root, ctx: RenderContext): HastRoot {
  const processor = unified().use(remarkRehype, {
    allowDangerousHtml: true,
    handlers: {
      gitbookBlock: (state, node: GitbookBlock) => {
        const render = (block: GitbookBlock) => renderBlock({ node: block, ctx, children: () => state.all(block), render });
        return render(node);
      },
      code: (state, node) => {
        if (node.lang === 'mermaid') return mermaidDiagram(node.value);
        const code = el('code', node.lang ? { className: [`language-${node.lang}`] } : {}, [text(node.value)]);
        const result = el('pre', {}, [code]);
        state.patch(node, result);
        return result;
      },
    },
  });
  return processor.runSync(root) as HastRoot;
}

function hasMath(root: Root): boolean {
  const stack: RootContent[] = [...root.children];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'math' || node.type === 'inlineMath') return true;
    if ('children' in node) stack.push(...(node.children as RootContent[]));
  }
  return false;
}
