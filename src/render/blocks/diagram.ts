import type { Element } from 'hast';
import { el, text } from '../hast/el.js';
import { attr, type BlockRenderer } from './types.js';

/**
 * A Mermaid diagram (a ```` ```mermaid ```` fence, or the older `{% @mermaid/diagram %}` block,
 * which the parser turns into one): a diagram block holding its source. Nothing draws it: no
 * Mermaid library is a dependency, and pages run no script of their own (docs/preview.md).
 */
export function mermaidDiagram(source: string): Element {
  return el('figure', { className: ['gb-diagram', 'gb-mermaid'] }, [
    el('figcaption', { className: ['gb-diagram-label'] }, [text('Mermaid diagram')]),
    el('pre', { className: ['gb-diagram-source'] }, [el('code', {}, [text(source)])]),
  ]);
}

/**
 * Another integration's block (`{% @figma/embed url="..." %}`): GitBook draws it with the
 * integration's own code, which is not at hand offline, so a card naming it (and its URL, if any).
 */
export const integration: BlockRenderer = ({ node }) => {
  const owner = node.name.slice(1, node.name.indexOf('/'));
  const url = attr(node, 'url');
  const children = [
    el('span', { className: ['gb-card-title'] }, [text(`Integration block ${node.name}`)]),
    el('span', { className: ['gb-card-url'] }, [text(url ?? `drawn by the ${owner} integration on GitBook`)]),
  ];
  return [
    url === undefined
      ? el('div', { className: ['gb-card', 'gb-integration'] }, children)
      : el('a', { className: ['gb-card', 'gb-integration'], href: url, rel: ['noopener', 'noreferrer'] }, children),
  ];
};
