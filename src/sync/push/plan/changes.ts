import { DEFAULT_PAGE_LAYOUT, type ContentChange, type InsertFileItem, type PageLayout } from '../../../model/index.js';
import { classifyLink, extractLinks } from '../../../content/index.js';
import {
  isMapping,
  joinMarkdown,
  loadYaml,
  renderFrontMatter,
  renderPageMeta,
  splitMarkdown,
  type WorkspaceDocument,
  type WorkspaceFile,
  type WorkspacePage,
} from '../../../workspace/index.js';
import { slugOf } from './simulate.js';

/** What one page or file operation of a push carries: fields, documents, files. */

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Fields the batch sets directly, and what clears each when the local page dropped it. */
const CLEARABLE = ['emoji', 'icon', 'description', 'condition', 'linkTitle'] as const;
const FLAGS = ['hidden', 'noIndex', 'noRobotsIndex'] as const;

/** Front-matter-only fields: changing one means sending the document (with its front matter). */
export function documentChanged(remote: WorkspacePage, local: WorkspacePage): boolean {
  if (remote.type !== 'document' || local.type !== 'document') return false;
  return (
    remote.markdown !== local.markdown ||
    !same(remote.layout, local.layout) ||
    !same(remote.cover, local.cover) ||
    !same(remote.variables, local.variables)
  );
}

/**
 * What changed in a page's own fields (not its place), as update_page fields. `slugNow` is the
 * slug the page holds when its turn comes, which is not the remote one if it was moved aside.
 */
export function fieldChanges(remote: WorkspacePage, local: WorkspacePage, slugNow: string): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (remote.title !== local.title) fields.title = local.title;
  if (slugNow !== slugOf(local) && local.type !== 'link' && local.type !== 'computed') fields.slug = slugOf(local);
  if (remote.type === 'link' && local.type === 'link' && remote.href !== local.href) fields.href = local.href;
  if (remote.type === 'computed' && local.type === 'computed' && !same(computedSource(remote.source), computedSource(local.source)))
    fields.computed = computedSource(local.source);
  if (remote.type === 'document' && local.type === 'document') {
    // The file the page is kept at, when the path rules would put it elsewhere (see writeFolder).
    if (remote.path !== local.path) fields.gitPath = local.path ?? null;
    // The front matter as written (extension `front-matter`); its values travel in the document.
    if ((remote.frontMatter ?? '') !== (local.frontMatter ?? '')) fields.frontMatter = local.frontMatter ?? null;
    // Whether the file opens with its title heading (extension `title-heading`).
    if ((remote.titleHeading ?? true) !== (local.titleHeading ?? true)) fields.titleHeading = local.titleHeading ?? true;
    // An empty value is no value on the platform (a front matter `description: ''` as written).
    for (const key of CLEARABLE) if ((remote[key] ?? '') !== (local[key] ?? '')) fields[key] = local[key] ?? '';
    for (const flag of FLAGS) if ((remote[flag] ?? false) !== (local[flag] ?? false)) fields[flag] = local[flag] ?? false;
  }
  return fields;
}

/**
 * The document sent for a page: its front matter (GitBook's keys, the title first so a leading
 * `# heading` in the body stays content) and its body. Layout options the remote page set and
 * the local one drops are written out as their defaults, since the server merges layouts key by
 * key; options neither side set are left out, so a page is sent only the options it uses.
 */
export function pageDocument(
  page: WorkspaceDocument,
  remote: WorkspaceDocument | undefined,
  path: string,
  files: readonly WorkspaceFile[],
): string {
  const { extra, body } = splitMarkdown(page.markdown);
  const dropped = (Object.keys(remote?.layout ?? {}) as (keyof PageLayout)[]).filter((key) => page.layout?.[key] === undefined);
  const layout =
    dropped.length === 0 ? page.layout : { ...Object.fromEntries(dropped.map((key) => [key, DEFAULT_PAGE_LAYOUT[key]])), ...page.layout };
  const names = new Map(files.map((f) => [f.id, f.name]));
  const meta = renderPageMeta({ ...page, ...(layout ? { layout } : {}) }, extra, path, (id) => names.get(id));
  return renderFrontMatter({ title: page.title, ...meta }) + body;
}

/**
 * True when the markdown links to a page or file by path: the server resolves such a link against
 * the tree as it is when the change is applied, and writes it relative to the tree at the end of
 * that batch, so the document must be sent once the tree is final.
 */
export function linksByPath(markdown: string): boolean {
  if (!markdown.includes('](') && !markdown.includes(']:') && !/\b(?:href|src)\s*=/i.test(markdown)) return false;
  return extractLinks(markdown).some((link) => {
    const type = classifyLink(link.url.trim()).type;
    return type === 'relative' || type === 'absolute-path';
  });
}

/** The page with its body left out (front matter kept): what is inserted before its links can resolve. */
export function withoutBody(page: WorkspaceDocument): WorkspaceDocument {
  return { ...page, markdown: joinMarkdown(splitMarkdown(page.markdown).extra, '') };
}

/**
 * A computed page's source as the batch takes it: the block's YAML as data, keys in the order
 * written (JSON keeps it). A block that is not a YAML mapping with a `type` is sent as
 * `{type: ""}`, which the server refuses, naming the change.
 */
export function computedSource(yaml: string): { type: string } & Record<string, unknown> {
  const read = loadYaml(yaml);
  return read.ok && isMapping(read.value) && typeof read.value.type === 'string' ? (read.value as { type: string }) : { type: '' };
}

/** The insert_page of a new page of any type; `into` is a page id or, for a new parent, its local id. */
export function insertChange(
  page: WorkspacePage,
  place: { into?: string; at: number; ref: string },
  path: string,
  files: readonly WorkspaceFile[],
): ContentChange {
  if (page.type === 'group') return { operation: 'insert_page', type: 'group', title: page.title, slug: page.slug, document: {}, ...place };
  if (page.type === 'link') return { operation: 'insert_page', type: 'link', title: page.title, href: page.href, document: {}, ...place };
  if (page.type === 'computed')
    return { operation: 'insert_page', type: 'computed', title: page.title, computed: computedSource(page.source), document: {}, ...place };
  return {
    operation: 'insert_page',
    title: page.title,
    slug: page.slug,
    ...(page.linkTitle !== undefined ? { linkTitle: page.linkTitle } : {}),
    ...(page.path !== undefined ? { gitPath: page.path } : {}),
    ...(page.frontMatter !== undefined ? { frontMatter: page.frontMatter } : {}),
    ...(page.titleHeading === false ? { titleHeading: false } : {}),
    document: { markdown: pageDocument(page, undefined, path, files) },
    ...place,
  };
}

/** Files to upload (new, or other bytes under a known name) and remote files the API cannot delete. */
export function fileChanges(
  remote: readonly WorkspaceFile[],
  local: readonly WorkspaceFile[],
): { items: InsertFileItem[]; undeletable: string[] } {
  const remoteByName = new Map(remote.map((f) => [f.name, f]));
  const localNames = new Set(local.map((f) => f.name));
  const items: InsertFileItem[] = [];
  for (const file of local) {
    const before = remoteByName.get(file.name);
    if (file.bytes === undefined) continue;
    if (before?.bytes !== undefined && Buffer.from(before.bytes).equals(Buffer.from(file.bytes))) continue;
    items.push({ name: file.name, contentType: file.contentType, base64: Buffer.from(file.bytes).toString('base64') });
  }
  return { items, undeletable: remote.filter((f) => !localNames.has(f.name)).map((f) => f.name) };
}
