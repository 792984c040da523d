import type { Root } from 'hast';
import { visit } from 'unist-util-visit';
import { classesOf, el } from './el.js';

/** GitBook's colour names (and `$primary`-style theme colours) a mark may carry. */
const COLOUR = /^\$?([a-z]+)$/;

/**
 * GitBook's inline HTML, turned into markup the sanitiser keeps and the style sheet draws:
 * `<mark style="color:red;">` (text and background colours) to `gb-color-red` / `gb-bg-red`,
 * `<i class="fa-box">:box:</i>` icons to `gb-icon`, `<a class="button primary">` to `gb-button`.
 */
export function inlineHtml(root: Root): void {
  visit(root, 'element', (node, index, parent) => {
    if (node.tagName === 'mark') {
      const classes: string[] = [];
      for (const rule of String(node.properties.style ?? '').split(';')) {
        const [key, value] = rule.split(':').map((s) => s.trim().toLowerCase());
        const colour = COLOUR.exec(value ?? '')?.[1];
        if (colour === undefined) continue;
        if (key === 'color') classes.push(`gb-color-${colour}`);
        if (key === 'background-color') classes.push(`gb-bg-${colour}`);
      }
      node.properties = classes.length > 0 ? { className: classes } : {};
    } else if (node.tagName === 'i' && parent !== undefined && index !== undefined) {
      const icon = classesOf(node).find((c) => c.startsWith('fa-'));
      if (icon !== undefined)
        parent.children[index] = el('span', { className: ['gb-icon'], title: icon.slice(3), role: 'img', ariaLabel: icon.slice(3) });
    } else if (node.tagName === 'a') {
      const classes = classesOf(node);
      if (classes.includes('button'))
        node.properties.className = ['gb-button', classes.includes('secondary') ? 'gb-button-secondary' : 'gb-button-primary'];
    }
  });
}
