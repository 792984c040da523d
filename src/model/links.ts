import { Type, type Static } from '@sinclair/typebox';
import { ListQuery } from './common.js';
import { ChangeRequest } from './change-request.js';
import { RevisionFile } from './file.js';
import { LocationPage } from './page.js';

export const LINK_STATUSES = ['ok', 'broken', 'in-app'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

export const LinkListQuery = Type.Composite(
  [ListQuery, Type.Object({ status: Type.Optional(Type.Union(LINK_STATUSES.map((s) => Type.Literal(s)))) })],
  { additionalProperties: false },
);

/** Where content lives (the published edition 0.181 `ContentLocation`), for the kinds docsync links. */
export const VersionContext = Type.Object({ type: Type.Literal('changeRequest'), changeRequest: ChangeRequest });

export const PageLocation = Type.Object({
  kind: Type.Literal('page'),
  organization: Type.String(),
  space: Type.String(),
  page: LocationPage,
  versionContext: Type.Optional(VersionContext),
  internalLocation: Type.Optional(Type.Object({ type: Type.Literal('anchor'), anchor: Type.String() })),
});
export const FileLocation = Type.Object({
  kind: Type.Literal('file'),
  organization: Type.String(),
  space: Type.String(),
  file: RevisionFile,
  versionContext: Type.Optional(VersionContext),
});
export const UrlLocation = Type.Object({ kind: Type.Literal('url'), url: Type.String() });

/**
 * One schema for the three kinds (`kind` tells them apart) so the serialiser need not pick a
 * branch per item; the TypeScript union below is the precise shape.
 */
export const ContentLocation = Type.Object({
  kind: Type.Union([Type.Literal('page'), Type.Literal('file'), Type.Literal('url')]),
  organization: Type.Optional(Type.String()),
  space: Type.Optional(Type.String()),
  page: Type.Optional(LocationPage),
  file: Type.Optional(RevisionFile),
  url: Type.Optional(Type.String()),
  versionContext: Type.Optional(VersionContext),
  internalLocation: Type.Optional(Type.Object({ type: Type.Literal('anchor'), anchor: Type.String() })),
});
export type ContentLocation = Static<typeof PageLocation> | Static<typeof FileLocation> | Static<typeof UrlLocation>;

export const LinkItem = Type.Object({
  status: Type.Union(LINK_STATUSES.map((s) => Type.Literal(s))),
  relation: Type.Union([Type.Literal('reference'), Type.Literal('dependsOn')]),
  targetReference: Type.Optional(ContentLocation),
  locationReferences: Type.Array(ContentLocation),
});
export type LinkItem = Static<typeof LinkItem>;

export const LinkListing = Type.Object({
  items: Type.Array(LinkItem),
  count: Type.Number(),
  next: Type.Optional(Type.Object({ page: Type.String() })),
  stats: Type.Object({
    total: Type.Number(),
    broken: Type.Object({ total: Type.Number(), changeRequest: Type.Number() }),
  }),
});
export type LinkListing = Static<typeof LinkListing>;
