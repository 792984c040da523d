import { el, text } from '../hast/el.js';
import { attr, childBlocks, type BlockRenderer } from './types.js';

/**
 * `{% tabs %}` of `{% tab title="..." %}`: a row of buttons and one panel per tab, the first
 * shown. The page's script switches panels on click; without it every panel after the first
 * stays hidden, as GitBook shows them.
 */
export const tabs: BlockRenderer = ({ node, render }) => {
  const list = childBlocks(node, 'tab');
  const buttons = list.map((tab, i) =>
    el(
      'button',
      { type: 'button', role: 'tab', className: ['gb-tab-button'], ariaSelected: i === 0 ? 'true' : 'false', dataTab: String(i) },
      [text(attr(tab, 'title') ?? `Tab ${i + 1}`)],
    ),
  );
  const panels = list.map((tab, i) =>
    el('div', { role: 'tabpanel', className: ['gb-tab-panel'], dataTab: String(i), hidden: i !== 0 }, render(tab)),
  );
  return [el('div', { className: ['gb-tabs'] }, [el('div', { role: 'tablist', className: ['gb-tab-list'] }, buttons), ...panels])];
};

/** A tab's content (its tabs block lays it out). */
export const tab: BlockRenderer = ({ children }) => children();
