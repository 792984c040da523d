import type { PageLayout } from '../../model/index.js';
import { isMapping } from './yaml.js';

/** The parts GitBook's `layout` front matter shows or hides, in the order it writes them. */
const FLAGS = ['title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata', 'tags', 'actions', 'anchors'] as const;
const show = (value: unknown) => JSON.stringify(value) ?? String(value);

/**
 * GitBook's `layout` block as page layout options: `width`, `cover.{visible,size,mask}` and
 * `<part>.visible`. A wrong value is a message naming the key.
 */
export function readLayout(value: unknown): PageLayout | string {
  if (!isMapping(value)) return 'front matter `layout` must be a mapping';
  const layout: PageLayout = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === 'width') {
      if (item !== 'default' && item !== 'wide') return `front matter \`layout.width\` must be default or wide, got ${show(item)}`;
      layout.width = item;
    } else if (key === 'cover') {
      if (!isMapping(item)) return 'front matter `layout.cover` must be a mapping';
      for (const [part, v] of Object.entries(item)) {
        if (part === 'visible' && typeof v === 'boolean') layout.cover = v;
        else if (part === 'size' && (v === 'hero' || v === 'full' || v === 'background')) layout.coverSize = v;
        else if (part === 'mask' && (v === 'none' || v === 'radial')) layout.coverMask = v;
        else return `front matter \`layout.cover.${part}\` has a wrong value ${show(v)}`;
      }
    } else if ((FLAGS as readonly string[]).includes(key)) {
      const visible = isMapping(item) ? item.visible : undefined;
      if (typeof visible !== 'boolean' || Object.keys(item as object).length !== 1) {
        return `front matter \`layout.${key}\` must be \`visible: true\` or \`visible: false\`, got ${show(item)}`;
      }
      layout[key as (typeof FLAGS)[number]] = visible;
    } else {
      return `front matter \`layout\` has an unknown field \`${key}\``;
    }
  }
  return layout;
}

/** The `layout` block for page layout options, keys in GitBook's order; undefined when empty. */
export function renderLayout(layout: PageLayout): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  if (layout.width !== undefined) out.width = layout.width;
  const cover: Record<string, unknown> = {};
  if (layout.cover !== undefined) cover.visible = layout.cover;
  if (layout.coverSize !== undefined) cover.size = layout.coverSize;
  if (layout.coverMask !== undefined) cover.mask = layout.coverMask;
  if (Object.keys(cover).length > 0) out.cover = cover;
  for (const flag of FLAGS) if (layout[flag] !== undefined) out[flag] = { visible: layout[flag] };
  return Object.keys(out).length === 0 ? undefined : out;
}
