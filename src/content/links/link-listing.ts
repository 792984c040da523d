import { assertNever, type ContentTree, type LinkStatus } from '../../model/index.js';
import { walkPages } from '../tree/page-tree.js';
import { indexRevision } from './revision-index.js';
import { resolveLink, resolveRef, type LinkResolution, type LinkTargetRef, type ResolveContext } from './resolve-link.js';
import type { StoredRef } from './stored-ref.js';

/** A link of a page's document: a URL as written, or a stored reference to a page or file. */
export type DocumentLink = string | StoredRef;

/** One target and every page linking to it. */
export interface LinkEntry {
  key: string;
  status: LinkStatus;
  target: LinkTargetRef;
  /** Ids of the pages whose content links to the target, in document order, each once. */
  sources: string[];
}

/** The links of a reusable content a page embeds, with the include file they are written in. */
export interface IncludedLinks {
  gitPath: string;
  links: readonly DocumentLink[];
}

export interface LinkSources {
  /** The links of a page's document in document order, or undefined when it has no document. */
  links: (pageId: string) => readonly DocumentLink[] | undefined;
  /** The links of the reusable contents a page embeds, in document order: they are the page's links too. */
  includes?: (pageId: string) => readonly IncludedLinks[];
  anchors: (pageId: string) => ReadonlySet<string> | undefined;
  appPrefixes: readonly string[];
}

/**
 * A stable identity for a target: links to the same target are listed as one entry. A reference
 * to something gone keeps its target's id, so links to it from pages whose last known path was
 * written differently are still one entry.
 */
export function linkKey(link: DocumentLink, resolution: LinkResolution): string {
  if (typeof link === 'string' || resolution.status !== 'broken' || resolution.target.kind !== 'url') return targetKey(resolution.target);
  return link.kind === 'file' ? `file:${link.id}` : `page:${link.id}${link.anchor === undefined ? '' : `#${link.anchor}`}`;
}

export function targetKey(target: LinkTargetRef): string {
  switch (target.kind) {
    case 'page':
      return target.anchor === undefined ? `page:${target.page}` : `page:${target.page}#${target.anchor}`;
    case 'file':
      return `file:${target.file}`;
    case 'url':
      return `url:${target.url}`;
    default:
      return assertNever(target, 'target');
  }
}

/**
 * Every link of a revision's pages (or of the pages in `only`), resolved and grouped by target.
 * Entries come in the order their target is first linked in document order; empty URLs are
 * not links.
 */
export function listLinks(tree: ContentTree, sources: LinkSources, only?: ReadonlySet<string>): LinkEntry[] {
  const index = indexRevision(tree);
  const entries = new Map<string, LinkEntry>();
  for (const page of walkPages(tree.pages)) {
    if (only !== undefined && !only.has(page.id)) continue;
    const ctx = { index, from: page.id, anchors: sources.anchors, appPrefixes: sources.appPrefixes };
    const add = (links: readonly DocumentLink[], from: ResolveContext) => {
      for (const link of links) {
        if (typeof link === 'string' && link.trim() === '') continue;
        const resolution = typeof link === 'string' ? resolveLink(link, from) : resolveRef(link, from);
        const { status, target } = resolution;
        const key = linkKey(link, resolution);
        const entry = entries.get(key);
        if (!entry) entries.set(key, { key, status, target, sources: [page.id] });
        else if (!entry.sources.includes(page.id)) entry.sources.push(page.id);
      }
    };
    add(sources.links(page.id) ?? [], ctx);
    // An embedded reusable content's links show on the page; written ones resolve from its include file.
    for (const included of sources.includes?.(page.id) ?? []) add(included.links, { ...ctx, fromGitPath: included.gitPath });
  }
  return [...entries.values()];
}

export interface LinkStats {
  total: number;
  broken: number;
}

export function linkStats(entries: readonly LinkEntry[]): LinkStats {
  return { total: entries.length, broken: entries.filter((e) => e.status === 'broken').length };
}
