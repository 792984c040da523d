import { report } from '../context.js';
import { el, text } from '../hast/el.js';
import type { BlockRenderer } from './types.js';

/** A tag GitBook does not define: a visible warning in preview, left out when published. */
export const unknown: BlockRenderer = ({ node, ctx, children }) => {
  const line = node.position?.start.line;
  report(ctx, ctx.file, line, `unknown block \`{% ${node.name} %}\`: GitBook does not render it, and a published page leaves it out`);
  if (ctx.options.mode === 'published') return [];
  return [
    el('div', { className: ['gb-unknown'], role: 'note' }, [el('strong', {}, [text(`Unknown block {% ${node.name} %}`)]), ...children()]),
  ];
};
