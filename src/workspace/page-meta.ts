import type { PageCover, VariableValue } from '../model/index.js';
import type { WorkspaceDocument } from './types.js';
import { isMapping, loadYaml, patchFrontMatter, readGitbookLayout as readLayout, renderLayout, sameYaml } from '../content/index.js';
import { ASSETS, decodePath, isUrl, relativePath, resolvePath } from './paths.js';

/** Page fields that live in front matter. */
export type PageMeta = Pick<
  WorkspaceDocument,
  'emoji' | 'icon' | 'description' | 'hidden' | 'noIndex' | 'noRobotsIndex' | 'layout' | 'cover' | 'variables' | 'condition'
>;

/** Front matter keys in the order they are written: GitBook's keys, then docsync's `emoji`. */
export const KEY_ORDER = [
  'description',
  'icon',
  'emoji',
  'cover',
  'coverY',
  'coverHeight',
  'layout',
  'hidden',
  'noIndex',
  'noRobotsIndex',
  'tags',
  'metaLinks',
  'vars',
  'if',
] as const;

export interface MetaRead {
  meta: PageMeta;
  /** Keys with no page field (and covers whose file is missing), kept as they are. */
  extra: Record<string, unknown>;
  /** Problems as [key, message]; the caller adds file and line. */
  errors: [string, string][];
  /** Asset paths the front matter names that the folder lacks. */
  missing: [string, string][];
}

const show = (value: unknown) => JSON.stringify(value) ?? String(value);
const isValue = (v: unknown): v is VariableValue => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/**
 * Page fields from a page file's front matter. `fileIdOf` maps an asset name to its file id
 * (undefined when the folder has no such asset). Flags written `false` are the default and
 * read as absent, so the page has one form.
 */
export function readPageMeta(data: Record<string, unknown>, file: string, fileIdOf: (name: string) => string | undefined): MetaRead {
  const out: MetaRead = { meta: {}, extra: {}, errors: [], missing: [] };
  const { meta } = out;
  for (const [key, value] of Object.entries(data)) {
    switch (key) {
      case 'description':
      case 'icon':
      case 'emoji':
      case 'if':
        if (typeof value !== 'string') out.errors.push([key, `front matter \`${key}\` must be a string, got ${show(value)}`]);
        else meta[key === 'if' ? 'condition' : key] = value;
        break;
      case 'hidden':
      case 'noIndex':
      case 'noRobotsIndex':
        if (typeof value !== 'boolean') out.errors.push([key, `front matter \`${key}\` must be true or false, got ${show(value)}`]);
        else if (value) meta[key] = true;
        break;
      case 'layout': {
        const layout = readLayout(value);
        if (typeof layout === 'string') out.errors.push([key, layout]);
        else meta.layout = layout;
        break;
      }
      case 'vars':
        if (!isMapping(value) || !Object.values(value).every(isValue)) {
          out.errors.push([key, 'front matter `vars` must map names to strings, numbers or booleans']);
        } else if (Object.keys(value).length > 0) meta.variables = value as Record<string, VariableValue>;
        break;
      case 'cover':
      case 'coverY':
      case 'coverHeight':
        break;
      default:
        out.extra[key] = value;
    }
  }
  readCover(data, file, fileIdOf, out);
  return out;
}

function readCover(data: Record<string, unknown>, file: string, fileIdOf: (name: string) => string | undefined, out: MetaRead) {
  const { cover, coverY, coverHeight } = data;
  const keep = () => {
    for (const key of ['cover', 'coverY', 'coverHeight'] as const) if (key in data) out.extra[key] = data[key];
  };
  if (cover === undefined) return keep();
  if (typeof cover !== 'string') return out.errors.push(['cover', `front matter \`cover\` must be a path or URL, got ${show(cover)}`]);
  for (const [key, value] of [
    ['coverY', coverY],
    ['coverHeight', coverHeight],
  ] as const) {
    if (value !== undefined && typeof value !== 'number')
      return out.errors.push([key, `front matter \`${key}\` must be a number, got ${show(value)}`]);
  }
  let ref: PageCover['ref'];
  if (isUrl(cover)) ref = { kind: 'url', url: cover };
  else {
    const path = resolvePath(file, decodePath(cover));
    const id = path?.startsWith(ASSETS) ? fileIdOf(path.slice(ASSETS.length)) : undefined;
    // A cover whose file is not in the folder stays as written: reported, never dropped.
    if (id === undefined) return (keep(), out.missing.push(['cover', path ?? cover]));
    ref = { kind: 'file', file: id };
  }
  const value: PageCover = { ref };
  if (typeof coverY === 'number') value.yPos = coverY;
  if (typeof coverHeight === 'number') value.height = coverHeight;
  out.meta.cover = value;
}

