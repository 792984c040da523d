import type { ContentTree, LinkStatus } from '../../model/index.js';
import { walkPages } from '../tree/page-tree.js';
import { indexRevision } from './revision-index.js';
import { resolveLink, type LinkTargetRef } from './resolve-link.js';

/** One target and every page linking to it. */
export interface LinkEntry {
  key: string;
  status: LinkStatus;
  target: LinkTargetRef;
  /** Ids of the pages whose content links to the target, in document order, each once. */
  sources: string[];
}

export interface LinkSources {
  /** URLs of the links written in a page (extractLinks), or undefined when it has no document. */
  links: (pageId: string) => readonly string[] | undefined;
  anchors: (pageId: string) => ReadonlySet<string> | undefined;
  appPrefixes: readonly string[];
}

/** A stable identity for a target: links to the same target are listed as one entry. */
export function targetKey(target: LinkTargetRef): string {
  switch (target.kind) {
    case 'page': return target.anchor === undefined ? `page:${target.page}` : `page:${target.page}#${target.anchor}`;
    case 'file': return `file:${target.file}`;
    case 'url': return `url:${target.url}`;
    default: return assertNever(target);
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
    for (const url of sources.links(page.id) ?? []) {
      if (url.trim() === '') continue;
      const { status, target } = resolveLink(url, ctx);
      const key = targetKey(target);
      const entry = entries.get(key);
      if (!entry) entries.set(key, { key, status, target, sources: [page.id] });
      else if (!entry.sources.includes(page.id)) entry.sources.push(page.id);
    }
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

function assertNever(value: never): never {
  throw new Error(`unknown target ${JSON.stringify(value)}`);
}
