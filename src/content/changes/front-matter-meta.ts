import { EMOJI_PATTERN, type PageLayout, type PageMeta } from '../../model/index.js';

/** Metadata a markdown document's front matter sets, plus the keys the server does not model. */
export interface FrontMatterMeta {
  meta: Partial<Omit<PageMeta, 'slug'>>;
  /** Keys kept as they are in the stored markdown's front matter (`cover`, `tags`, `vars` ...). */
  rest: Record<string, unknown>;
}

const emoji = new RegExp(EMOJI_PATTERN, 'u');
const show = (value: unknown) => JSON.stringify(value) ?? String(value);

/** GitBook's `layout` front matter: `width`, `cover.{visible,size,mask}`, `<part>.visible`. */
const LAYOUT_FLAGS = [
  'title',
  'description',
  'tableOfContents',
  'outline',
  'pagination',
  'metadata',
  'tags',
  'actions',
  'anchors',
] as const;

function readLayout(value: unknown): PageLayout | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'front matter `layout` must be a mapping';
  const source = value as Record<string, unknown>;
  const layout: PageLayout = {};
  for (const [key, item] of Object.entries(source)) {
    if (key === 'width') {
      if (item !== 'default' && item !== 'wide') return `front matter \`layout.width\` must be default or wide, got ${show(item)}`;
      layout.width = item;
    } else if (key === 'cover') {
      const cover = (item ?? {}) as Record<string, unknown>;
      if (typeof cover !== 'object' || Array.isArray(cover)) return 'front matter `layout.cover` must be a mapping';
      if (cover.visible !== undefined) {
        if (typeof cover.visible !== 'boolean')
          return `front matter \`layout.cover.visible\` must be true or false, got ${show(cover.visible)}`;
        layout.cover = cover.visible;
      }
      if (cover.size !== undefined) {
        if (cover.size !== 'hero' && cover.size !== 'full' && cover.size !== 'background')
          return `front matter \`layout.cover.size\` must be hero, full or background, got ${show(cover.size)}`;
        layout.coverSize = cover.size;
      }
      if (cover.mask !== undefined) {
        if (cover.mask !== 'none' && cover.mask !== 'radial')
          return `front matter \`layout.cover.mask\` must be none or radial, got ${show(cover.mask)}`;
        layout.coverMask = cover.mask;
      }
    } else if ((LAYOUT_FLAGS as readonly string[]).includes(key)) {
      const visible = (item as { visible?: unknown } | null)?.visible;
      if (typeof visible !== 'boolean') return `front matter \`layout.${key}.visible\` must be true or false, got ${show(visible)}`;
      layout[key as (typeof LAYOUT_FLAGS)[number]] = visible;
    } else {
      return `front matter \`layout\` has an unknown field \`${key}\``;
    }
  }
  return layout;
}

/**
 * Page metadata from front matter, with the key names GitBook's Git Sync writes (`if` is the
 * visibility condition). A wrongly typed value is a problem naming the key; unknown keys are
 * returned in `rest` to be kept in the stored markdown.
 */
export function frontMatterMeta(data: Record<string, unknown>): FrontMatterMeta | string {
  const meta: FrontMatterMeta['meta'] = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    switch (key) {
      case 'title':
      case 'description':
      case 'icon':
      case 'emoji':
      case 'if': {
        if (typeof value !== 'string') return `front matter \`${key}\` must be a string, got ${show(value)}`;
        if (key === 'title' && value.trim() === '') return 'front matter `title` must not be empty';
        if ((key === 'icon' || key === 'emoji') && value.length > 50) return `front matter \`${key}\` must be at most 50 characters`;
        if (key === 'emoji' && !emoji.test(value)) return `front matter \`emoji\` must be an emoji, got ${show(value)}`;
        meta[key === 'if' ? 'condition' : key] = value;
        break;
      }
      case 'hidden':
      case 'noIndex':
      case 'noRobotsIndex':
        if (typeof value !== 'boolean') return `front matter \`${key}\` must be true or false, got ${show(value)}`;
        meta[key] = value;
        break;
      case 'layout': {
        const layout = readLayout(value);
        if (typeof layout === 'string') return layout;
        meta.layout = layout;
        break;
      }
      default:
        rest[key] = value;
    }
  }
  return { meta, rest };
}
