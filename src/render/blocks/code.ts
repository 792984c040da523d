import type { Element, ElementContent } from 'hast';
import { el, text } from '../hast/el.js';
import { attr, flag, type BlockRenderer } from './types.js';

/**
 * `{% code title="app.js" overflow="wrap" lineNumbers="true" %}` around a fenced code block: the
 * title above it, lines wrapped instead of scrolled, a gutter of line numbers.
 */
export const code: BlockRenderer = ({ node, children }) => {
  const title = attr(node, 'title');
  const wrap = attr(node, 'overflow') === 'wrap';
  const numbers = flag(node, 'lineNumbers');
  const inner = children();
  const lines = node.children.find((child) => child.type === 'code')?.value.split('\n').length ?? 0;
  const body = numbers ? inner.map((child) => (isPre(child) ? withGutter(child, lines) : child)) : inner;
  const className = ['gb-code', ...(wrap ? ['gb-code-wrap'] : []), ...(numbers ? ['gb-code-numbers'] : [])];
  return [el('figure', { className }, [...(title ? [el('figcaption', { className: ['gb-code-title'] }, [text(title)])] : []), ...body])];
};

const isPre = (node: ElementContent): node is Element => node.type === 'element' && node.tagName === 'pre';

function withGutter(pre: Element, lines: number): Element {
  const gutter = el('span', { className: ['gb-line-numbers'], ariaHidden: 'true' }, [
    text(Array.from({ length: lines }, (_, i) => String(i + 1)).join('\n')),
  ]);
  return { ...pre, children: [gutter, ...pre.children] };
}
