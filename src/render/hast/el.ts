import type { Element, ElementContent, Properties } from 'hast';

/** A hast element: `el('div', { className: ['gb-hint'] }, children)`. */
export function el(tagName: string, properties: Properties = {}, children: ElementContent[] = []): Element {
  return { type: 'element', tagName, properties, children };
}

export function text(value: string): ElementContent {
  return { type: 'text', value };
}

/** The class names of an element, as a list. */
export function classesOf(node: Element): string[] {
  const value = node.properties.className;
  return Array.isArray(value) ? value.map(String) : typeof value === 'string' ? String(value).split(/\s+/).filter(Boolean) : [];
}
