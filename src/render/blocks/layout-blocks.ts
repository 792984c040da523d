import { el, text } from '../hast/el.js';
import { attr, childBlocks, type BlockRenderer } from './types.js';

/** `{% stepper %}` of `{% step %}`: numbered steps. */
export const stepper: BlockRenderer = ({ node, render }) => [
  el(
    'ol',
    { className: ['gb-stepper'] },
    childBlocks(node, 'step').map((step, i) =>
      el('li', { className: ['gb-step'] }, [
        el('span', { className: ['gb-step-number'], ariaHidden: 'true' }, [text(String(i + 1))]),
        el('div', { className: ['gb-step-body'] }, render(step)),
      ]),
    ),
  ),
];

export const step: BlockRenderer = ({ children }) => children();

/** `{% columns %}` of `{% column width="50%" %}`: side by side, stacked on a phone. */
export const columns: BlockRenderer = ({ node, render }) => [
  el(
    'div',
    { className: ['gb-columns'] },
    childBlocks(node, 'column').map((column) => {
      const width = /^(\d{1,3})(?:\.\d+)?%$/.exec(attr(column, 'width') ?? '')?.[1];
      return el(
        'div',
        { className: ['gb-column', ...(width ? [`gb-w-${Math.min(100, Math.round(Number(width) / 5) * 5)}`] : [])] },
        render(column),
      );
    }),
  ),
];

export const column: BlockRenderer = ({ children }) => children();

/** `{% include %}`: its content was put in place before rendering (mdast/includes.ts). */
export const include: BlockRenderer = ({ children }) => children();
