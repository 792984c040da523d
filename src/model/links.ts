import { Type, type Static } from '@sinclair/typebox';
import { ListQuery } from './common.js';

export const LINK_STATUSES = ['ok', 'broken', 'in-app'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

export const LinkListQuery = Type.Composite(
  [ListQuery, Type.Object({ status: Type.Optional(Type.Union(LINK_STATUSES.map((s) => Type.Literal(s)))) })],
  { additionalProperties: false },
);

/** A location in content: kept open (`additionalProperties`) until the content engine fills it. */
export const ContentLocation = Type.Object({ kind: Type.String() }, { additionalProperties: true });

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
    broken: Type.Object({ total: Type.Number(), changeRequest: Type.Optional(Type.Number()) }),
  }),
});
