import type { ChangeRequest, ContentLocation, LinkItem, RevisionFile, RevisionPage } from '../../model/index.js';
import type { LinkEntry } from '../../content/index.js';

/** What every location of one listing shares: where the content lives. */
export interface LocationContext {
  organization: string;
  space: string;
  /** Set when the content read is a change request's. */
  changeRequest?: ChangeRequest | undefined;
  /** A page of the revision, rendered without body or children; undefined when absent. */
  page: (pageId: string) => RevisionPage | undefined;
  file: (fileId: string) => RevisionFile | undefined;
}

const versionContext = (ctx: LocationContext) =>
  ctx.changeRequest ? { versionContext: { type: 'changeRequest' as const, changeRequest: ctx.changeRequest } } : {};

export function pageLocation(ctx: LocationContext, pageId: string, anchor?: string): ContentLocation | undefined {
  const page = ctx.page(pageId);
  if (!page) return undefined;
  return {
    kind: 'page',
    organization: ctx.organization,
    space: ctx.space,
    page,
    ...versionContext(ctx),
    ...(anchor !== undefined ? { internalLocation: { type: 'anchor' as const, anchor } } : {}),
  };
}

export function fileLocation(ctx: LocationContext, fileId: string): ContentLocation | undefined {
  const file = ctx.file(fileId);
  return file ? { kind: 'file', organization: ctx.organization, space: ctx.space, file, ...versionContext(ctx) } : undefined;
}

/** A resolved link as a listing item: its target, and the pages that link to it. */
export function linkItemView(entry: LinkEntry, ctx: LocationContext): LinkItem {
  const { target } = entry;
  let targetReference: ContentLocation | undefined;
  switch (target.kind) {
    case 'page':
      targetReference = pageLocation(ctx, target.page, target.anchor);
      break;
    case 'file':
      targetReference = fileLocation(ctx, target.file);
      break;
    case 'url':
      targetReference = { kind: 'url', url: target.url };
      break;
    default:
      targetReference = undefined;
  }
  const locationReferences = entry.sources.flatMap((id) => pageLocation(ctx, id) ?? []);
  return { status: entry.status, relation: 'reference', ...(targetReference ? { targetReference } : {}), locationReferences };
}
