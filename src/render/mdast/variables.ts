import type { Parent, RootContent } from 'mdast';
import { report, type RenderContext } from '../context.js';

const VARIABLE = /\{\{\s*(space|page)\.vars\.([A-Za-z_][\w-]*)\s*\}\}/g;

/**
 * Writes the values of `{{ space.vars.name }}` and `{{ page.vars.name }}` into the page's text
 * (not into code: a code sample shows the expression). Other `{{ ... }}` are not GitBook
 * variables (GitHub Actions expressions in prose, say) and stay as written; an unknown variable
 * stays too, and is a problem.
 */
export function substituteVariables(parent: Parent, ctx: RenderContext, file: string): void {
  for (const node of parent.children as RootContent[]) {
    const nodeFile = node.type === 'gitbookBlock' && typeof node.data?.file === 'string' ? node.data.file : file;
    if (node.type === 'text') {
      node.value = node.value.replace(VARIABLE, (whole, scope: string, name: string) => {
        const vars = scope === 'space' ? ctx.site.variables : (ctx.page.variables ?? {});
        const value = Object.hasOwn(vars, name) ? vars[name] : undefined;
        if (value === undefined) {
          report(ctx, nodeFile, node.position?.start.line, `${scope} variable \`${name}\` is not defined`);
          return whole;
        }
        return String(value);
      });
    } else if ('children' in node) substituteVariables(node as Parent, ctx, nodeFile);
  }
}
