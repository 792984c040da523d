import { el } from '../hast/el.js';
import { attr, type BlockRenderer } from './types.js';

export const HINT_STYLES = ['info', 'success', 'warning', 'danger'] as const;

/** `{% hint style="info|success|warning|danger" icon="..." %}`: a call-out with its style's icon. */
export const hint: BlockRenderer = ({ node, children }) => {
  const given = attr(node, 'style') ?? 'info';
  const style = (HINT_STYLES as readonly string[]).includes(given) ? given : 'info';
  const icon = attr(node, 'icon');
  return [
    el('div', { className: ['gb-hint', `gb-hint-${style}`], role: 'note', ...(icon ? { dataIcon: icon } : {}) }, [
      el('span', { className: ['gb-hint-icon'], ariaHidden: 'true' }),
      el('div', { className: ['gb-hint-body'] }, children()),
    ]),
  ];
};
