import { evaluateCondition, parseCondition } from '../../content/index.js';
import { report } from '../context.js';
import { el, text } from '../hast/el.js';
import { childBlocks, type BlockRenderer } from './types.js';

/**
 * `{% if visitor.claims... %}` with `{% elif %}` and `{% else %}` branches. Published, the first
 * branch the visitor's claims meet; in preview, every branch, each marked with its condition.
 */
export const condition: BlockRenderer = ({ node, render, ctx }) => {
  const branches = childBlocks(node, 'if-branch');
  if (ctx.options.mode === 'preview') {
    return branches.map((branch) =>
      el('div', { className: ['gb-condition'] }, [
        el('div', { className: ['gb-condition-label'] }, [text(branch.args === '' ? 'Otherwise' : `Shown when ${branch.args}`)]),
        ...render(branch),
      ]),
    );
  }
  for (const branch of branches) {
    if (branch.args === '') return render(branch);
    try {
      if (evaluateCondition(parseCondition(branch.args), { visitor: { claims: ctx.options.claims ?? {} } })) return render(branch);
    } catch (error) {
      report(ctx, ctx.file, node.position?.start.line, `condition \`${branch.args}\`: ${(error as Error).message}`);
    }
  }
  return [];
};

export const branch: BlockRenderer = ({ children }) => children();
