import type { Parent, RootContent } from 'mdast';
import { findOperation, operationMarkdown, parseGitbookMarkdown, schemasMarkdown, type GitbookBlock } from '../../content/index.js';
import { report, type RenderContext } from '../context.js';

const attr = (node: GitbookBlock, name: string) => (typeof node.attrs[name] === 'string' ? (node.attrs[name] as string) : undefined);

/**
 * Fills each `{% openapi-operation spec="s" path="/p" method="get" %}` and
 * `{% openapi-schemas spec="s" schemas="A,B" %}` with the markdown of what it names, generated
 * from the spec the caller resolved (`site.openapi`, by slug), and marks it `data.openapi`. A
 * block naming a spec the site does not have stays a placeholder card; one naming an operation
 * or a schema the spec lacks is a problem.
 */
export function expandOpenApi(parent: Parent, ctx: RenderContext): void {
  for (const node of parent.children as RootContent[]) {
    if (node.type === 'gitbookBlock' && (node.name === 'openapi-operation' || node.name === 'openapi-schemas')) expandOne(node, ctx);
    else if ('children' in node) expandOpenApi(node as Parent, ctx);
  }
}

function expandOne(node: GitbookBlock, ctx: RenderContext): void {
  const slug = attr(node, 'spec');
  const spec = slug === undefined ? undefined : ctx.site.openapi?.get(slug);
  if (!spec) return;
  let markdown: string;
  if (node.name === 'openapi-operation') {
    const method = attr(node, 'method') ?? '';
    const path = attr(node, 'path') ?? '';
    const op = findOperation(spec, method, path);
    if (!op) {
      report(
        ctx,
        ctx.file,
        node.position?.start.line,
        `openapi-operation: the spec ${slug} has no operation ${method.toUpperCase()} ${path}`,
      );
      return;
    }
    markdown = `**${op.title}**\n\n${operationMarkdown(spec, op, { title: false })}`;
  } else {
    const names = (attr(node, 'schemas') ?? '')
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n !== '');
    markdown = schemasMarkdown(spec, names, 3);
  }
  node.children = parseGitbookMarkdown(markdown).root.children;
  node.data = { ...node.data, openapi: true };
}
