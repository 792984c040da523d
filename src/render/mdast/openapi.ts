import type { Parent, RootContent } from 'mdast';
import {
  findOperation,
  findWebhook,
  operationMarkdown,
  parseGitbookMarkdown,
  schemasMarkdown,
  type GitbookBlock,
} from '../../content/index.js';
import { report, type RenderContext } from '../context.js';

const attr = (node: GitbookBlock, name: string) => (typeof node.attrs[name] === 'string' ? (node.attrs[name] as string) : undefined);

/** The blocks filled from a spec; `openapi` and `swagger` are GitBook's older operation blocks. */
const EXPANDED = new Set(['openapi-operation', 'openapi-webhook', 'openapi-schemas', 'openapi', 'swagger']);

/**
 * Fills each `{% openapi-operation spec="s" path="/p" method="get" %}`,
 * `{% openapi-webhook spec="s" name="n" method="post" %}` and
 * `{% openapi-schemas spec="s" schemas="A,B" %}` with the markdown of what it names, generated
 * from the spec the caller resolved (`site.openapi`, by slug), and marks it `data.openapi`. The
 * older `{% openapi src="..." path="/p" method="get" %}` and `{% swagger src=... %}` blocks are
 * filled as `openapi-operation` when the caller resolved their `src` (a spec's slug or source
 * URL); what a `swagger` block wrote by hand inside it gives way to the spec. A block naming a
 * spec the site does not have stays a placeholder card; one naming an operation or a schema the
 * spec lacks is a problem.
 */
export function expandOpenApi(parent: Parent, ctx: RenderContext): void {
  for (const node of parent.children as RootContent[]) {
    if (node.type === 'gitbookBlock' && EXPANDED.has(node.name)) expandOne(node, ctx);
    else if ('children' in node) expandOpenApi(node as Parent, ctx);
  }
}

function expandOne(node: GitbookBlock, ctx: RenderContext): void {
  const legacy = node.name === 'openapi' || node.name === 'swagger';
  const slug = attr(node, legacy ? 'src' : 'spec');
  const spec = slug === undefined ? undefined : ctx.site.openapi?.get(slug);
  if (!spec) return;
  let markdown: string;
  if (node.name === 'openapi-webhook') {
    const method = attr(node, 'method') ?? '';
    const name = attr(node, 'name') ?? '';
    const op = findWebhook(spec, method, name);
    if (!op) {
      report(ctx, ctx.file, node.position?.start.line, `openapi-webhook: the spec ${slug} has no webhook ${method.toUpperCase()} ${name}`);
      return;
    }
    markdown = `**${op.title}**\n\n${operationMarkdown(spec, op, { title: false })}`;
  } else if (node.name !== 'openapi-schemas') {
    if (legacy && (attr(node, 'method') === undefined || attr(node, 'path') === undefined)) return;
    const method = attr(node, 'method') ?? '';
    const path = attr(node, 'path') ?? '';
    const op = findOperation(spec, method, path);
    if (!op) {
      report(ctx, ctx.file, node.position?.start.line, `${node.name}: the spec ${slug} has no operation ${method.toUpperCase()} ${path}`);
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
