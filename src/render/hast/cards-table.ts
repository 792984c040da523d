import type { Element, ElementContent, Root } from 'hast';
import { visit } from 'unist-util-visit';
import { el } from './el.js';
import { textOf } from './text-of.js';

const childElements = (node: Element, tagName: string) =>
  node.children.filter((c): c is Element => c.type === 'element' && c.tagName === tagName);
const firstUrl = (node: Element | undefined): string | undefined => {
  let url: string | undefined;
  if (node === undefined) return undefined;
  visit(node, 'element', (child) => {
    const value = child.properties.href ?? child.properties.src;
    if (url === undefined && typeof value === 'string') url = value;
  });
  return url;
};

/**
 * `<table data-view="cards">`, as GitBook writes a cards block: one card per row. The header
 * cells say which column is the card's target (`data-card-target`), cover (`data-card-cover`)
 * and which are hidden (`data-hidden`); the others are the card's text. The card links to its
 * target through a link laid over it, so links inside its text still work.
 */
export function cardsTables(root: Root): void {
  visit(root, 'element', (node, index, parent) => {
    if (node.tagName !== 'table' || node.properties.dataView !== 'cards' || parent === undefined || index === undefined) return;
    const head = childElements(node, 'thead')[0];
    const headers = head ? childElements(childElements(head, 'tr')[0] ?? el('tr'), 'th') : [];
    const body = childElements(node, 'tbody')[0] ?? node;
    const cards = childElements(body, 'tr').map((row) => card(row, headers));
    parent.children[index] = el(
      'div',
      { className: ['gb-cards', ...(node.properties.dataCardSize === 'large' ? ['gb-cards-large'] : [])] },
      cards,
    );
  });
}

function card(row: Element, headers: Element[]): Element {
  const cells = childElements(row, 'td');
  const cellFor = (flag: string) => cells[headers.findIndex((th) => th.properties[flag] !== undefined && th.properties[flag] !== false)];
  const target = firstUrl(cellFor('dataCardTarget'));
  const cover = firstUrl(cellFor('dataCardCover'));
  const shown = cells.filter(
    (_, i) => headers[i] === undefined || headers[i]!.properties.dataHidden === undefined || headers[i]!.properties.dataHidden === false,
  );
  const children: ElementContent[] = [
    ...(cover ? [el('img', { className: ['gb-card-cover'], src: cover, alt: '' })] : []),
    ...shown.map((cell) => el('div', { className: ['gb-card-text'] }, cell.children)),
  ];
  if (target)
    children.push(el('a', { className: ['gb-card-link'], href: target, ariaLabel: textOf(shown[0] ?? el('span')).trim() || target }));
  return el('div', { className: ['gb-card', 'gb-cards-card'] }, children);
}
