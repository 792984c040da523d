import { assertNever, type LinkStatus } from '../../model/index.js';
import { classifyLink } from '../markdown/links.js';
import type { RevisionIndex } from './revision-index.js';
import type { StoredRef } from './stored-ref.js';
import { dirOf, joinPath } from '../tree/paths.js';

/** What a link points at once resolved against a revision. */
export type LinkTargetRef = { kind: 'page'; page: string; anchor?: string } | { kind: 'file'; file: string } | { kind: 'url'; url: string };

export interface LinkResolution {
  status: LinkStatus;
  /** The target found; for a broken link, the URL as written. */
  target: LinkTargetRef;
}

export interface ResolveContext {
  index: RevisionIndex;
  /** Id of the page the link is written in (or that embeds the reusable content it is written in). */
  from: string;
  /** The file the link is written in when it is not the page's own: a reusable content's include file. */
  fromGitPath?: string;
  /** Anchors (heading ids) of a page, or undefined when the page has no document. */
  anchors: (pageId: string) => ReadonlySet<string> | undefined;
  /** URL prefixes of this server's app: a link under one is `in-app`. */
  appPrefixes: readonly string[];
}

const ASSETS = '.gitbook/assets/';

function pageTarget(ctx: ResolveContext, pageId: string, anchor: string | undefined, written: string): LinkResolution {
  if (!ctx.index.pageById.has(pageId)) return broken(written);
  if (anchor === undefined || anchor === '') return { status: 'ok', target: { kind: 'page', page: pageId } };
  const ok = ctx.anchors(pageId)?.has(anchor) ?? false;
  return ok ? { status: 'ok', target: { kind: 'page', page: pageId, anchor } } : broken(written);
}

const broken = (url: string): LinkResolution => ({ status: 'broken', target: { kind: 'url', url } });

/** A path inside the space (already joined, no leading `/`): a file, a page file or a page path. */
function resolveSpacePath(
  ctx: ResolveContext,
  path: string,
  anchor: string | undefined,
  written: string,
  byApiPath: boolean,
): LinkResolution {
  const { index } = ctx;
  if (path.startsWith(ASSETS)) {
    const file = index.fileByName.get(path.slice(ASSETS.length));
    return file ? { status: 'ok', target: { kind: 'file', file: file.id } } : broken(written);
  }
  const page = path.endsWith('.md')
    ? index.pageByGitPath.get(path)
    : (index.pageByGitPath.get(`${path}.md`) ??
      index.pageByGitPath.get(`${path}/README.md`) ??
      (byApiPath ? index.pageByPath.get(path) : undefined));
  return page ? pageTarget(ctx, page.id, anchor, written) : broken(written);
}

/**
 * Resolves one link written in page `ctx.from`:
 * - another site: `ok`; a URL under this server's app: `in-app`;
 * - `#anchor`: a heading of the same page;
 * - a relative path: against the page's Git Sync folder, to a page's `.md` file (with `#anchor`
 *   to one of its headings) or to `.gitbook/assets/<name>`;
 * - `/pages/<id>` and `/files/<id>` (stable refs), or an absolute path in the space (a page's
 *   file or API path, or an asset).
 * Anything else is `broken`, with the URL as written as its target.
 */
export function resolveLink(url: string, ctx: ResolveContext): LinkResolution {
  const link = classifyLink(url);
  switch (link.type) {
    case 'external':
      if (ctx.appPrefixes.some((prefix) => url.startsWith(prefix))) return { status: 'in-app', target: { kind: 'url', url } };
      return { status: 'ok', target: { kind: 'url', url } };
    case 'anchor':
      return pageTarget(ctx, ctx.from, link.anchor, url);
    case 'absolute-path': {
      const stable = /^\/(pages|files)\/([^/]+)\/?$/.exec(link.path);
      if (stable?.[1] === 'pages') return pageTarget(ctx, stable[2] ?? '', link.anchor, url);
      if (stable?.[1] === 'files') {
        return ctx.index.fileById.has(stable[2] ?? '') ? { status: 'ok', target: { kind: 'file', file: stable[2] ?? '' } } : broken(url);
      }
      const path = joinPath('', link.path);
      return path === undefined ? broken(url) : resolveSpacePath(ctx, path, link.anchor, url, true);
    }
    case 'relative': {
      if (link.path === '') return pageTarget(ctx, ctx.from, link.anchor, url);
      const path = joinPath(dirOf(ctx.fromGitPath ?? ctx.index.gitPathOf.get(ctx.from) ?? ''), link.path);
      return path === undefined ? broken(url) : resolveSpacePath(ctx, path, link.anchor, url, false);
    }
    default:
      return assertNever(link, 'link type');
  }
}

/**
 * Resolves a stored reference: `ok` when its target is in the revision (and, for an anchor, is a
 * heading of the target page); a target gone is `broken`, with its last known path as the target.
 */
export function resolveRef(ref: StoredRef, ctx: ResolveContext): LinkResolution {
  if (ref.kind === 'file') {
    return ctx.index.fileById.has(ref.id) ? { status: 'ok', target: { kind: 'file', file: ref.id } } : broken(ref.path);
  }
  if (!ctx.index.pageById.has(ref.id)) return broken(ref.anchor === undefined ? ref.path : `${ref.path}#${ref.anchor}`);
  if (ref.anchor === undefined || ref.anchor === '') return { status: 'ok', target: { kind: 'page', page: ref.id } };
  // A heading renamed away breaks the link; the target still names the page, and the anchor.
  const ok = ctx.anchors(ref.id)?.has(ref.anchor) ?? false;
  return { status: ok ? 'ok' : 'broken', target: { kind: 'page', page: ref.id, anchor: ref.anchor } };
}
