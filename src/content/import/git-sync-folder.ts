import type { List, ListItem, RootContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { readFrontMatter } from '../markdown/front-matter.js';
import { parseMarkdown } from '../markdown/processor.js';
import { INCLUDES_DIR } from '../tree/include-names.js';
import { joinPath } from '../tree/paths.js';
import type { ImportedInclude, ImportedPage } from './types.js';

/**
 * The pages of a GitBook Git Sync folder, given its markdown files by path (`/`-separated,
 * relative to the folder root). SUMMARY.md, when present, decides the pages, their order and
 * nesting: `## Heading` opens a group, `* [Title](path.md)` items nest by indentation, an item
 * pointing at a URL is a link page, and a file it does not list is not a page. Without it, every
 * markdown file outside `.gitbook/` is a page, sorted by path, `README.md` first, and a folder's
 * `README.md` is the parent of the folder's other pages.
 */
export function folderPages(files: ReadonlyMap<string, string>): ImportedPage[] {
  const summary = files.get('SUMMARY.md');
  return summary === undefined ? pagesByPath(files) : pagesFromSummary(summary, files);
}

/**
 * The reusable contents of a Git Sync folder: each `.gitbook/includes/<name>.md` (directly in
 * that folder), titled by its front matter `title`, else by its name; the body is what follows
 * the front matter. Sorted by name, as the workspace reads them. A front matter that is not YAML
 * leaves the whole file as the body, so nothing of it is lost.
 */
export function folderIncludes(files: ReadonlyMap<string, string>): ImportedInclude[] {
  const prefix = `${INCLUDES_DIR}/`;
  return [...files.keys()]
    .filter((path) => path.startsWith(prefix) && /\.md$/i.test(path) && !path.slice(prefix.length).includes('/'))
    .sort()
    .map((path) => {
      const name = path.slice(prefix.length);
      const text = files.get(path)!;
      const split = readFrontMatter(text.replace(/^\uFEFF/, ''));
      const title =
        split.ok && typeof split.value.data.title === 'string' && split.value.data.title.trim() !== ''
          ? split.value.data.title
          : titleFromName(name.replace(/\.md$/i, ''));
      return { source: path, name, title, markdown: split.ok ? split.value.body : text };
    });
}

const isUrl = (href: string) => /^[a-z][a-z0-9+.-]*:/i.test(href);

/** `guides/install.md` → `install`; `guides/README.md` → `guides`; the root README → undefined. */
function slugOf(path: string): string | undefined {
  const parts = path.split('/');
  const name = parts.at(-1) ?? '';
  if (/^readme\.md$/i.test(name)) return parts.at(-2);
  return name.replace(/\.md$/i, '');
}

/** `getting-started` → `Getting started`. */
function titleFromName(name: string): string {
  const words = name.replace(/[-_]+/g, ' ').trim();
  return words === '' ? 'Untitled' : words[0]!.toUpperCase() + words.slice(1);
}

function documentPage(path: string, files: ReadonlyMap<string, string>, title?: string): ImportedPage {
  const slug = slugOf(path);
  const fallback = title ?? titleFromName(slug ?? 'Introduction');
  const markdown = files.get(path) ?? '';
  const page: ImportedPage = { source: path, path, kind: 'document', title: fallback, markdown, pages: [] };
  return slug === undefined ? page : { ...page, slug };
}

/** A group's slug: the first folder of its first page file in a folder (Git Sync's layout). */
function groupFolder(pages: readonly ImportedPage[]): string | undefined {
  for (const page of pages) {
    if (page.kind === 'document' && page.source.includes('/')) return page.source.split('/')[0];
    const inner = groupFolder(page.pages);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/**
 * With SUMMARY.md the folder is GitBook's own (or written to its rules), so file and folder
 * names are the slugs GitBook gave: they are kept as given (`detox-+-jest`), not slugified.
 */
function pagesFromSummary(summary: string, files: ReadonlyMap<string, string>): ImportedPage[] {
  const top: ImportedPage[] = [];
  let target = top;
  const seen = new Set<string>();
  const item = (node: ListItem): ImportedPage[] => {
    const para = node.children.find((c) => c.type === 'paragraph');
    const link = para?.type === 'paragraph' ? para.children.find((c) => c.type === 'link') : undefined;
    const nested = node.children.filter((c): c is List => c.type === 'list').flatMap((l) => l.children.flatMap(item));
    if (!link || link.type !== 'link') return nested;
    const title = toString(link).trim() || 'Untitled';
    if (isUrl(link.url)) return [{ source: link.url, kind: 'link', title, href: link.url, pages: [] }];
    const path = normalisePath(link.url);
    if (path === undefined || seen.has(path)) return nested;
    seen.add(path);
    const page: ImportedPage = { ...documentPage(path, files, title), keepSlug: true, pages: nested };
    return [link.title ? { ...page, linkTitle: link.title } : page];
  };
  for (const node of parseMarkdown(summary).children as RootContent[]) {
    if (node.type === 'heading' && node.depth >= 2) {
      const title = toString(node).trim() || 'Group';
      const group: ImportedPage = { source: `SUMMARY.md: ${title}`, kind: 'group', title, pages: [] };
      top.push(group);
      target = group.pages;
    } else if (node.type === 'list') {
      target.push(...node.children.flatMap(item));
    }
  }
  return top.map((page) => {
    const folder = page.kind === 'group' ? groupFolder(page.pages) : undefined;
    return folder === undefined ? page : { ...page, slug: folder, keepSlug: true };
  });
}

/** A SUMMARY link as a folder path, or undefined when it leaves the folder. */
function normalisePath(href: string): string | undefined {
  let path = href.split('#')[0]!.split('?')[0]!;
  try {
    path = decodeURIComponent(path);
  } catch {
    // Not percent-encoded text: take it as written.
  }
  const joined = joinPath('', path);
  return joined === '' ? undefined : joined;
}

interface Dir {
  files: string[];
  dirs: Map<string, Dir>;
}

function pagesByPath(files: ReadonlyMap<string, string>): ImportedPage[] {
  const root: Dir = { files: [], dirs: new Map() };
  for (const path of [...files.keys()].sort()) {
    if (!/\.md$/i.test(path) || path.startsWith('.gitbook/') || path === 'SUMMARY.md') continue;
    const parts = path.split('/');
    let dir = root;
    for (const part of parts.slice(0, -1)) {
      let next = dir.dirs.get(part);
      if (!next) dir.dirs.set(part, (next = { files: [], dirs: new Map() }));
      dir = next;
    }
    dir.files.push(path);
  }
  const readme = (dir: Dir) => dir.files.find((f) => /(^|\/)readme\.md$/i.test(f));
  const pagesOf = (dir: Dir): ImportedPage[] => {
    const entries: [string, () => ImportedPage[]][] = [];
    for (const file of dir.files) {
      if (file !== readme(dir)) entries.push([file.split('/').at(-1)!, () => [documentPage(file, files)]]);
    }
    for (const [name, sub] of dir.dirs) {
      const index = readme(sub);
      entries.push([name, () => (index ? [{ ...documentPage(index, files), pages: pagesOf(sub) }] : pagesOf(sub))]);
    }
    return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).flatMap(([, make]) => make());
  };
  const top = readme(root);
  return [...(top ? [documentPage(top, files)] : []), ...pagesOf(root)];
}