/**
 * The front matter of a page file: its fields under GitBook's keys merged with `extra` (the
 * keys of the page markdown's own front matter), known keys in `KEY_ORDER`, then the others
 * in their order. `assetName` names the file a cover points at.
 */
export function renderPageMeta(
  page: PageMeta,
  extra: Record<string, unknown>,
  file: string,
  assetName: (id: string) => string | undefined,
): Record<string, unknown> {
  const keys: Record<string, unknown> = { ...extra };
  if (page.description !== undefined) keys.description = page.description;
  if (page.icon !== undefined) keys.icon = page.icon;
  if (page.emoji !== undefined) keys.emoji = page.emoji;
  const ref = page.cover?.ref;
  if (ref) {
    const name = ref.kind === 'file' ? assetName(ref.file) : undefined;
    const target = ref.kind === 'url' ? ref.url : name === undefined ? undefined : relativePath(file, ASSETS + name);
    if (target !== undefined) {
      keys.cover = target;
      if (page.cover?.yPos !== undefined) keys.coverY = page.cover.yPos;
      if (page.cover?.height !== undefined) keys.coverHeight = page.cover.height;
    }
  }
  const layout = page.layout ? renderLayout(page.layout) : undefined;
  if (layout) keys.layout = layout;
  for (const flag of ['hidden', 'noIndex', 'noRobotsIndex'] as const) if (page[flag]) keys[flag] = true;
  if (page.variables && Object.keys(page.variables).length > 0) keys.vars = page.variables;
  if (page.condition !== undefined) keys.if = page.condition;
  const ordered: Record<string, unknown> = {};
  for (const key of KEY_ORDER) if (key in keys) ordered[key] = keys[key];
  for (const [key, value] of Object.entries(keys)) if (!(key in ordered)) ordered[key] = value;
  return ordered;
}

/**
 * The YAML of a page file's front matter holding `want` (what `renderPageMeta` gives for the
 * page), written over the block as the file had it (`yaml`, kept in the page's `frontMatter`):
 * a key that reads as the same field value keeps its text as written (quoting, folding,
 * comments, order, a `hidden: false` the page does not record); a changed one is rewritten in
 * place, a cleared one removed, a new one added at the end.
 */
export function writtenFrontMatter(yaml: string, want: Record<string, unknown>, file: string): string {
  const read = loadYaml(yaml);
  if (!read.ok || !isMapping(read.value ?? {})) return patchFrontMatter(yaml, want);
  const was = (read.value ?? {}) as Record<string, unknown>;
  // What the block stands for, in the form `want` has (a cover named by its asset, whatever it is).
  const asRead = readPageMeta(was, file, (name) => `\u0000${name}`);
  const known = renderPageMeta(asRead.meta, asRead.extra, file, (id) => (id.startsWith('\u0000') ? id.slice(1) : undefined));
  return patchFrontMatter(
    yaml,
    want,
    was,
    (key) => sameYaml(known[key], want[key]) || (known[key] === '' && EMPTY_IS_NONE.has(key) && !(key in want)),
  );
}

/**
 * Keys whose empty value the platform stores as no value (`""` clears the field): a written
 * `description: ''` is the page's absent description, kept as written rather than removed.
 */
const EMPTY_IS_NONE = new Set(['description', 'icon', 'emoji', 'if']);
