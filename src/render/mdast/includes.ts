import type { Parent, RootContent } from 'mdast';
import { dirOf, includeTarget, joinPath, parseGitbookMarkdown, parseTag, type GitbookBlock } from '../../content/index.js';
import { report, type RenderContext } from '../context.js';

/** How deep includes may nest: deeper is almost surely a loop the cycle check did not name. */
const MAX_DEPTH = 5;

/**
 * Replaces each `{% include "path" %}` by the reusable content it names, parsed, as an `include`
 * block whose `data.file` is the include's file (its links are relative to it). An include of
 * itself, directly or not, and an include that is not in the site are problems, left out.
 */
export function expandIncludes(parent: Parent, ctx: RenderContext, file: string, chain: readonly string[] = []): void {
  for (const node of parent.children as RootContent[]) {
    if (node.type === 'gitbookBlock' && node.name === 'include') expandOne(node, ctx, file, chain);
    else if ('children' in node) expandIncludes(node as Parent, ctx, file, chain);
  }
}

function expandOne(node: GitbookBlock, ctx: RenderContext, file: string, chain: readonly string[]): void {
  const line = node.position?.start.line;
  const target = includeTarget(parseTag(`{% include ${node.args} %}`)!);
  const path = joinPath(dirOf(file), target);
  const markdown = path === undefined ? undefined : ctx.site.includes.get(path);
  if (path === undefined || markdown === undefined) {
    report(ctx, file, line, `include \`${target}\`: the folder has no reusable content ${path ?? target}`);
    return;
  }
  if (chain.includes(path) || chain.length >= MAX_DEPTH) {
    report(ctx, file, line, `include \`${target}\` includes itself (${[...chain, path].join(' → ')})`);
    return;
  }
  const parsed = parseGitbookMarkdown(markdown);
  for (const problem of parsed.problems) report(ctx, path, problem.line, problem.message);
  node.children = parsed.root.children.filter((child) => child.type !== 'yaml');
  node.data = { ...node.data, file: path };
  expandIncludes(node, ctx, path, [...chain, path]);
}
